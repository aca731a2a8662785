"""Runs browser_use 0.1.48's real Agent through the shim (``Agent(task, llm, browser=ExtensionBrowser(...))``,
as a person's script does) on the fixture shop: "find the cheapest stapler and add it to the cart",
answered by the in-process scripted model (tests/scripted_llm.py, ShopScript). For the e2e case where it
works beside other agents (test/e2e/cdp-browser-use.spec.ts); prints one JSON line:

    {"final_result", "choice", "urls": [the page URL of every step's state], "errors": [...]}

    python tests/cdp/run_bu048.py <agent_url> <agent_secret> <fixtures_url> [--wait-for-go] [--hold-on URL_PART]
        [--browser-name NAME]

With --wait-for-go it imports everything, prints "ready" and connects only once a line comes on stdin:
the test starts it early (the imports take seconds) and lets it go when the tab it should be handed is
in front. With --hold-on the model pauses on the first state whose URL contains URL_PART, prints "held",
and answers (a harmless scroll, then on as before) once another line comes on stdin. With --browser-name
the agent works in the browser of that name (``ExtensionBrowser(browser_name=...)``, as a person's script
names their work profile); without it the keyword is not passed at all (the bridge's default browser).

Unlike tests/agent_run.py it does nothing after ``agent.run()``: the Agent closes its connection at the
end, and what a fresh connection would pick as its page is not this run's question.
"""
import asyncio
import json
import os
import sys
import threading
from typing import Optional

os.environ.setdefault('ANONYMIZED_TELEMETRY', 'false')  # no telemetry calls from the test machine

from browser_use import Agent  # noqa: E402

from browser_use_ext import ExtensionBrowser, ExtensionController  # noqa: E402
from tests.scripted_llm import ScriptedChatModel, ShopScript  # noqa: E402


class _AnnouncedHoldScript(ShopScript):
    def _record(self, seen, goal: str) -> None:
        super()._record(seen, goal)
        if goal == 'held':
            print('held', flush=True)


async def main(agent_url: str, secret: str, fixtures_url: str, hold_on: Optional[str] = None,
               browser_name: Optional[str] = None) -> None:
    script = _AnnouncedHoldScript(fixtures_url + '/shop/')
    if hold_on:
        script.hold_on(hold_on)
        threading.Thread(target=lambda: (sys.stdin.readline(), script.release()), daemon=True).start()
    named = {} if browser_name is None else {'browser_name': browser_name}
    browser = ExtensionBrowser(bridge_url=agent_url, agent_secret=secret, **named)
    agent = Agent('Find the cheapest stapler and add it to the cart', ScriptedChatModel(script=script), browser=browser,
                  controller=ExtensionController(), use_vision=False, tool_calling_method='raw')
    agent.browser_context.config.wait_between_actions = 0.1
    # The extension's screenshot brings the agent's tab to the front of its window (captureVisibleTab
    # shoots the visible tab), which leaves the other agents' tabs in the background, where a CDP
    # client's Page.captureScreenshot gets no frame for 15 s. This run is about whose tabs each agent
    # touches, so the classic agent reads its states without a picture (use_vision=False needs none).
    agent.browser_context.config.include_screenshot = False
    try:
        history = await agent.run(max_steps=8)
    finally:
        await browser.close()
    print(json.dumps({
        'final_result': history.final_result(),
        'choice': script.choice,
        'urls': [u for u in history.urls() if u],
        'errors': [e for e in history.errors() if e],
    }))


if __name__ == '__main__':
    options = sys.argv[4:]
    if '--wait-for-go' in options:
        print('ready', flush=True)
        sys.stdin.readline()
    hold = options[options.index('--hold-on') + 1] if '--hold-on' in options else None
    name = options[options.index('--browser-name') + 1] if '--browser-name' in options else None
    asyncio.run(main(*sys.argv[1:4], hold_on=hold, browser_name=name))
