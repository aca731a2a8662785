"""Benchmark of the Python shim against the real harness (bridge + extension + Chromium):
what an Agent step costs through the shim. Prints one JSON object (medians in ms, by the nearest-rank
rule of stats.py, the same as bench/stats.ts).

    /usr/bin/python3 python-shim-spec/bench/bench_shim.py [--runs 20]

Requires dist/ (npx rollup -c --silent). Timings live here, never in the unit tests.
"""
import argparse
import asyncio
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from stats import median, r1  # noqa: E402 (this directory, first on sys.path when run as a script)

from browser_use_ext import BrowserContextConfig, ExtensionBrowser, ExtensionController  # noqa: E402
from browser_use_ext.transport import BridgeConnection  # noqa: E402
from tests.harness import Harness  # noqa: E402


async def timed(fn, runs, gap_s=0.0):
    out = []
    for _ in range(runs):
        if gap_s:
            await asyncio.sleep(gap_s)  # not timed: lets Chrome's 2 captures/s quota refill, as an LLM call would
        t = time.perf_counter()
        await fn()
        out.append((time.perf_counter() - t) * 1000)
    return r1(median(out))


async def main(h, runs):
    t = time.perf_counter()
    conn = await BridgeConnection.connect(url=h.agent_url, secret=h.agent_secret, ping_interval_s=0)
    handshake = (time.perf_counter() - t) * 1000
    await conn.close()
    browser = ExtensionBrowser(bridge_url=h.agent_url, agent_secret=h.agent_secret)
    ctx = await browser.new_context(BrowserContextConfig(include_screenshot=False))
    controller = ExtensionController()
    model = controller.registry.create_action_model()
    await controller.act(model(go_to_url={'url': h.url('shop/results.html?q=stapler')}), ctx)
    state = await ctx.get_state(True)
    add = next(i for i, n in state.selector_map.items() if n.attributes.get('data-id') == 'mini-s')
    res = {
        'handshake_with_auth_ms': round(handshake, 1),
        'get_state_true_no_screenshot_ms': await timed(lambda: ctx.get_state(True), runs),
        'elements_in_state': len(state.selector_map),
        'click_element_by_index_ms': await timed(lambda: controller.act(model(click_element_by_index={'index': add}), ctx), runs),
        'list_tabs_ms': await timed(lambda: ctx.call('list_tabs', {}), runs),
    }
    ctx.config.include_screenshot = True
    res['get_state_true_with_screenshot_back_to_back_ms'] = await timed(lambda: ctx.get_state(True), runs)
    res['get_state_true_with_screenshot_1s_apart_ms'] = await timed(lambda: ctx.get_state(True), runs, gap_s=1.0)
    res['screenshot_bytes'] = len((await ctx.get_state(True)).screenshot or '') * 3 // 4
    await ctx.close()
    await browser.close()
    return res


if __name__ == '__main__':
    ap = argparse.ArgumentParser()
    ap.add_argument('--runs', type=int, default=20)
    args = ap.parse_args()
    t = time.perf_counter()
    h = Harness()
    start = round((time.perf_counter() - t) * 1000)
    try:
        out = asyncio.run(main(h, args.runs))
        out['harness_start_ms'] = start
        out['runs'] = args.runs
        print(json.dumps(out))
    finally:
        h.close()
