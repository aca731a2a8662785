"""The one scripted model every test suite uses in place of a paid one (Python and Node alike).

Why the server lives here, in Python (stdlib only), and Node starts it: the Python tests need their
script in-process (step callables that read the state message the real browser_use Agent built,
and ``ScriptedChatModel``, a LangChain model answering from the same script without HTTP), so a
Python implementation has to exist anyway. Node needs no dependency to start it: any python3,
Debian's /usr/bin/python3 included, runs this file. The reverse (a Node server that the Python
tests start) would need node and tsx on every Python test run and still leave the in-process model
in Python. Node's scripts stay in Node: the server asks the test for each reply over a loopback
HTTP callback (``--callback URL``), see test/harness/scripted-llm.ts.

Two ways to reach a script, so the real Agent runs unchanged:

- ``ScriptedChatModel``: a LangChain ``BaseChatModel`` subclass. ``bind_tools`` is real, so the Agent's
  ``with_structured_output(AgentOutput)`` goes through LangChain's own tool-call parsing.
- ``ScriptedOpenAIServer``: a local OpenAI-compatible HTTP server (127.0.0.1, ephemeral port, stops
  on ``close()``/``with`` exit or after ``idle_timeout_s`` without a request) that
  ``ChatOpenAI(base_url=server.base_url)``, ``serve --base-url`` or the Node agents talk to: tool
  calling (function calling with the AgentOutput schema), ``response_format`` (json_schema /
  json_object) and plain content (what ``tool_calling_method='raw'`` parses). Besides
  ``POST /v1/chat/completions`` and ``GET /v1/models`` it serves test controls (JSON):
    POST /control {"hold_on": "results.html"}  hold the next agent request whose page URL contains
                                               that, until
    POST /release                              answers it with a harmless scroll step (the held
                                               conversation is stale by then).
    GET  /log                                  the agent steps answered so far: [{"url", "goal", ...}].

Scripts (all answer a ``Seen``; every request is recorded in ``script.requests``):

- ``Script``: a list of agent step outputs, consumed in order. A step is an AgentOutput dict, a list
  of actions, or a callable ``step(seen) -> dict | list`` that reads the state message
  (``seen.index_of('Add to cart')`` finds the ``[N]`` of a line, so scripts do not hard-code element
  indexes). A ``Seen`` has its kind (verify / agent / planner / validator / extract / other), text,
  images and the raw payload, so tests assert what the model received (an image per step with
  use_vision, never a secret).
- ``ShopScript``: decides every step from the prompt, as a model would, on the fixture shop
  (tests/fixtures/shop): open the shop, search "stapler", add the cheapest stapler to the cart (the
  most expensive one after the person redirected the agent: browser_use's add_new_task text), open
  the cart, done.
- ``Shop013Script``: the same shop for browser_use 0.13 (its state format and flat AgentOutput), with a
  second tab: search, add the cheapest stapler, open a second tab, switch back, read the cart, done.
  A held request (/control hold_on) is a slow model: once released it answers the step it decides.
  Its run also answers 0.13's judge (``Agent(use_judge=True)``, the default) with the done's success.
- ``CallbackScript``: asks ``POST <callback>`` {"model", "messages", "authorization"} for each reply,
  which answers {"content": str} or {"error": str} (a 500 to the client).

    python3 tests/scripted_llm.py [--script shop|shop013|callback] [--callback URL] [--shop-url URL] [--port N]
        prints {"base_url": "http://127.0.0.1:<port>/v1"} and serves until killed or stdin closes.
"""
from __future__ import annotations

import argparse
import json
import re
import sys
import threading
import time
import urllib.request
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Callable, Optional, Union

StepOutput = Union[dict, list, Callable[['Seen'], Union[dict, list]]]

# What a held request is answered with after /release: the conversation it carries is stale (the
# person may have redirected the agent meanwhile), so the step must change nothing.
HELD_STEP: list = [{'scroll_down': {'amount': 100}}]


