"""npm run bench:cdp, several agents: one browser_use 0.13 session of two stepping at once, each over its own CDP URL.

    .venvs/bu013/bin/python bench/cdp_agents.py ARGS_JSON OUT_JSON

ARGS_JSON: {"cdp_url": <our CDP URL>, "url": <page>, "runs": N, "ready": <file>, "go": <file>}.

The caller (bench/cdp-agents.ts) runs one process per agent: in one process, browser_use's sessions
share one event loop and bubus's global handler lock, so a slow agent would hold the other back and the
bench would time the lock, not the tab. The agent opens its own new tab on its page (as cdp_step.py's
sides do), takes one uncounted step, then writes the ready file and waits for the go file: meanwhile the
caller places the tabs (the "same window" layout moves both agents' tabs into the person's window, one
in front, as every client's page opened before each client had a window of its own). Then it takes N
steps (cdp_step.py's: state with screenshot + one click by index) and writes the per-step times.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
import time
from typing import Any

from cdp_step import open_side, step


async def wait_for(path: str, timeout_s: float) -> None:
    deadline = time.monotonic() + timeout_s
    while not os.path.exists(path):
        if time.monotonic() > deadline:
            raise RuntimeError(f'the bench did not place the tabs within {timeout_s} s')
        await asyncio.sleep(0.05)


async def run(args: dict[str, Any]) -> dict[str, Any]:
    from browser_use import Tools

    tools = Tools()
    session = await open_side(args['cdp_url'], args['url'], {})
    await step(session, tools)
    with open(args['ready'], 'w') as f:
        f.write('ready')
    await wait_for(args['go'], 300)
    t0 = time.perf_counter()
    samples = [await step(session, tools) for _ in range(int(args['runs']))]
    wall = (time.perf_counter() - t0) * 1000
    await session.stop()
    return {'samples': samples, 'wall_ms': wall}


def main() -> None:
    with open(sys.argv[1]) as f:
        args = json.load(f)
    result = asyncio.run(run(args))
    with open(sys.argv[2], 'w') as f:
        json.dump(result, f)


if __name__ == '__main__':
    main()
