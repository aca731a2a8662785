"""Runs browser_use 0.13's own Agent, unmodified, against a CDP endpoint: the fixture-shop task.

    .venvs/bu013/bin/python tests/cdp/run_bu013.py --cdp-url http://127.0.0.1:9222 \\
        --llm-base-url http://127.0.0.1:PORT/v1 --shop-url http://127.0.0.1:PORT/shop/ [--max-steps 12] \\
        [--stop-when-disconnected]

The model is ``ChatOpenAI`` pointed at the scripted server (tests/scripted_llm.py --script shop013);
the browser is ``Browser(cdp_url=...)``: Chromium's own --remote-debugging-port, or the bridge's
CDP endpoint (http://127.0.0.1:PORT/cdp/<token>). ``--stop-when-disconnected`` gives the Agent the
stop check docs/guide-cdp-clients.md ("When the person disconnects") tells users to add, exactly as
written there. The last line printed is
``BU013_RESULT {"done", "success", "final_result", "urls_visited", "steps", "actions", "errors",
"judgement", "seconds", "error"}`` (test/harness/bu013.ts reads it); the exit code is 0 whenever that
line was printed, so a failed run is reported, not crashed.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import time
import traceback
from typing import Any

TASK = (
    'Open {shop}index.html, search for staplers and add the cheapest stapler to the cart. Then open the '
    "shop's home page in a second tab, go back to the first tab, open the cart there and report what is in it."
)


def _history_facts(history: Any) -> dict:
    judgement = history.judgement() if hasattr(history, 'judgement') else None
    return {
        'done': bool(history.is_done()),
        'success': history.is_successful(),
        'final_result': history.final_result(),
        'urls_visited': [u for u in history.urls() if u],
        'steps': history.number_of_steps(),
        'actions': history.action_names(),
        'errors': [e for e in history.errors() if e],
        'judgement': judgement if isinstance(judgement, (dict, type(None))) else str(judgement),
    }


async def run(args: argparse.Namespace) -> dict:
    # Imported here so a missing browser_use is reported on the result line, not as a traceback only.
    import httpx
    from browser_use import Agent, Browser, ChatOpenAI

    llm = ChatOpenAI(model='gpt-4o', base_url=args.llm_base_url, api_key='x')
    browser = Browser(cdp_url=args.cdp_url)
    extra: dict[str, Any] = {}
    if args.stop_when_disconnected:

        async def person_stopped() -> bool:
            # The endpoint answers 403 once the person stopped this client and 404 once its URL is revoked;
            # no answer (the bridge restarting) is not a stop: browser_use reconnects on its own.
            try:
                async with httpx.AsyncClient() as client:
                    r = await client.get(f'{args.cdp_url}/json/version', timeout=5)
            except httpx.HTTPError:
                return False
            return r.status_code in (403, 404)

        extra['register_should_stop_callback'] = person_stopped
    agent = Agent(task=TASK.format(shop=args.shop_url), llm=llm, browser=browser, **extra)
    history = await agent.run(max_steps=args.max_steps)
    return _history_facts(history)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--cdp-url', required=True)
    ap.add_argument('--llm-base-url', required=True)
    ap.add_argument('--shop-url', required=True, help='the fixture shop, ending in /shop/')
    ap.add_argument('--max-steps', type=int, default=12)
    ap.add_argument('--stop-when-disconnected', action='store_true', help="the documented stop check for the person's Disconnect")
    args = ap.parse_args()
    # No telemetry or cloud sync from a test run (both default to on in browser_use 0.13).
    os.environ.setdefault('ANONYMIZED_TELEMETRY', 'false')
    os.environ.setdefault('BROWSER_USE_CLOUD_SYNC', 'false')
    started = time.monotonic()
    try:
        result = asyncio.run(run(args))
        result['error'] = None
    except Exception as e:  # the runner reports every failure on its result line
        traceback.print_exc(file=sys.stderr)
        result = {
            'done': False,
            'success': False,
            'final_result': None,
            'urls_visited': [],
            'steps': 0,
            'actions': [],
            'errors': [],
            'judgement': None,
            'error': f'{type(e).__name__}: {e}',
        }
    result['seconds'] = round(time.monotonic() - started, 2)
    print('BU013_RESULT ' + json.dumps(result, default=str), flush=True)


if __name__ == '__main__':
    main()