@dataclass
class Seen:
    """One request the model got, normalized across both backends."""
    kind: str
    messages: list[dict]  # [{'role', 'text', 'images': [url, ...]}]
    tool_name: Optional[str]
    raw: str  # everything that was sent, serialized (for "this secret never reached the model")
    body: dict = field(default_factory=dict)  # the parsed HTTP request ({} from ScriptedChatModel)
    authorization: Optional[str] = None  # the HTTP Authorization header, when there was one

    @property
    def last_text(self) -> str:
        return self.messages[-1]['text'] if self.messages else ''

    @property
    def images(self) -> list[str]:
        return [u for m in self.messages for u in m['images']]

    @property
    def last_images(self) -> list[str]:
        return self.messages[-1]['images'] if self.messages else []

    @property
    def url(self) -> str:
        m = re.search(r'Current url: (\S+)', self.last_text)
        return m.group(1) if m else ''

    @property
    def state_text(self) -> str:
        """The latest message that carries a page state ('Current url: ...', or 0.13's <browser_state>), wherever it stands."""
        return next((m['text'] for m in reversed(self.messages) if 'Current url:' in m['text'] or '<browser_state>' in m['text']), '')

    @property
    def page_url(self) -> str:
        m = re.search(r'Current url: (\S+)', self.state_text)
        if m:
            return m.group(1)
        tab = self.current_tab
        return next((url for tab_id, url in self.tabs if tab_id == tab), '')

    @property
    def tabs(self) -> list[tuple[str, str]]:
        """browser_use 0.13's "Available tabs": (4-char tab id, url), in the order it lists them."""
        return re.findall(r'^Tab (\w{4}): (\S*)', self.state_text, re.M)

    @property
    def current_tab(self) -> str:
        """browser_use 0.13's "Current tab: <id>" ('' in 0.1's format)."""
        m = re.search(r'^Current tab: (\w{4})', self.state_text, re.M)
        return m.group(1) if m else ''

    def element_lines(self) -> list[tuple[int, str]]:
        """(index, line) of every ``[N]<tag ...`` line of the state message, whatever N starts at."""
        out = []
        for line in self.last_text.splitlines():
            m = re.match(r'\s*\*?\[(\d+)\]\*?<', line)
            if m:
                out.append((int(m.group(1)), line.strip()))
        return out

    def index_of(self, needle: str, nth: int = 0) -> int:
        """The index of the nth element line containing ``needle`` (a regex when it starts with 're:')."""
        hits = [i for i, line in self.element_lines() if (re.search(needle[3:], line) if needle.startswith('re:') else needle in line)]
        if len(hits) <= nth:
            raise LookupError(f'no element line with {needle!r} in the state the model got:\n{self.last_text}')
        return hits[nth]


def _brain(goal: str, evaluation: str = 'Unknown', memory: str = '') -> dict:
    return {'evaluation_previous_goal': evaluation, 'memory': memory, 'next_goal': goal}


def _classify(messages: list[dict], tool_name: Optional[str]) -> str:
    system = ' '.join(m['text'] for m in messages if m['role'] == 'system')
    last = messages[-1]['text'] if messages else ''
    if 'What is the capital of France' in last:
        return 'verify'
    if 'expert judge evaluating browser automation' in system:
        return 'judge'  # browser_use 0.13 grades every finished run (Agent(use_judge=True) by default)
    # browser_use 0.1 binds the AgentOutput tool; 0.13 asks for the 'agent_output' json_schema.
    if tool_name in ('AgentOutput', 'agent_output') or 'AI agent designed to automate browser tasks' in system:
        return 'agent'
    if tool_name == 'ValidationResult' or 'You are a validator' in system + last:
        return 'validator'
    if 'planning agent' in system or 'planner' in system.lower():
        return 'planner'
    if 'Your task is to extract the content of the page' in last:
        return 'extract'
    return 'other'


def _default_plan(seen: Seen) -> str:
    return json.dumps({'state_analysis': 'scripted', 'progress_evaluation': '0%', 'challenges': [], 'next_steps': ['continue'],
                       'reasoning': 'scripted plan'})


def _default_judgement(seen: Seen) -> dict:
    """browser_use 0.13's JudgementResult. The verdict follows the agent's own done(success=...): the judge
    must not turn a run green that the script finished as a failure."""
    ok = re.search(r'"done":\s*\{[^{}]*"success":\s*true', seen.last_text) is not None
    return {
        'reasoning': "scripted judge: the verdict is the done action's success flag",
        'verdict': ok,
        'failure_reason': '' if ok else 'the agent reported failure',
        'impossible_task': False,
        'reached_captcha': False,
    }


