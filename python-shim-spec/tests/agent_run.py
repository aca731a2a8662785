"""Runs the real browser_use Agent (from PyPI, in the venv that runs this; see scripts/python-envs.mjs)
on the shop fixture through the shim, driven by a scripted LangChain chat model with
``tool_calling_method='raw'``, and prints one JSON report. Started by test_agent_sequence.py in a
subprocess, so browser_use's logging setup stays out of the test runner.

    python agent_run.py <agent_url> <agent_secret> <fixtures_url>
"""
import asyncio
import importlib.metadata
import json
import os
import re
import sys
from typing import Any, Optional

os.environ.setdefault('ANONYMIZED_TELEMETRY', 'false')  # no telemetry calls from the test machine

from langchain_core.language_models.chat_models import BaseChatModel  # noqa: E402
from langchain_core.messages import AIMessage, BaseMessage  # noqa: E402
from langchain_core.outputs import ChatGeneration, ChatResult  # noqa: E402

import browser_use  # noqa: E402
from browser_use import Agent  # noqa: E402
import browser_use_ext  # noqa: E402
from browser_use_ext import ExtensionBrowser, ExtensionBrowserContext, ExtensionController, compat  # noqa: E402

DEFAULT_INCLUDE_ATTRIBUTES = ['title', 'type', 'name', 'role', 'aria-label', 'placeholder', 'value', 'alt', 'aria-expanded', 'data-date-format']


def _text(message: BaseMessage) -> str:
    c = message.content
    if isinstance(c, str):
        return c
    return '\n'.join(part.get('text', '') for part in c if isinstance(part, dict))


class ScriptedShopLLM(BaseChatModel):
    """Stands in for a paid model: reads the state message the real Agent built and answers with
    AgentOutput JSON, as a model would. Every decision is taken from the prompt text."""

    base: str
    seen: list = []
    choice: Optional[dict] = None

    @property
    def _llm_type(self) -> str:
        return 'scripted-shop'

    def _generate(self, messages: list, stop: Optional[list] = None, run_manager: Any = None, **kwargs: Any) -> ChatResult:
        prompt = next(t for t in (_text(m) for m in reversed(messages)) if 'Current url:' in t)
        self.seen.append(prompt)
        return ChatResult(generations=[ChatGeneration(message=AIMessage(content=self._decide(prompt)))])

    def _decide(self, prompt: str) -> str:
        url = re.search(r'Current url: (\S+)', prompt).group(1)
        if '/shop/' not in url:
            return self._out('Open the shop', [{'go_to_url': {'url': self.base + 'index.html'}}])
        if url.endswith('index.html'):
            search = re.search(r"\[(\d+)\]<input type='text' name='q'", prompt)
            button = re.search(r"\[(\d+)\]<button type='submit'>Search />", prompt)
            return self._out('Search for staplers', [
                {'input_text': {'index': int(search.group(1)), 'text': 'stapler'}},
                {'click_element_by_index': {'index': int(button.group(1))}},
            ])
        if '/results.html' in url and 'added to your cart' not in prompt:
            # Lines: "<name>", "$<price>", "[k]<button ... aria-label='Add <name> to cart'>Add to cart />"
            offers = []
            lines = prompt.splitlines()
            for i, line in enumerate(lines):
                m = re.match(r"\s*\[(\d+)\]<button type='button' aria-label='Add (.+) to cart'>Add to cart />", line)
                if m:
                    price = float(re.match(r'\$([\d.]+)', lines[i - 1].strip()).group(1))
                    offers.append((price, int(m.group(1)), m.group(2)))
            price, index, name = min(offers)
            self.choice = {'name': name, 'price': price, 'index': index, 'offers': [o[2] for o in offers]}
            return self._out(f'Add the cheapest stapler ({name}) to the cart', [{'click_element_by_index': {'index': index}}])
        if '/results.html' in url:
            return self._out('Check the cart', [{'go_to_url': {'url': self.base + 'cart.html'}}])
        if url.endswith('cart.html'):
            items = [line.strip() for line in prompt.splitlines() if ' - $' in line]
            return self._out('Done', [{'done': {'text': '; '.join(items), 'success': True}}])
        return self._out('Unexpected page', [{'done': {'text': 'lost at ' + url, 'success': False}}])

    @staticmethod
    def _out(goal: str, actions: list) -> str:
        return json.dumps({'current_state': {'evaluation_previous_goal': '', 'memory': '', 'next_goal': goal}, 'action': actions})


