"""The unmodified real ``browser_use.Agent`` (0.1.48 or 0.1.40, whichever this venv has) with
``ExtensionBrowser()`` + ``ExtensionController()``, driven by a scripted model through ChatOpenAI
against a local OpenAI-compatible server (tool calling and tool_calling_method='raw') and through a
LangChain chat model subclass, on the shop fixture in real Chromium through bridge and extension.
Scripts pick element indexes from the state the model received, never hard-coded numbers."""
import unittest

from tests.real_agent_support import V40, RealAgentModule, actions_of, chat_openai, results_of
from tests.scripted_llm import Script, ScriptedChatModel, ScriptedOpenAIServer

M = RealAgentModule()
setUpModule, tearDownModule = M.hooks()


def shop_steps(base: str) -> list:
    """Find the cheapest stapler and add it to the cart; every index comes from the prompt."""
    def search(seen):
        return [{'input_text': {'index': seen.index_of('Search products'), 'text': 'stapler'}},
                {click(): {'index': seen.index_of('re:>Search ?/>')}}]

    def add_cheapest(seen):
        lines = seen.last_text.splitlines()
        offers = []
        for i, line in enumerate(lines):
            if 'Add to cart' in line and '[' in line:
                price_line = next(p for p in reversed(lines[:i]) if '$' in p)
                price = float(price_line.strip().split('$')[-1])
                offers.append((price, seen.index_of(line.strip())))
        return [{click(): {'index': min(offers)[1]}}]

    def done(seen):
        items = [line.strip() for line in seen.last_text.splitlines() if ' - $' in line]
        return [{'done': {'text': '; '.join(items), 'success': True}}]

    return [
        [{'go_to_url': {'url': base + 'cart.html'}}],  # the cart lives in localStorage: start empty
        lambda seen: [{click(): {'index': seen.index_of('Empty cart')}}],
        [{'go_to_url': {'url': base + 'index.html'}}],
        search,
        add_cheapest,
        [{'go_to_url': {'url': base + 'cart.html'}}],
        done,
    ]


def click() -> str:
    return 'click_element' if V40 else 'click_element_by_index'


async def run_agent(llm, *, browser=None, controller=None, max_steps=12, **kw):
    from browser_use import Agent

    from browser_use_ext import ExtensionController
    browser = browser or M.browser()
    agent = Agent('Find the cheapest stapler and add it to the cart', llm, browser=browser,
                  controller=controller or ExtensionController(), **kw)
    try:
        history = await agent.run(max_steps=max_steps)
    finally:
        await agent.browser_context.close()
        await browser.close()
    return agent, history


class ShopTask(unittest.TestCase):
    def check_shop_run(self, agent, history, script):
        self.assertEqual(script.errors, [])
        self.assertTrue(history.is_done(), history.errors())
        self.assertEqual(history.final_result(), 'Mini Stapler - $3.99')
        self.assertTrue(history.is_successful())
        self.assertEqual(actions_of(agent), ['go_to_url', click(), 'go_to_url', 'input_text', click(), click(), 'go_to_url', 'done'])
        results = [r.extracted_content for r in results_of(agent)][2:]
        base = M.h.url('shop/')
        self.assertEqual(results[0], f'🔗  Navigated to {base}index.html')
        self.assertRegex(results[1], r'^⌨️  Input stapler into index \d+$')
        self.assertRegex(results[2], r'^🖱️  Clicked button with index \d+: Search$')
        self.assertRegex(results[3], r'^🖱️  Clicked button with index \d+: Add to cart$')
        self.assertEqual(results[4], f'🔗  Navigated to {base}cart.html')
        # the model saw one state message per step, with the page it was on
        agent_requests = script.of_kind('agent')
        self.assertEqual(len(agent_requests), 7)
        self.assertIn(f'{base}results.html?q=stapler', agent_requests[4].last_text)
        self.assertEqual(len(script.of_kind('verify')) <= 1, True)

    def test_tool_calling_through_chat_openai_and_a_local_server(self):
        script = Script(shop_steps(M.h.url('shop/')))
        with ScriptedOpenAIServer(script) as server:
            agent, history = M.run(run_agent(chat_openai(server), use_vision=False))
        self.assertEqual(agent.tool_calling_method, 'function_calling')
        self.assertTrue(all(s.tool_name == 'AgentOutput' for s in script.of_kind('agent')))
        self.check_shop_run(agent, history, script)

    def test_raw_tool_calling_method_parses_json_content(self):
        script = Script(shop_steps(M.h.url('shop/')))
        with ScriptedOpenAIServer(script) as server:
            agent, history = M.run(run_agent(chat_openai(server), use_vision=False, tool_calling_method='raw'))
        self.assertEqual(agent.tool_calling_method, 'raw')
        self.assertTrue(all(s.tool_name is None for s in script.of_kind('agent')))
        self.check_shop_run(agent, history, script)

    def test_langchain_chat_model_subclass(self):
        script = Script(shop_steps(M.h.url('shop/')))
        agent, history = M.run(run_agent(ScriptedChatModel(script=script), use_vision=False))
        self.assertTrue(all(s.tool_name == 'AgentOutput' for s in script.of_kind('agent')))
        self.check_shop_run(agent, history, script)