class Script:
    """steps: the agent's step outputs in order. planner/extract/validator: callables(seen) -> str/dict."""

    def __init__(self, steps: list[StepOutput], *, planner: Optional[Callable[[Seen], str]] = None,
                 extract: Optional[Callable[[Seen], str]] = None, validator: Optional[Callable[[Seen], dict]] = None) -> None:
        self.steps = list(steps)
        self.planner = planner or _default_plan
        self.extract = extract or (lambda seen: json.dumps({'extracted': 'nothing'}))
        self.validator = validator or (lambda seen: {'is_valid': True, 'reason': 'scripted validator: looks right'})
        self.judge: Callable[[Seen], dict] = _default_judgement
        self.requests: list[Seen] = []
        self.errors: list[str] = []
        self.decisions: list[dict] = []  # GET /log
        self._lock = threading.Lock()
        self._hold_on: Optional[str] = None
        self._released = threading.Event()

    def of_kind(self, kind: str) -> list[Seen]:
        return [s for s in self.requests if s.kind == kind]

    # -- test controls (POST /control, POST /release, GET /log) --

    def hold_on(self, url_part: Optional[str]) -> None:
        """Hold the next agent request whose page URL contains url_part until release()."""
        self._hold_on = url_part
        self._released.clear()

    def release(self) -> None:
        self._released.set()

    def log(self) -> list[dict]:
        with self._lock:
            return list(self.decisions)

    # -- answering --

    def answer(self, seen: Seen) -> Any:
        """A str (content) or dict (structured output) for this request."""
        with self._lock:
            self.requests.append(seen)
        if seen.kind == 'verify':
            return 'Paris'
        if seen.kind == 'planner':
            return self.planner(seen)
        if seen.kind == 'extract':
            return self.extract(seen)
        if seen.kind == 'validator':
            return self.validator(seen)
        if seen.kind == 'judge':
            return self.judge(seen)
        if seen.kind != 'agent':
            return 'ok'
        hold = self._hold_on
        if hold and hold in seen.page_url:
            self._hold_on = None
            self._record(seen, 'held')
            self._released.wait(60)
            out: Any = self._held_output(seen)
        else:
            with self._lock:
                out = self._as_output(self._step_output(seen), 'scripted')
        self._record(seen, str(out.get('current_state', {}).get('next_goal', '') or out.get('next_goal', '')))
        return out

    def _step_output(self, seen: Seen) -> Any:
        if not self.steps:
            return [{'done': {'text': 'the script ran out of steps', 'success': False}}]
        step = self.steps.pop(0)
        try:
            return step(seen) if callable(step) else step
        except Exception as e:  # a script bug shows in the test, not as a hung agent
            self.errors.append(f'{type(e).__name__}: {e}')
            return [{'done': {'text': f'script error: {e}', 'success': False}}]

    def _held_output(self, seen: Seen) -> Any:
        """The answer to a held request once released: a harmless step (the person may have redirected
        the agent meanwhile, so the conversation it carries is stale)."""
        return self._as_output(HELD_STEP, 'Look at the results again')

    @staticmethod
    def _as_output(out: Any, goal: str) -> Any:
        return {'current_state': _brain(goal), 'action': out} if isinstance(out, list) else out

    def _record(self, seen: Seen, goal: str) -> None:
        with self._lock:
            self.decisions.append({'url': seen.page_url, 'goal': goal, **self._log_extra(seen)})

    def _log_extra(self, seen: Seen) -> dict:
        return {}


