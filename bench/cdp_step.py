"""npm run bench:cdp, part 3: one browser_use 0.13 Agent step's browser work through each CDP endpoint.

    .venvs/bu013/bin/python bench/cdp_step.py ARGS_JSON OUT_JSON

ARGS_JSON: {"sides": {"ours": <the bridge's /cdp/<token> URL>, "direct": <Chromium's http://127.0.0.1:PORT>},
"url": <fixture page>, "runs": N, "configs": {"default": {}, "no_waits": {<BrowserProfile fields>}}}.

A step is what the Agent does per step, without the model: ``get_browser_state_summary()`` (DOM +
accessibility tree, screenshot) and one action through browser_use's own Tools (the registry action
the Agent runs): ``click`` by index on a button (ClickElementEvent), ``input`` of a short text by index
into a text field (TypeTextEvent), and ``navigate`` to the page again (NavigateToUrlEvent). Each run
takes one step of each kind, in that order. Each side has its own
BrowserSession(cdp_url=...) and its own new tab on the same page; the sides alternate step by step
(ours, direct, ours, ...) so the machine's load hits both alike; before each step (untimed) the
side's tab is brought to the front (see to_front). Times in ms (perf_counter), per
step: state, click, and their sum; the script writes the raw samples, the caller summarizes them
(bench/stats.ts, nearest rank).
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
import time
from typing import Any

os.environ.setdefault('ANONYMIZED_TELEMETRY', 'false')
os.environ.setdefault('BROWSER_USE_CLOUD_SYNC', 'false')

# The button the step clicks: it changes the page (a counter) without navigating away.
BUTTON_TEXT = 'Increment'


def find_button(state: Any) -> int:
    for index, node in state.dom_state.selector_map.items():
        if node.tag_name == 'button' and BUTTON_TEXT in node.get_all_children_text():
            return int(index)
    raise RuntimeError(f'no "{BUTTON_TEXT}" button among {len(state.dom_state.selector_map)} interactive elements')


def find_input(state: Any) -> int:
    for index, node in state.dom_state.selector_map.items():
        if node.tag_name == 'input':
            return int(index)
    raise RuntimeError(f'no text field among {len(state.dom_state.selector_map)} interactive elements')


async def open_side(cdp_url: str, url: str, profile_fields: dict[str, Any]) -> Any:
    from browser_use import Browser

    # Browser(cdp_url=...) as an Agent is given it (Browser is BrowserSession).
    session = Browser(cdp_url=cdp_url, **profile_fields)
    await session.start()
    # Its own tab on each side: through Chromium's own endpoint it would otherwise drive whatever tab
    # it found first (another client's).
    await session.navigate_to(url, new_tab=True)
    return session


async def to_front(session: Any) -> None:
    """Brings the side's own tab to the front, untimed, before each step.

    Both sides' tabs share one window, so only one is in front; in a background tab browser_use's
    click takes about 5 s more on either endpoint (measured: 0.8 s in front, 5.8 s behind), which
    would time the tab's visibility, not the endpoint.
    """
    from browser_use.browser.events import SwitchTabEvent

    event = session.event_bus.dispatch(SwitchTabEvent(target_id=session.agent_focus_target_id))
    await event
    await event.event_result(raise_if_any=True, raise_if_none=False)


async def step(session: Any, tools: Any, kind: str = 'click', url: str = '') -> dict[str, float]:
    t0 = time.perf_counter()
    state = await session.get_browser_state_summary(include_screenshot=True)
    t1 = time.perf_counter()
    if kind == 'click':
        action, params = 'click', {'index': find_button(state)}
    elif kind == 'type':
        action, params = 'input', {'index': find_input(state), 'text': 'hello world'}
    else:
        action, params = 'navigate', {'url': url}
    result = await tools.registry.execute_action(action, params, browser_session=session)
    t2 = time.perf_counter()
    if getattr(result, 'error', None):
        raise RuntimeError(f'{action} failed: {result.error}')
    # 'click' keeps its name for the action's time whatever the kind (the caller's column).
    return {'state': (t1 - t0) * 1000, 'click': (t2 - t1) * 1000, 'step': (t2 - t0) * 1000}


async def run(args: dict[str, Any]) -> dict[str, Any]:
    import browser_use
    from browser_use import Tools

    tools = Tools()
    out: dict[str, Any] = {'browser_use': getattr(browser_use, '__version__', None), 'configs': {}}
    for config, fields in args['configs'].items():
        sessions = {side: await open_side(cdp_url, args['url'], fields) for side, cdp_url in args['sides'].items()}
        kinds = args.get('kinds', ['click'])
        samples: dict[str, dict[str, list[dict[str, float]]]] = {k: {side: [] for side in sessions} for k in kinds}
        # One uncounted step per side (first state pulls in the DOM service's caches).
        for s in sessions.values():
            await to_front(s)
            await step(s, tools)
        for _ in range(int(args['runs'])):
            for kind in kinds:
                for side, s in sessions.items():
                    await to_front(s)
                    samples[kind][side].append(await step(s, tools, kind, args['url']))
        for s in sessions.values():
            await s.stop()
        # 'samples' stays the click steps (the shape earlier results have); 'by_kind' has every kind.
        out['configs'][config] = {'profile': fields, 'samples': samples.get('click', {}), 'by_kind': samples}
    return out


def main() -> None:
    with open(sys.argv[1]) as f:
        args = json.load(f)
    result = asyncio.run(run(args))
    try:
        from importlib.metadata import version

        result['browser_use'] = version('browser-use')
    except Exception:
        pass
    with open(sys.argv[2], 'w') as f:
        json.dump(result, f)


if __name__ == '__main__':
    main()
