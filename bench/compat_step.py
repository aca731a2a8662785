"""npm run bench:compat: one real Agent step's browser cost, the extension against
Playwright, same pages, same run, interleaved (does a step through the extension cost no more than
browser_use's own Playwright step?). A step is what the real Agent does per step:
``get_state(cache_clickable_elements_hashes=True)`` (element tree + screenshot) and one action
(click_element by index through the Controller). Both sides are the same browser_use version:
real browser_use on its own Playwright Browser (/usr/bin/chromium, headless) and the shim through
the real bridge + extension in the harness Chromium (python-shim-spec/tests/test_compat_prompt.py
sets both up). Each run reloads the page (not timed) first, so every step sees the same page.

Split:
  state       get_state minus its screenshot (and minus real's page-load wait, reported as settle)
  screenshot  the state's screenshot (real: page.screenshot; shim: captureVisibleTab with the boxes)
  action      the click through the Controller, minus settle
  settle      real: _wait_for_page_and_frames_load (its minimum_wait_page_load_time is 0.25 s) in
              get_state and after the click; shim: the extension's settle (dom_quiet, network_idle,
              no-change watch) from the click's timings
p50 and p95 per part: python-shim-spec/bench/stats.py (nearest rank, the rule of bench/stats.ts).
Writes the JSON to argv[1]; bench/compat-step.ts renders the markdown.
"""
from __future__ import annotations

import asyncio
import json
import os
import sys
import time
from pathlib import Path
from typing import Any, Callable

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / 'python-shim-spec'))
sys.path.insert(0, str(HERE.parent / 'python-shim-spec' / 'bench'))
os.environ.setdefault('ANONYMIZED_TELEMETRY', 'false')

from stats import median, pct, r1  # noqa: E402
from tests import test_compat_prompt as T  # noqa: E402

RUNS = int(os.environ.get('BENCH_RUNS', '7'))
# page -> predicate choosing the element the step clicks: it changes the page without navigating
# away (a click that changes nothing makes the extension wait for its no-change watch, see the report).
CLICK: dict[str, Callable[[Any], bool]] = {
    'overlays.html': lambda n: n.get_all_text_till_next_clickable_element() == 'No thanks',
    'forms.html': lambda n: n.get_all_text_till_next_clickable_element() == 'Clickable span',
    'frames.html': lambda n: n.get_all_text_till_next_clickable_element() == 'Frame button',
    'shadow.html': lambda n: n.get_all_text_till_next_clickable_element() == 'Slotted button',
    'long.html': lambda n: n.get_all_text_till_next_clickable_element() == 'Action 4',
    'lazy.html': lambda n: n.attributes.get('aria-label', '').startswith('Save result'),
}


class Timer:
    def __init__(self) -> None:
        self.t: dict[str, float] = {}

    def wrap(self, obj: Any, name: str, key: str) -> None:
        inner = getattr(obj, name)

        async def timed(*a: Any, **kw: Any) -> Any:
            t0 = time.perf_counter()
            try:
                return await inner(*a, **kw)
            finally:
                self.t[key] = self.t.get(key, 0.0) + (time.perf_counter() - t0) * 1000

        setattr(obj, name, timed)


async def step(side: str, page: str, controller: Any, model: Any, click_name: str, timer: Timer) -> dict[str, float]:
    ctx = T.REAL_CTX if side == 'playwright' else T.SHIM_CTX
    url = T.H.url(f'compat/{page}')
    if side == 'playwright':
        p = await ctx.get_current_page()
        await p.goto(url)
        await p.wait_for_load_state()
    else:
        await ctx.navigate_to(url)
    await asyncio.sleep(0.6)
    timer.t.clear()
    t0 = time.perf_counter()
    state = await (T.compat_real.real_state(ctx) if side == 'playwright' else ctx.get_state(True))
    t1 = time.perf_counter()
    settle_in_state = timer.t.get('settle', 0.0)
    shot = timer.t.get('screenshot', 0.0)
    index = next(i for i, n in state.selector_map.items() if CLICK[page](n))
    timer.t['settle'] = 0.0
    t2 = time.perf_counter()
    r = await controller.act(model(**{click_name: {'index': index}}), ctx)
    t3 = time.perf_counter()
    if r.error:
        raise RuntimeError(f'{side} {page}: {r.error}')
    settle_in_action = timer.t.get('settle', 0.0) if side == 'playwright' else timer.t.get('ext_settle', 0.0)
    state_ms = (t1 - t0) * 1000
    action_ms = (t3 - t2) * 1000
    return {
        'state': state_ms - shot - settle_in_state,
        'screenshot': shot,
        'action': action_ms - settle_in_action,
        'settle': settle_in_state + settle_in_action,
        'total': state_ms + action_ms,
    }


async def main(out: str) -> None:
    from browser_use import Controller
    from browser_use_ext import ExtensionController

    timers = {'playwright': Timer(), 'extension': Timer()}
    timers['playwright'].wrap(T.REAL_CTX, 'take_screenshot', 'screenshot')
    timers['playwright'].wrap(T.REAL_CTX, '_wait_for_page_and_frames_load', 'settle')
    timers['extension'].wrap(T.SHIM_CTX, 'take_screenshot', 'screenshot')
    shim_call = T.SHIM_CTX._call

    async def call(action: str, params: dict, *a: Any, **kw: Any) -> dict:
        r = await shim_call(action, params, *a, **kw)
        if action == 'click':
            tm = (r.get('outcome_details') or {}).get('timings_ms') or {}
            settle_parts = ('navigation', 'dom_quiet', 'network_idle', 'no_change_watch')
            timers['extension'].t['ext_settle'] = sum(float(tm.get(k) or 0) for k in settle_parts)
        return r

    T.SHIM_CTX._call = call
    ctrl = {'playwright': Controller(), 'extension': ExtensionController()}
    models = {k: c.registry.create_action_model() for k, c in ctrl.items()}
    names = {
        k: 'click_element_by_index' if 'click_element_by_index' in c.registry.registry.actions else 'click_element'
        for k, c in ctrl.items()
    }
    results: dict[str, Any] = {
        'browser_use': T.compat_real.BU_VERSION,
        'runs': RUNS,
        'viewport': list(T.VIEWPORT),
        'load_before': os.getloadavg(),
        'pages': {},
    }
    for page in CLICK:
        samples: dict[str, list[dict[str, float]]] = {'playwright': [], 'extension': []}
        for i in range(RUNS + 1):
            order = ('playwright', 'extension') if i % 2 == 0 else ('extension', 'playwright')
            for side in order:
                s = await step(side, page, ctrl[side], models[side], names[side], timers[side])
                if i > 0:  # the first (cold) run of each side is not counted
                    samples[side].append(s)
        page_out: dict[str, Any] = {}
        for side, runs in samples.items():
            page_out[side] = {k: {'p50': r1(median([r[k] for r in runs])), 'p95': r1(pct([r[k] for r in runs], 95))} for k in runs[0]}
        ext, pw = page_out['extension'], page_out['playwright']
        page_out['ratio_p50'] = round(ext['total']['p50'] / pw['total']['p50'], 2)
        page_out['ratio_p50_without_real_wait'] = round(ext['total']['p50'] / max(1.0, pw['total']['p50'] - pw['settle']['p50']), 2)
        results['pages'][page] = page_out
        print(page, json.dumps(page_out), flush=True)
    results['load_after'] = os.getloadavg()
    Path(out).write_text(json.dumps(results, indent=2))


if __name__ == '__main__':
    T.setUpModule()
    try:
        T.LOOP.run_until_complete(main(sys.argv[1]))
    finally:
        T.tearDownModule()