class ShopScript(Script):
    """Shops on the fixture shop, deciding each step from the prompt (see the module docstring).
    ``choice`` is the offer it added: {'name', 'price', 'index', 'offers': [names in page order]}."""

    def __init__(self, shop_url: Optional[str] = None) -> None:
        super().__init__([])
        self.shop_url = shop_url  # .../shop/; else the first shop URL in the conversation
        self.choice: Optional[dict] = None

    @staticmethod
    def redirected(seen: Seen) -> bool:
        return any('Your new ultimate task is' in m['text'] and 'most expensive' in m['text'].lower() for m in seen.messages)

    def _log_extra(self, seen: Seen) -> dict:
        return {'redirected': self.redirected(seen)}

    def _step_output(self, seen: Seen) -> Any:
        n = len(self.of_kind('agent'))
        goal, actions = self.decide(seen)
        return {'current_state': _brain(goal, 'Success' if n > 2 else 'Unknown - first step', f'step {n}'), 'action': actions}

    def decide(self, seen: Seen) -> tuple[str, list[dict]]:
        """(next goal, actions) from the conversation browser_use sent."""
        state, url = seen.state_text, seen.page_url
        redirected = self.redirected(seen)
        base = re.sub(r'/shop/.*$', '/shop/', url) if '/shop/' in url else None
        if base is None:
            shop = self.shop_url or next(
                (m.group(1) for m in (re.search(r'(https?://[^\s"\']+/shop/)', x['text']) for x in seen.messages) if m),
                'http://127.0.0.1/shop/',
            )
            return 'Open the shop', [{'go_to_url': {'url': shop + 'index.html'}}]
        page = url.split('?')[0]
        if page.endswith('index.html'):
            box = re.search(r"\[(\d+)\]<input[^>]*name='q'", state)
            button = re.search(r"\[(\d+)\]<button type='submit'>Search", state)
            if not box or not button:
                return 'Find the search box', [{'scroll_down': {'amount': 200}}]
            return 'Search for staplers', [
                {'input_text': {'index': int(box.group(1)), 'text': 'stapler'}},
                {'click_element_by_index': {'index': int(button.group(1))}},
            ]
        if '/results.html' in url and 'added to your cart' not in state:
            # Lines: "<name>", "$<price>", "[k]<button ... aria-label='Add <name> to cart'>Add to cart />"
            offers = []
            lines = state.splitlines()
            for i, line in enumerate(lines):
                m = re.search(r"\[(\d+)\]<button[^>]*aria-label='Add (.+?) to cart'", line)
                if m:
                    prices = re.findall(r'\$([\d.]+)', '\n'.join(lines[max(0, i - 2) : i + 1]))
                    if prices:
                        offers.append((float(prices[-1]), int(m.group(1)), m.group(2)))
            if not offers:
                return 'Look for the results', [{'scroll_down': {'amount': 200}}]
            price, index, name = (max if redirected else min)(offers)
            self.choice = {'name': name, 'price': price, 'index': index, 'offers': [o[2] for o in offers]}
            which = 'most expensive' if redirected else 'cheapest'
            return f'Add the {which} stapler ({name}, ${price:.2f}) to the cart', [{'click_element_by_index': {'index': index}}]
        if '/results.html' in url:
            return 'Check the cart', [{'go_to_url': {'url': base + 'cart.html'}}]
        if page.endswith('cart.html'):
            items = [line.strip() for line in state.splitlines() if ' - $' in line and '[' not in line]
            return 'Report the cart', [{'done': {'text': '; '.join(items), 'success': True}}]
        return 'Unexpected page', [{'done': {'text': 'lost at ' + url, 'success': False}}]