def record_calls(ctx, calls, states):
    """Logs the BrowserContext calls the Agent and the Controller make, in order."""
    for name in ['get_state', 'get_current_page', 'get_selector_map', 'get_dom_element_by_index', 'remove_highlights', 'is_file_uploader', '_click_element_node', '_input_text_element_node', 'switch_to_tab', 'go_back']:
        original = getattr(ctx, name)

        def make(original=original, name=name):
            async def wrapper(*args, **kwargs):
                if name == 'get_state':
                    flag = args[0] if args else kwargs.get('cache_clickable_elements_hashes', False)
                    calls.append(f'get_state({flag})')
                    state = await original(*args, **kwargs)
                    if flag:
                        states.append(state)
                    return state
                calls.append(name)
                return await original(*args, **kwargs)
            return wrapper
        setattr(ctx, name, make())


async def main(agent_url, secret, fixtures_url):
    report = {
        'browser_use_version': importlib.metadata.version('browser-use'),
        'browser_use_file': browser_use.__file__,
        'classes': {n: getattr(compat, n).__module__ for n in ['DOMElementNode', 'DOMTextNode', 'TabInfo', 'BrowserState', 'ActionResult', 'BrowserError', 'HistoryTreeProcessor']},
        'patched': browser_use_ext.PATCHED_BROWSER_USE_AGENT,
    }
    llm = ScriptedShopLLM(base=fixtures_url + '/shop/')
    browser = ExtensionBrowser(bridge_url=agent_url, agent_secret=secret)
    agent = Agent('Find the cheapest stapler and add it to the cart', llm, browser=browser, controller=ExtensionController(),
                  use_vision=False, tool_calling_method='raw')
    ctx = agent.browser_context
    report['context_class'] = type(ctx).__name__
    ctx.config.wait_between_actions = 0.1
    ctx.config.include_screenshot = False
    calls, states = [], []
    record_calls(ctx, calls, states)
    steps = []

    orig_step = agent.step

    async def step(*args, **kwargs):
        before = len(calls)
        await orig_step(*args, **kwargs)
        item = agent.state.history.history[-1]
        state = states[-1]
        actions = [a.model_dump(exclude_unset=True) for a in item.model_output.action] if item.model_output else []
        steps.append({
            'calls': calls[before:],
            'actions': [{k: v for k, v in a.items() if v is not None} for a in actions],
            'results': [{'extracted_content': r.extracted_content, 'error': r.error, 'is_done': r.is_done, 'success': r.success} for r in item.result],
            'interacted': [None if e is None else {'css_selector': e.css_selector, 'tag_name': e.tag_name, 'xpath': e.xpath,
                                                  'ours': ExtensionBrowserContext._enhanced_css_selector_for_element(state.selector_map[e.highlight_index])}
                           for e in item.state.interacted_element],
            'state_types': [type(state).__module__, type(state.element_tree).__module__, type(state.tabs[0]).__module__ if state.tabs else None],
            'url': state.url,
        })
    agent.step = step
    try:
        history = await agent.run(max_steps=8)
        report['final_result'] = history.final_result()
        report['choice'] = llm.choice
        report['steps'] = steps
        # Prompt format: the real DOMElementNode.clickable_elements_to_string on a fixture page.
        page = await ctx.get_current_page()
        await page.goto(fixtures_url + '/prompt.html')
        st = await ctx.get_state(True)
        report['prompt_text'] = st.element_tree.clickable_elements_to_string(include_attributes=DEFAULT_INCLUDE_ATTRIBUTES)
        report['prompt_selectors'] = {}
        for idx, node in st.selector_map.items():
            css = browser_use.browser.context.BrowserContext._enhanced_css_selector_for_element(node)
            r = await ctx.call('get', {'selector': css, 'what': 'count'})
            report['prompt_selectors'][css] = ((r.get('outcome_details') or {}).get('result') or {}).get('value')
    finally:
        await ctx.close()
        await browser.close()
    print(json.dumps(report))


if __name__ == '__main__':
    asyncio.run(main(*sys.argv[1:4]))
