"""A scripted model in place of a paid one, two ways, so the real browser_use Agent runs unchanged:

- ``ScriptedChatModel``: a LangChain ``BaseChatModel`` subclass. ``bind_tools`` is real, so the Agent's
  ``with_structured_output(AgentOutput)`` goes through LangChain's own tool-call parsing.
- ``ScriptedOpenAIServer``: a local OpenAI-compatible HTTP server (stdlib, 127.0.0.1, ephemeral port,
  stops on ``close()``/``with`` exit or after ``idle_timeout_s`` without a request) that
  ``ChatOpenAI(base_url=server.base_url)`` talks to: tool calling (function calling with the
  AgentOutput schema), ``response_format`` (json_schema / json_object) and plain content (what
  ``tool_calling_method='raw'`` parses).

Both answer from one ``Script``: a list of agent step outputs, consumed in order. A step is an
AgentOutput dict, a list of actions, or a callable ``step(seen) -> dict | list`` that reads the state
message the Agent built (``seen.index_of('Add to cart')`` finds the ``[N]`` of a line, so scripts do
not hard-code element indexes). Every request is recorded (``script.requests``) as a ``Seen``: its
kind (verify / agent / planner / validator / extract / other), text, images and the raw payload, so
tests assert what the model received (an image per step with use_vision, never a secret).
"""
from __future__ import annotations

import json
import re
import threading
import time
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Callable, Optional, Union

StepOutput = Union[dict, list, Callable[['Seen'], Union[dict, list]]]


@dataclass
class Seen:
    """One request the model got, normalized across both backends."""
    kind: str
    messages: list[dict]  # [{'role', 'text', 'images': [url, ...]}]
    tool_name: Optional[str]
    raw: str  # everything that was sent, serialized (for "this secret never reached the model")

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


def _brain(goal: str) -> dict:
    return {'evaluation_previous_goal': 'Unknown', 'memory': '', 'next_goal': goal}


def _classify(messages: list[dict], tool_name: Optional[str]) -> str:
    system = ' '.join(m['text'] for m in messages if m['role'] == 'system')
    last = messages[-1]['text'] if messages else ''
    if 'What is the capital of France' in last:
        return 'verify'
    if tool_name == 'AgentOutput' or 'AI agent designed to automate browser tasks' in system:
        return 'agent'
    if tool_name == 'ValidationResult' or 'You are a validator' in system + last:
        return 'validator'
    if 'planning agent' in system or 'planner' in system.lower():
        return 'planner'
    if 'Your task is to extract the content of the page' in last:
        return 'extract'
    return 'other'


class Script:
    """steps: the agent's step outputs in order. planner/extract/validator: callables(seen) -> str/dict."""

    def __init__(self, steps: list[StepOutput], *, planner: Optional[Callable[[Seen], str]] = None,
                 extract: Optional[Callable[[Seen], str]] = None, validator: Optional[Callable[[Seen], dict]] = None) -> None:
        self.steps = list(steps)
        self.planner = planner or (lambda seen: json.dumps({'state_analysis': 'scripted', 'progress_evaluation': '0%', 'challenges': [], 'next_steps': ['continue'], 'reasoning': 'scripted plan'}))
        self.extract = extract or (lambda seen: json.dumps({'extracted': 'nothing'}))
        self.validator = validator or (lambda seen: {'is_valid': True, 'reason': 'scripted validator: looks right'})
        self.requests: list[Seen] = []
        self.errors: list[str] = []
        self._lock = threading.Lock()

    def of_kind(self, kind: str) -> list[Seen]:
        return [s for s in self.requests if s.kind == kind]

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
            if seen.kind != 'agent':
                return 'ok'
            if not self.steps:
                out: Any = [{'done': {'text': 'the script ran out of steps', 'success': False}}]
            else:
                step = self.steps.pop(0)
                try:
                    out = step(seen) if callable(step) else step
                except Exception as e:  # a script bug shows in the test, not as a hung agent
                    self.errors.append(f'{type(e).__name__}: {e}')
                    out = [{'done': {'text': f'script error: {e}', 'success': False}}]
            if isinstance(out, list):
                out = {'current_state': _brain('scripted'), 'action': out}
            return out