class Shop013Script(Script):
    """The fixture-shop task for browser_use 0.13 (``--script shop013``), decided from each state as a model
    would. 0.13 lists elements as ``[N]<tag attr=value />`` with their text on the lines below, names tabs
    by a 4-char id ("Current tab: 89A6", "Tab 89A6: <url> - <title>") and wants a flat AgentOutput
    ({thinking?, evaluation_previous_goal, memory, next_goal, action: [{name: params}]}).

    The run: open the shop, search "stapler", add the cheapest stapler, open the shop's home page in a
    second tab, switch back to the first tab, open the cart there and finish with ``done`` listing its
    items (success only when the cheapest stapler is in it). ``choice`` is the offer added, as in ShopScript.
    """

    def __init__(self, shop_url: Optional[str] = None) -> None:
        super().__init__([])
        self.shop_url = shop_url
        self.choice: Optional[dict] = None

    def _step_output(self, seen: Seen) -> Any:
        n = len(self.of_kind('agent'))
        goal, actions = self.decide(seen)
        return {
            'thinking': f'scripted step {n}',
            'evaluation_previous_goal': 'Success' if n > 1 else 'Unknown - first step',
            'memory': f'step {n}: {goal}',
            'next_goal': goal,
            'action': actions,
        }

    def _log_extra(self, seen: Seen) -> dict:
        # The page state the model was shown, so a test can check what a CDP endpoint put in it.
        return {'state': seen.state_text}

    def _held_output(self, seen: Seen) -> Any:
        # Nothing redirects a 0.13 agent: a held request is a slow model, answered once released with the
        # step it decides for the state it got (the e2e Stop case presses Stop while it "thinks").
        with self._lock:
            return self._step_output(seen)

    @staticmethod
    def _as_output(out: Any, goal: str) -> Any:
        # A list of actions becomes 0.13's flat AgentOutput (it has no current_state).
        if isinstance(out, list):
            return {'evaluation_previous_goal': 'Unknown', 'memory': goal, 'next_goal': goal, 'action': out}
        return out

    # Which shop page the elements show, by what a reader sees on it (the URL part of that page).
    _PAGE_SIGNS = (
        ('results.html', re.compile(r'<button[^>]*aria-label=Add .+? to cart')),
        ('cart.html', re.compile(r'<button id=empty\b|^\s*Your cart\s*$', re.M)),
        ('index.html', re.compile(r'<input[^>]*name=q\b')),
    )

    @classmethod
    def current_page(cls, seen: Seen) -> tuple[str, str]:
        """(tab id, url) of the page the state shows. browser_use 0.13 writes "Current tab: <id>" only when
        exactly one tab of its list has the url AND title it read for the page; it reads the list first and
        the title last, so a title that changes in between (a page's <title> arriving while the state is
        captured) leaves no current tab. A model then tells the page by what it shows: the one listed tab
        whose URL is that kind of shop page, else the page the last action result says it opened."""
        tabs, current = seen.tabs, seen.current_tab
        if current:
            return current, next((url for tab_id, url in tabs if tab_id == current), '')
        if len(tabs) == 1:
            return tabs[0]
        elements = seen.state_text.split('Interactive elements', 1)[-1]
        kind = next((part for part, sign in cls._PAGE_SIGNS if sign.search(elements)), None)
        same_kind = [t for t in tabs if kind and kind in t[1].split('?')[0]]
        if len(same_kind) == 1:
            return same_kind[0]
        history = seen.state_text.split('<browser_state>', 1)[0]
        opened = re.findall(r'(?:Opened new tab with URL|Navigated to) (\S+)', history)
        listed = [t for t in tabs if opened and t[1] == opened[-1]]
        return listed[-1] if listed else ('', '')

    def decide(self, seen: Seen) -> tuple[str, list[dict]]:
        state, tabs = seen.state_text, seen.tabs
        current, url = self.current_page(seen)
        if '/shop/' not in url:
            shop = self.shop_url or next(
                (m.group(1) for m in (re.search(r'(https?://[^\s"\'<]+/shop/)', x['text']) for x in seen.messages) if m),
                'http://127.0.0.1/shop/',
            )
            return 'Open the shop', [{'navigate': {'url': shop + 'index.html', 'new_tab': False}}]
        base = re.sub(r'/shop/.*$', '/shop/', url)
        page = url.split('?')[0]
        first = tabs[0][0] if tabs else current
        if len(tabs) > 1 and current != first:
            return 'Go back to the first tab', [{'switch': {'tab_id': first}}]
        if page.endswith('index.html') and len(tabs) == 1 and not self.choice:
            box = re.search(r'\[(\d+)\]<input[^>]*name=q\b', state)
            button = re.search(r'\[(\d+)\]<button type=submit[^>]*>\s*\n\s*Search', state)
            if not box or not button:
                return 'Find the search box', [{'scroll': {'down': True, 'pages': 0.5}}]
            return 'Search for staplers', [
                {'input': {'index': int(box.group(1)), 'text': 'stapler', 'clear': True}},
                {'click': {'index': int(button.group(1))}},
            ]
        if '/results.html' in page and 'added to your cart' not in state:
            # "<name>" and "$<price>" are text lines before "[k]<button ... aria-label=Add <name> to cart />".
            offers = []
            lines = state.splitlines()
            for i, line in enumerate(lines):
                m = re.search(r'\[(\d+)\]<button[^>]*aria-label=Add (.+?) to cart', line)
                if m:
                    prices = re.findall(r'\$([\d.]+)', '\n'.join(lines[max(0, i - 3) : i + 1]))
                    if prices:
                        offers.append((float(prices[-1]), int(m.group(1)), m.group(2)))
            if not offers:
                return 'Look for the results', [{'scroll': {'down': True, 'pages': 0.5}}]
            price, index, name = min(offers)
            self.choice = {'name': name, 'price': price, 'index': index, 'offers': [o[2] for o in offers]}
            return f'Add the cheapest stapler ({name}, ${price:.2f}) to the cart', [{'click': {'index': index}}]
        if '/results.html' in page and len(tabs) == 1:
            return 'Open the shop in a second tab', [{'navigate': {'url': base + 'index.html', 'new_tab': True}}]
        if '/results.html' in page:
            link = re.search(r'\[(\d+)\]<a id=cart-link', state)
            if link:
                return 'Open the cart', [{'click': {'index': int(link.group(1))}}]
            return 'Open the cart', [{'navigate': {'url': base + 'cart.html', 'new_tab': False}}]
        if page.endswith('cart.html'):
            items = [line.strip() for line in state.splitlines() if re.search(r' - \$[\d.]+$', line.strip()) and '[' not in line]
            ok = bool(self.choice) and any(line.startswith(str(self.choice['name'])) for line in items)
            return 'Report the cart', [{'done': {'text': 'Cart: ' + '; '.join(items), 'success': ok}}]
        return 'Unexpected page', [{'done': {'text': 'lost at ' + url, 'success': False}}]


