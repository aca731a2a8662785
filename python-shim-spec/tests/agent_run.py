"""Runs the real browser_use Agent (from PyPI, in the venv that runs this; see scripts/python-envs.mjs)
on the shop fixture through the shim, driven by the scripted LangChain chat model (tests/scripted_llm.py,
the shop script: it reads the state message the Agent built and answers as a model would) with
``tool_calling_method='raw'``, and prints one JSON report. Started by test_agent_sequence.py in a
subprocess, so browser_use's logging setup stays out of the test runner.

    python agent_run.py <agent_url> <agent_secret> <fixtures_url>
"""
import asyncio
import importlib.metadata
import json
import os
import sys

os.environ.setdefault('ANONYMIZED_TELEMETRY', 'false')  # no telemetry calls from the test machine

import browser_use  # noqa: E402
from browser_use import Agent  # noqa: E402

import browser_use_ext  # noqa: E402
from browser_use_ext import ExtensionBrowser, ExtensionBrowserContext, ExtensionController, compat  # noqa: E402
from tests.scripted_llm import ScriptedChatModel, ShopScript  # noqa: E402

DEFAULT_INCLUDE_ATTRIBUTES = [
    'title',
    'type',
    'name',
    'role',
    'aria-label',
    'placeholder',
    'value',
    'alt',
    'aria-expanded',
    'data-date-format',
]


def record_calls(ctx, calls, states):
    """Logs the BrowserContext calls the Agent and the Controller make, in order."""
    for name in [
        'get_state',
        'get_current_page',
        'get_selector_map',
        'get_dom_element_by_index',
        'remove_highlights',
        'is_file_uploader',
        '_click_element_node',
        '_input_text_element_node',
        'switch_to_tab',
        'go_back',
    ]:
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
        'classes': {
            n: getattr(compat, n).__module__
            for n in ['DOMElementNode', 'DOMTextNode', 'TabInfo', 'BrowserState', 'ActionResult', 'BrowserError', 'HistoryTreeProcessor']
        },
        'patched': browser_use_ext.PATCHED_BROWSER_USE_AGENT,
    }
    script = ShopScript(fixtures_url + '/shop/')
    llm = ScriptedChatModel(script=script)
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
        steps.append(
            {
                'calls': calls[before:],
                'actions': [{k: v for k, v in a.items() if v is not None} for a in actions],
                'results': [
                    {'extracted_content': r.extracted_content, 'error': r.error, 'is_done': r.is_done, 'success': r.success}
                    for r in item.result
                ],
                'interacted': [
                    None
                    if e is None
                    else {
                        'css_selector': e.css_selector,
                        'tag_name': e.tag_name,
                        'xpath': e.xpath,
                        'ours': ExtensionBrowserContext._enhanced_css_selector_for_element(state.selector_map[e.highlight_index]),
                    }
                    for e in item.state.interacted_element
                ],
                'state_types': [
                    type(state).__module__,
                    type(state.element_tree).__module__,
                    type(state.tabs[0]).__module__ if state.tabs else None,
                ],
                'url': state.url,
            }
        )

    agent.step = step
    try:
        history = await agent.run(max_steps=8)
        report['final_result'] = history.final_result()
        report['choice'] = script.choice
        report['steps'] = steps
        # Prompt format: the real DOMElementNode.clickable_elements_to_string on a fixture page.
        page = await ctx.get_current_page()
        await page.goto(fixtures_url + '/prompt.html')
        st = await ctx.get_state(True)
        report['prompt_text'] = st.element_tree.clickable_elements_to_string(include_attributes=DEFAULT_INCLUDE_ATTRIBUTES)
        report['prompt_selectors'] = {}
        for node in st.selector_map.values():
            css = browser_use.browser.context.BrowserContext._enhanced_css_selector_for_element(node)
            r = await ctx.call('get', {'selector': css, 'what': 'count'})
            report['prompt_selectors'][css] = ((r.get('outcome_details') or {}).get('result') or {}).get('value')
    finally:
        await ctx.close()
        await browser.close()
    print(json.dumps(report))


if __name__ == '__main__':
    asyncio.run(main(*sys.argv[1:4]))
