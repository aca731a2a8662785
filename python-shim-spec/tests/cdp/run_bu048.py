"""Runs browser_use 0.1.48's real Agent through the shim (``Agent(task, llm, browser=ExtensionBrowser(...))``,
as a person's script does) on the fixture shop: "find the cheapest stapler and add it to the cart",
answered by the in-process scripted model (tests/scripted_llm.py, ShopScript). For the e2e case where it
works beside other agents (test/e2e/cdp-browser-use.spec.ts); prints one JSON line:

    {"final_result", "choice", "urls": [the page URL of every step's state], "errors": [...]}

    python tests/cdp/run_bu048.py <agent_url> <agent_secret> <fixtures_url>

Unlike tests/agent_run.py it does nothing after ``agent.run()``: the Agent closes its connection at the
end, and what a fresh connection would pick as its page is not this run's question.
"""
import asyncio
import json
import os
import sys

os.environ.setdefault('ANONYMIZED_TELEMETRY', 'false')  # no telemetry calls from the test machine

from browser_use import Agent  # noqa: E402

from browser_use_ext import ExtensionBrowser, ExtensionController  # noqa: E402
from tests.scripted_llm import ScriptedChatModel, ShopScript  # noqa: E402


async def main(agent_url: str, secret: str, fixtures_url: str) -> None:
    script = ShopScript(fixtures_url + '/shop/')
    browser = ExtensionBrowser(bridge_url=agent_url, agent_secret=secret)
    agent = Agent('Find the cheapest stapler and add it to the cart', ScriptedChatModel(script=script), browser=browser,
                  controller=ExtensionController(), use_vision=False, tool_calling_method='raw')
    agent.browser_context.config.wait_between_actions = 0.1
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
    asyncio.run(main(*sys.argv[1:4]))