class CallbackScript(Script):
    """Asks ``callback_url`` for every reply (the Node tests keep their scripts in Node)."""

    def __init__(self, callback_url: str, timeout_s: float = 600) -> None:
        super().__init__([])
        self.callback_url = callback_url
        self.timeout_s = timeout_s
        # Never through an http_proxy from the environment: the callback is on loopback.
        self._opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))

    def answer(self, seen: Seen) -> Any:
        with self._lock:
            self.requests.append(seen)
        payload = {'model': seen.body.get('model'), 'messages': seen.body.get('messages') or [], 'authorization': seen.authorization}
        req = urllib.request.Request(
            self.callback_url, data=json.dumps(payload).encode('utf-8'), headers={'content-type': 'application/json'}
        )
        with self._opener.open(req, timeout=self.timeout_s) as r:
            reply = json.loads(r.read().decode('utf-8'))
        if 'error' in reply:
            raise RuntimeError(str(reply['error']))
        return str(reply['content'])


# ---- LangChain chat model -----------------------------------------------------------------------


def _lc_messages(messages: list) -> list[dict]:
    out = []
    for m in messages:
        role = {'human': 'user', 'ai': 'assistant', 'system': 'system', 'tool': 'tool'}.get(
            getattr(m, 'type', ''), str(getattr(m, 'type', ''))
        )
        text, images = _parts(getattr(m, 'content', ''))
        for call in getattr(m, 'tool_calls', None) or []:
            text += '\n' + json.dumps(call.get('args'), default=str)
        out.append({'role': role, 'text': text, 'images': images})
    return out


def _parts(content: Any) -> tuple[str, list[str]]:
    if isinstance(content, str):
        return content, []
    texts, images = [], []
    for p in content or []:
        if isinstance(p, str):
            texts.append(p)
        elif isinstance(p, dict) and p.get('type') == 'text':
            texts.append(str(p.get('text', '')))
        elif isinstance(p, dict) and p.get('type') == 'image_url':
            iu = p.get('image_url')
            images.append(iu.get('url') if isinstance(iu, dict) else str(iu))
    return '\n'.join(texts), images