class ScriptedServerItself(unittest.TestCase):
    def test_it_answers_over_http_records_what_it_got_and_stops(self):
        import socket

        from langchain_core.messages import HumanMessage
        from pydantic import BaseModel

        class ValidationResult(BaseModel):
            is_valid: bool
            reason: str
        script = Script([], validator=lambda seen: {'is_valid': False, 'reason': 'scripted'})
        with ScriptedOpenAIServer(script) as server:
            llm = chat_openai(server)
            self.assertEqual(
                llm.invoke([HumanMessage(content='What is the capital of France? Respond with a single word.')]).content, 'Paris'
            )
            for method in ('function_calling', 'json_schema', 'json_mode'):
                with self.subTest(method=method):
                    out = llm.with_structured_output(ValidationResult, method=method).invoke(
                        [HumanMessage(content='You are a validator of an agent; answer in JSON with is_valid and reason')])
                    self.assertEqual(out, ValidationResult(is_valid=False, reason='scripted'))
            port = server.port
        self.assertEqual([s.kind for s in script.requests], ['verify', 'validator', 'validator', 'validator'])
        self.assertEqual(script.requests[1].tool_name, 'ValidationResult')
        with self.assertRaises(OSError):
            socket.create_connection(('127.0.0.1', port), timeout=2).close()


class RealClasses(unittest.TestCase):
    """What test_agent_sequence.py checked against the old stand-in, now against the real package."""

    def test_the_shim_hands_out_browser_use_own_classes(self):
        from browser_use_ext import compat
        for name in ['DOMElementNode', 'DOMTextNode', 'TabInfo', 'BrowserState', 'ActionResult', 'BrowserError', 'HistoryTreeProcessor']:
            with self.subTest(name=name):
                self.assertTrue(getattr(compat, name).__module__.startswith('browser_use.'), getattr(compat, name).__module__)

    def test_extension_controller_is_a_real_controller_with_the_real_registry(self):
        from browser_use.controller.registry.service import Registry
        from browser_use.controller.service import Controller

        from browser_use_ext import ExtensionController
        c = ExtensionController()
        self.assertIsInstance(c, Controller)
        self.assertIsInstance(c.registry, Registry)

    def test_agent_with_browser_only_builds_the_extension_context(self):
        from browser_use import Agent

        import browser_use_ext
        from browser_use_ext import ExtensionBrowserContext, ExtensionController
        self.assertTrue(browser_use_ext.PATCHED_BROWSER_USE_AGENT)
        script = Script([])
        agent = Agent('t', ScriptedChatModel(script=script), browser=M.browser(), controller=ExtensionController())
        self.assertIsInstance(agent.browser_context, ExtensionBrowserContext)

    def test_history_css_selectors_are_browser_use_own_and_select_one_element(self):
        """HistoryTreeProcessor (rerun_history, saved histories) builds CSS selectors with the real
        BrowserContext classmethods; the shim's copies must give the same string for every element,
        and each must select exactly that element on the live page."""
        from browser_use.browser.context import BrowserContext

        from browser_use_ext import ExtensionBrowserContext
        browser = M.browser(include_screenshot=False)

        async def go():
            ctx = await browser.new_context()
            try:
                page = await ctx.get_current_page()
                await page.goto(M.h.url('shop/results.html?q=stapler'))
                state = await ctx.get_state(True)
                out = []
                for node in state.selector_map.values():
                    real = BrowserContext._enhanced_css_selector_for_element(node)
                    ours = ExtensionBrowserContext._enhanced_css_selector_for_element(node)
                    r = await ctx.call('get', {'selector': real, 'what': 'count'})
                    out.append((real, ours, r['outcome_details']['result']['value']))
                return out
            finally:
                await ctx.close()
                await browser.close()
        rows = M.run(go())
        self.assertGreaterEqual(len(rows), 5)
        for real, ours, count in rows:
            with self.subTest(css=real):
                self.assertEqual(ours, real)
                self.assertEqual(count, 1)


if __name__ == '__main__':
    unittest.main()