# ---- LangChain chat model -----------------------------------------------------------------------

def _lc_messages(messages: list) -> list[dict]:
    out = []
    for m in messages:
        role = {'human': 'user', 'ai': 'assistant', 'system': 'system', 'tool': 'tool'}.get(getattr(m, 'type', ''), str(getattr(m, 'type', '')))
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
            raw = json.dumps({'messages': [m.model_dump() if hasattr(m, 'model_dump') else str(m) for m in messages], 'tools': tools}, default=str)
            seen = Seen(_classify(norm, tool_name), norm, tool_name, raw)
            answer = self.script.answer(seen)
            if tool_name:
                args = answer if isinstance(answer, dict) else {'content': answer}
                msg = AIMessage(content='', tool_calls=[{'name': tool_name, 'args': args, 'id': f'call_{len(self.script.requests)}', 'type': 'tool_call'}])
            else:
                msg = AIMessage(content=answer if isinstance(answer, str) else json.dumps(answer))
            return ChatResult(generations=[ChatGeneration(message=msg)])
except ImportError:  # pragma: no cover - langchain is installed with browser_use
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

    def __init__(self, script: Script, idle_timeout_s: float = 300) -> None:
        self.script = script
        self.idle_timeout_s = idle_timeout_s
        self._last = time.monotonic()
        self._closed = False
        owner = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *a: Any) -> None:  # keep test output clean
                pass

            def do_GET(self) -> None:
                if self.path.rstrip('/').endswith('/models'):
                    self._send(200, {'object': 'list', 'data': [{'id': 'gpt-4o', 'object': 'model', 'owned_by': 'scripted'}]})
                else:
                    self._send(404, {'error': {'message': 'not found', 'type': 'invalid_request_error'}})

            def do_POST(self) -> None:
                owner._last = time.monotonic()
                body = self.rfile.read(int(self.headers.get('content-length') or 0)).decode('utf-8')
                if not self.path.rstrip('/').endswith('/chat/completions'):
                    self._send(404, {'error': {'message': f'{self.path} is not served', 'type': 'invalid_request_error'}})
                    return
                try:
                    self._send(200, owner._complete(json.loads(body), body))
                except Exception as e:
                    owner.script.errors.append(f'server: {type(e).__name__}: {e}')
                    self._send(500, {'error': {'message': str(e), 'type': 'server_error'}})

            def _send(self, code: int, payload: dict) -> None:
                data = json.dumps(payload).encode('utf-8')
                self.send_response(code)
                self.send_header('content-type', 'application/json')
                self.send_header('content-length', str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self._httpd = ThreadingHTTPServer(('127.0.0.1', 0), Handler)
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

    def _complete(self, req: dict, raw: str) -> dict:
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
        answer = self.script.answer(Seen(_classify(norm, tool_name), norm, tool_name, raw))
        content = answer if isinstance(answer, str) else json.dumps(answer)
        message: dict = {'role': 'assistant', 'content': content}
        finish = 'stop'
        if tools:
            message = {'role': 'assistant', 'content': None, 'tool_calls': [
                {'id': f'call_{len(self.script.requests)}', 'type': 'function', 'function': {'name': tool_name, 'arguments': content}}]}
            finish = 'tool_calls'
        elif functions:
            message = {'role': 'assistant', 'content': None, 'function_call': {'name': tool_name, 'arguments': content}}
            finish = 'function_call'
        return {
            'id': f'chatcmpl-{len(self.script.requests)}', 'object': 'chat.completion', 'created': int(time.time()),
            'model': req.get('model', 'gpt-4o'),
            'choices': [{'index': 0, 'message': message, 'finish_reason': finish, 'logprobs': None}],
            'usage': {'prompt_tokens': len(raw) // 4, 'completion_tokens': len(content) // 4, 'total_tokens': (len(raw) + len(content)) // 4},
        }

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
