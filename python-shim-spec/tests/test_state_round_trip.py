"""A browser_use step costs one round trip: get_state with include_tabs and include_screenshot brings
the state, the tab list (what list_tabs answers) and the screenshot (what screenshot answers, with
the numbered boxes of this very state) in one action_result. Real bridge, extension and Chromium;
runs with or without browser_use installed."""
import asyncio
import base64
import struct
import unittest

from browser_use_ext import BrowserContextConfig, ExtensionBrowser
from tests.harness import FIXTURES_DIR, Harness

H = None
LOOP = None
BROWSER = None
PNG = b'\x89PNG\r\n\x1a\n'


def run(coro, timeout=60):
    return LOOP.run_until_complete(asyncio.wait_for(coro, timeout))


def setUpModule():
    global H, LOOP, BROWSER
    H = Harness(FIXTURES_DIR)
    LOOP = asyncio.new_event_loop()
    BROWSER = ExtensionBrowser(bridge_url=H.agent_url, agent_secret=H.agent_secret)


def tearDownModule():
    try:
        run(BROWSER.close())
        LOOP.close()
    finally:
        H.close()


def png_size(data: bytes) -> tuple:
    return struct.unpack('>II', data[16:24])


class CountedCalls:
    """Records every action the context sends to the bridge (the connection's call)."""

    def __init__(self, ctx):
        self.actions = []
        conn = ctx.conn
        original = conn.call

        async def call(action, *args, **kwargs):
            self.actions.append(action)
            return await original(action, *args, **kwargs)

        conn.call = call


class OneRoundTrip(unittest.TestCase):
    def setUp(self):
        self.ctx = run(BROWSER.new_context(BrowserContextConfig(include_screenshot=True)))
        run(self.ctx.navigate_to(H.url('compat/forms.html')))
        run(self.ctx.create_new_tab(H.url('other.html')))
        run(self.ctx.switch_to_tab(0))

    def tearDown(self):
        run(self.ctx.close())

    def test_get_state_is_one_action_with_tabs_and_screenshot(self):
        calls = CountedCalls(self.ctx)
        state = run(self.ctx.get_state(True))
        self.assertEqual(calls.actions, ['get_state'])
        self.assertGreater(len(state.selector_map), 10)
        self.assertEqual(state.url, H.url('compat/forms.html'))
        urls = [t.url for t in state.tabs]
        self.assertIn(H.url('compat/forms.html'), urls)
        self.assertIn(H.url('other.html'), urls)
        self.assertEqual([t.page_id for t in state.tabs], list(range(len(state.tabs))))
        self.assertEqual(base64.b64decode(state.screenshot)[:8], PNG)

    def test_without_screenshot_the_step_is_still_one_action_and_has_no_picture(self):
        self.ctx.config.include_screenshot = False
        calls = CountedCalls(self.ctx)
        state = run(self.ctx.get_state(False))
        self.assertEqual(calls.actions, ['get_state'])
        self.assertIsNone(state.screenshot)
        self.assertIn(H.url('other.html'), [t.url for t in state.tabs])

    def test_the_protocol_answer_carries_list_tabs_and_screenshot_shapes(self):
        r = run(self.ctx.call('get_state', {'include_tabs': True, 'include_screenshot': True}))
        result = r['outcome_details']['result']
        listed = run(self.ctx.call('list_tabs', {}))['outcome_details']['result']['tabs']
        self.assertEqual([t['tab_id'] for t in result['tabs']], [t['tab_id'] for t in listed])
        self.assertTrue(any(t['active'] for t in result['tabs']))
        shot = result['screenshot']
        data = base64.b64decode(shot['data_base64'])
        self.assertEqual(data[:8], PNG)
        self.assertEqual(png_size(data), (shot['width'], shot['height']))
        self.assertNotIn('screenshot_error', result)

    def test_without_the_flags_get_state_adds_nothing(self):
        r = run(self.ctx.call('get_state', {}))
        self.assertEqual(r['outcome_details']['result'], {})
        self.assertIsNotNone(r.get('new_simplified_state'))


if __name__ == '__main__':
    unittest.main()
