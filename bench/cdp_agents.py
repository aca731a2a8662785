"""npm run bench:cdp, several agents: two browser_use 0.13 sessions stepping at once, each over its own CDP URL.

    .venvs/bu013/bin/python bench/cdp_agents.py ARGS_JSON OUT_JSON

ARGS_JSON: {"agents": {"front": <CDP URL>, "behind": <CDP URL>}, "urls": {"front": <page>, "behind": <page>},
"runs": N, "ready": <file>, "go": <file>}.

Each agent opens its own new tab on its page (as cdp_step.py's sides do), takes one uncounted step, then
writes the ready file and waits for the go file: meanwhile the caller (bench/cdp-agents.ts) places the tabs
(the "same window" layout moves both into the person's window with the front agent's tab active, as every
client's page opened before each client had a window of its own). Then both step at once, N steps each
(a step is cdp_step.py's: state with screenshot + one click by index), and the per-step times are written.
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
    names = list(args['agents'])
    sessions = {n: await open_side(args['agents'][n], args['urls'][n], {}) for n in names}
    for s in sessions.values():
        await step(s, tools)
    with open(args['ready'], 'w') as f:
        f.write('ready')
    await wait_for(args['go'], 120)

    async def loop(s: Any) -> list[dict[str, float]]:
        return [await step(s, tools) for _ in range(int(args['runs']))]

    t0 = time.perf_counter()
    results = await asyncio.gather(*(loop(sessions[n]) for n in names))
    wall = (time.perf_counter() - t0) * 1000
    for s in sessions.values():
        await s.stop()
    return {'samples': dict(zip(names, results)), 'wall_ms': wall}


def main() -> None:
    with open(sys.argv[1]) as f:
        args = json.load(f)
    result = asyncio.run(run(args))
    with open(sys.argv[2], 'w') as f:
        json.dump(result, f)


if __name__ == '__main__':
    main()
