"""A bridge restart is invisible to a running shim's caller (the Python half; the extension's half
is in the Node e2e tests). The real setup (bridge + extension in Chromium + fixture server,
tests/harness.py) restarts its bridge on the same port with the same secrets (`restart-bridge` on the harness's stdin); the shim
reconnects by itself, resumes its session when the bridge kept it, and a call made meanwhile waits,
bounded by its own timeout. With browser_use installed, the unmodified real Agent runs the shop task
to done across two restarts."""
import asyncio
import importlib.util
import threading
import time
import unittest

from browser_use_ext import BrowserContextConfig, ExtensionBrowser, ExtensionController
from tests.harness import ShimModule

S = ShimModule()
H = None
CTX = None
CONTROLLER = ExtensionController()
AM = CONTROLLER.registry.create_action_model()


def run(coro, timeout=90):
    return S.run(coro, timeout)


def setUpModule():
    global H, CTX
    H = S.start()
    _, CTX = S.open_context(BrowserContextConfig(include_screenshot=False, wait_between_actions=0.1))


tearDownModule = S.close


def index_of(state, ident):
    for i, node in state.selector_map.items():
        if node.attributes.get('id') == ident:
            return i
    raise AssertionError(f'no #{ident} in ' + state.element_tree.clickable_elements_to_string(['id']))


def restart_in_background(down_ms):
    t = threading.Thread(target=H.restart_bridge, args=(down_ms,), daemon=True)
    t.start()
    return t


class RestartUnderTheContext(unittest.TestCase):
    def setUp(self):
        run(CTX.navigate_to(H.url('actions.html')))
        self.state = run(CTX.get_state(True))
        self.tab = CTX.current_tab_id
        self.reconnects = CTX.conn.reconnects

    def test_calls_after_a_restart_work_on_the_same_tab(self):
        H.restart_bridge()
        state = run(CTX.get_state(True))  # no error: the shim reconnected by itself
        self.assertTrue(state.url.endswith('/actions.html'))
        self.assertEqual(CTX.current_tab_id, self.tab)
        result = run(CONTROLLER.act(AM(input_text={'index': index_of(state, 'fullname'), 'text': 'Ada'}), CTX))
        self.assertIsNone(result.error)
        state = run(CTX.get_state(True))
        result = run(CONTROLLER.act(AM(click_element_by_index={'index': index_of(state, 'hello')}), CTX))
        self.assertIsNone(result.error)
        r = run(CTX.call('get', {'selector': '#out', 'what': 'text'}))
        self.assertEqual(r['outcome_details']['result']['value'], 'clicked Ada')
        self.assertGreater(CTX.conn.reconnects, self.reconnects)

    def test_a_call_made_while_the_bridge_is_down_waits_for_it(self):
        t = restart_in_background(1500)

        async def during_outage():
            await asyncio.sleep(0.4)  # the bridge is down now (it is stopped at once, restarted after 1.5 s)
            t0 = time.monotonic()
            state = await CTX.get_state(True)
            return state, time.monotonic() - t0

        state, waited = run(during_outage())
        t.join(60)
        self.assertTrue(state.url.endswith('/actions.html'))
        self.assertGreater(waited, 0.8)  # it waited for the restart instead of failing
        self.assertLess(waited, 20)  # and within the call's own budget (15 s + 5 s)

    def test_a_read_in_flight_during_the_restart_is_answered(self):
        # The stopping bridge answers the running `wait` with EXTENSION_DISCONNECTED ("may or may not
        # have run"); a read is safe to run again, so the shim re-sends it once the bridge is back.
        async def wait_across_restart():
            call = asyncio.ensure_future(CTX.call('wait', {'ms': 1500}))
            await asyncio.sleep(0.5)
            t = restart_in_background(300)
            r = await call
            await asyncio.get_running_loop().run_in_executor(None, t.join, 60)
            return r

        r = run(wait_across_restart())
        self.assertEqual(r['status'], 'success', r.get('error_info'))


@unittest.skipIf(importlib.util.find_spec('browser_use') is None, 'browser_use is not installed in this venv')
class RestartUnderTheRealAgent(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        run(CTX.close())  # a clean close ends its session, so the agent can take the active tab

    def test_the_agent_reaches_done_across_two_restarts_without_a_failed_step(self):
        from browser_use import Agent

        from tests.scripted_llm import ScriptedChatModel, ShopScript

        restarts, reconnected, agents = [], [], []

        class RestartingShop(ShopScript):
            def _step_output(self, seen):
                answer = super()._step_output(seen)
                n = len(self.of_kind('agent'))
                conn = agents[0].browser_context.conn
                if n == 1:
                    conn.on('reconnected', reconnected.append)
                if n == 2:
                    # While the model "thinks": a restart, done before the step's actions run.
                    restarts.append(H.restart_bridge())
                elif n == 3:
                    # A longer outage that the step's action calls run into: they must wait.
                    restarts.append(restart_in_background(1200))
                    time.sleep(0.4)
                return answer

        llm = ScriptedChatModel(script=RestartingShop(H.url('shop/')))
        browser = ExtensionBrowser(bridge_url=H.agent_url, agent_secret=H.agent_secret)
        agent = Agent('Find the cheapest stapler and add it to the cart', llm, browser=browser, controller=ExtensionController(),
                      use_vision=False, tool_calling_method='raw')
        agent.browser_context.config.wait_between_actions = 0.1
        agents.append(agent)
        try:
            history = run(agent.run(max_steps=10), timeout=240)
            restarts[1].join(60)
        finally:
            run(agent.browser_context.close())
            run(browser.close())
        errors = [r.error for item in history.history for r in item.result if r.error]
        self.assertEqual(errors, [])
        self.assertEqual(history.final_result(), 'Mini Stapler - $3.99')
        self.assertTrue(history.is_done())
        self.assertEqual(len(restarts), 2)
        self.assertEqual(len(reconnected), 2, reconnected)  # one connection throughout, reconnected twice


if __name__ == '__main__':
    unittest.main()