try:
    from langchain_core.language_models.chat_models import BaseChatModel
    from langchain_core.messages import AIMessage
    from langchain_core.outputs import ChatGeneration, ChatResult

    class ScriptedChatModel(BaseChatModel):
        """``Agent(task, llm=ScriptedChatModel(script=...))``: answers from the script; tool calls when
        tools are bound (the Agent's with_structured_output), JSON content otherwise (raw)."""

        script: Any
        model_name: str = 'scripted-model'

        @property
        def _llm_type(self) -> str:
            return 'scripted'

        def bind_tools(self, tools: Any, **kwargs: Any) -> Any:
            from langchain_core.utils.function_calling import convert_to_openai_tool

            return self.bind(tools=[convert_to_openai_tool(t) for t in tools], **kwargs)

        def _generate(self, messages: list, stop: Any = None, run_manager: Any = None, **kwargs: Any) -> ChatResult:
            tools = kwargs.get('tools') or []
            tool_name = tools[0]['function']['name'] if tools else None
            norm = _lc_messages(messages)
            raw = json.dumps(
                {'messages': [m.model_dump() if hasattr(m, 'model_dump') else str(m) for m in messages], 'tools': tools}, default=str
            )
            seen = Seen(_classify(norm, tool_name), norm, tool_name, raw)
            answer = self.script.answer(seen)
            if tool_name:
                args = answer if isinstance(answer, dict) else {'content': answer}
                call = {'name': tool_name, 'args': args, 'id': f'call_{len(self.script.requests)}', 'type': 'tool_call'}
                msg = AIMessage(content='', tool_calls=[call])
            else:
                msg = AIMessage(content=answer if isinstance(answer, str) else json.dumps(answer))
            return ChatResult(generations=[ChatGeneration(message=msg)])
except ImportError:  # pragma: no cover - langchain is installed with browser_use; the Node tests run this without it
    ScriptedChatModel = None  # type: ignore[assignment, misc]


# ---- OpenAI-compatible HTTP server --------------------------------------------------------------


def _openai_messages(messages: list) -> list[dict]:
    out = []
    for m in messages:
        text, images = _parts(m.get('content'))
        for call in m.get('tool_calls') or []:
            text += '\n' + str((call.get('function') or {}).get('arguments', ''))
        out.append({'role': str(m.get('role')), 'text': text, 'images': images})
    return out


class ScriptedOpenAIServer:
    """``with ScriptedOpenAIServer(script) as s: ChatOpenAI(base_url=s.base_url, api_key='sk-scripted', model='gpt-4o')``."""

    def __init__(self, script: Script, idle_timeout_s: float = 300, port: int = 0) -> None:
        self.script = script
        self.idle_timeout_s = idle_timeout_s
        self._last = time.monotonic()
        self._closed = False
        owner = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *a: Any) -> None:  # keep test output clean
                pass

            def do_GET(self) -> None:
                path = self.path.rstrip('/')
                if path == '/log':
                    self._send(200, owner.script.log())
                elif path.endswith('/models'):
                    self._send(200, {'object': 'list', 'data': [{'id': 'gpt-4o', 'object': 'model', 'owned_by': 'scripted'}]})
                else:
                    self._send(404, {'error': {'message': f'{self.path} is not served', 'type': 'invalid_request_error'}})

            def do_POST(self) -> None:
                owner._last = time.monotonic()
                body = self.rfile.read(int(self.headers.get('content-length') or 0)).decode('utf-8')
                path = self.path.rstrip('/')
                if path == '/control':
                    owner.script.hold_on((json.loads(body or '{}') or {}).get('hold_on'))
                    self._send(200, {'ok': True})
                elif path == '/release':
                    owner.script.release()
                    self._send(200, {'ok': True})
                elif not path.endswith('/chat/completions'):
                    self._send(404, {'error': {'message': f'{self.path} is not served', 'type': 'invalid_request_error'}})
                else:
                    try:
                        self._send(200, owner._complete(json.loads(body), body, self.headers.get('authorization')))
                    except Exception as e:
                        owner.script.errors.append(f'server: {type(e).__name__}: {e}')
                        self._send(500, {'error': {'message': str(e), 'type': 'server_error'}})

            def _send(self, code: int, payload: Any) -> None:
                data = json.dumps(payload).encode('utf-8')
                try:
                    self.send_response(code)
                    self.send_header('content-type', 'application/json')
                    self.send_header('content-length', str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up (an agent stopped while its request was held)

        self._httpd = ThreadingHTTPServer(('127.0.0.1', port), Handler)
        self._httpd.daemon_threads = True
        self.port = self._httpd.server_address[1]
        self.base_url = f'http://127.0.0.1:{self.port}/v1'
        self._thread = threading.Thread(target=self._httpd.serve_forever, kwargs={'poll_interval': 0.2}, daemon=True)
        self._thread.start()
        self._watchdog = threading.Thread(target=self._stop_when_idle, daemon=True)
        self._watchdog.start()

    def _stop_when_idle(self) -> None:
        while not self._closed:
            time.sleep(1)
            if time.monotonic() - self._last > self.idle_timeout_s:
                self.close()

    def _complete(self, req: dict, raw: str, authorization: Optional[str]) -> dict:
        tools = req.get('tools') or []
        functions = req.get('functions') or []
        rf = req.get('response_format') or {}
        tool_name = None
        if tools:
            tool_name = tools[0]['function']['name']
        elif functions:
            tool_name = functions[0]['name']
        elif rf.get('type') == 'json_schema':
            tool_name = (rf.get('json_schema') or {}).get('name')
        norm = _openai_messages(req.get('messages') or [])
        answer = self.script.answer(Seen(_classify(norm, tool_name), norm, tool_name, raw, req, authorization))
        content = answer if isinstance(answer, str) else json.dumps(answer)
        message: dict = {'role': 'assistant', 'content': content}
        finish = 'stop'
        if tools:
            message = {
                'role': 'assistant',
                'content': None,
                'tool_calls': [
                    {'id': f'call_{len(self.script.requests)}', 'type': 'function', 'function': {'name': tool_name, 'arguments': content}}
                ],
            }
            finish = 'tool_calls'
        elif functions:
            message = {'role': 'assistant', 'content': None, 'function_call': {'name': tool_name, 'arguments': content}}
            finish = 'function_call'
        return {
            'id': f'chatcmpl-{len(self.script.requests)}',
            'object': 'chat.completion',
            'created': int(time.time()),
            'model': req.get('model', 'gpt-4o'),
            'choices': [{'index': 0, 'message': message, 'finish_reason': finish, 'logprobs': None}],
            'usage': {
                'prompt_tokens': len(raw) // 4,
                'completion_tokens': len(content) // 4,
                'total_tokens': (len(raw) + len(content)) // 4,
            },
        }

    def wait_closed(self) -> None:
        self._thread.join()

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        self._httpd.shutdown()
        self._httpd.server_close()

    def __enter__(self) -> 'ScriptedOpenAIServer':
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


def main(argv: Optional[list[str]] = None) -> None:
    ap = argparse.ArgumentParser(description='A scripted OpenAI-compatible chat server for the tests.')
    ap.add_argument('--script', choices=['shop', 'shop013', 'callback'], default='shop')
    ap.add_argument('--callback', help='with --script callback: the URL asked for each reply')
    ap.add_argument('--shop-url', help='with --script shop: the shop to open (.../shop/); else found in the conversation')
    ap.add_argument('--port', type=int, default=0)
    ap.add_argument('--idle-timeout', type=float, default=900, help='stop after this many seconds without a request')
    ap.add_argument('--exit-with-stdin', action='store_true', help='stop when stdin closes (the parent test process ended)')
    args = ap.parse_args(argv)
    if args.script == 'callback' and not args.callback:
        ap.error('--script callback needs --callback URL (where to ask for each reply)')
    script: Script
    if args.script == 'callback':
        script = CallbackScript(args.callback)
    elif args.script == 'shop013':
        script = Shop013Script(args.shop_url)
    else:
        script = ShopScript(args.shop_url)
    server = ScriptedOpenAIServer(script, idle_timeout_s=args.idle_timeout, port=args.port)
    print(json.dumps({'base_url': server.base_url}), flush=True)
    if args.exit_with_stdin:
        threading.Thread(target=lambda: (sys.stdin.read(), server.close()), daemon=True).start()
    server.wait_closed()


if __name__ == '__main__':
    main()
