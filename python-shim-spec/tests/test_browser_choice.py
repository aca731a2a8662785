"""Which of the person's browsers an agent works in: one bridge serves every Chrome profile and Chromium
browser with the extension, and a Python agent names one with browser_name= (ExtensionBrowser,
ExtensionBrowserConfig, BridgeConnection, serve --browser) or BROWSER_USE_EXT_BROWSER. The hello
carries the name; the log says in one line which browser the session got, or which ones are connected
when none has that name."""
import os
import unittest
from unittest import mock

from browser_use_ext.browser import ExtensionBrowser
from browser_use_ext.config import ExtensionBrowserConfig
from browser_use_ext.serve import TaskServer, build_parser
from browser_use_ext.transport import BridgeConnection
from tests import harness  # noqa: F401
from tests.test_transport import SECRET, FakeBridge

WORK = {'browser_id': 'work-0001', 'name': 'Work', 'brand': 'Google Chrome', 'connected': True, 'product': 'Chrome/144.0.1.2'}
HOME = {'browser_id': 'home-0001', 'name': 'Home', 'brand': 'Brave', 'connected': True}
ENV = 'BROWSER_USE_EXT_BROWSER'


class HelloNamesTheBrowser(unittest.IsolatedAsyncioTestCase):
    async def connect(self, bridge, **kw):
        conn = await BridgeConnection.connect(url=bridge.url, secret=SECRET, ping_interval_s=0, **kw)
        await conn.close()
        return bridge.hellos[-1]

    async def test_the_keyword_wins_over_the_environment_which_is_the_fallback(self):
        async with FakeBridge() as bridge:
            with mock.patch.dict(os.environ, {ENV: 'Home'}):
                self.assertEqual((await self.connect(bridge, browser_name='Work'))['browser_name'], 'Work')
                self.assertEqual((await self.connect(bridge))['browser_name'], 'Home')
            with mock.patch.dict(os.environ, {ENV: '  '}):
                # Unset (or blank): no browser_name, the bridge picks the one the person used last.
                self.assertNotIn('browser_name', await self.connect(bridge))

    async def test_extension_browser_and_its_config_pass_the_name_to_every_session(self):
        async with FakeBridge() as bridge:
            with mock.patch.dict(os.environ, {ENV: ''}):
                browser = ExtensionBrowser(bridge_url=bridge.url, agent_secret=SECRET, browser_name='Work')
                await browser._connect()
                await browser.close()
                self.assertEqual(bridge.hellos[-1]['browser_name'], 'Work')
                browser = ExtensionBrowser(ExtensionBrowserConfig(bridge_url=bridge.url, agent_secret=SECRET, browser_name='Home'))
                await browser._connect()
                await browser.close()
                self.assertEqual(bridge.hellos[-1]['browser_name'], 'Home')


class TheLogSaysWhichBrowser(unittest.IsolatedAsyncioTestCase):
    async def test_the_chosen_browser_is_kept_and_named_in_one_line(self):
        async with FakeBridge(ack_extra={'browser': WORK, 'browsers': [WORK, HOME]}) as bridge:
            with self.assertLogs('browser_use_ext.transport', 'INFO') as logs:
                conn = await BridgeConnection.connect(url=bridge.url, secret=SECRET, ping_interval_s=0, browser_name='work')
            self.assertEqual(conn.browser, WORK)
            await conn.close()
        lines = [r.getMessage() for r in logs.records if 'working in' in r.getMessage()]
        self.assertEqual(lines, ['browser-use-ext: working in the browser "Work" (Google Chrome), as asked. Connected: "Work", "Home".'])

    async def test_a_name_no_connected_browser_has_is_a_warning_listing_the_connected_ones(self):
        async with FakeBridge(ack_extra={'browsers': [WORK, HOME]}) as bridge:
            with self.assertLogs('browser_use_ext.transport', 'WARNING') as logs:
                conn = await BridgeConnection.connect(url=bridge.url, secret=SECRET, ping_interval_s=0, browser_name='Personal')
            self.assertIsNone(conn.browser)
            await conn.close()
        self.assertIn('no browser named "Personal" is connected to the bridge. Connected: "Work", "Home".', logs.output[0])
        self.assertIn('BROWSER_USE_EXT_BROWSER', logs.output[0])


class ServeTakesBrowser(unittest.TestCase):
    def test_serve_browser_flag_reaches_the_server_and_each_task_runs_where_it_was_typed(self):
        args = build_parser().parse_args(['serve', '--browser', 'Work'])
        self.assertEqual(args.browser, 'Work')
        server = TaskServer(bridge_url='ws://127.0.0.1:1/agent', agent_secret=SECRET, browser_name=args.browser)
        self.assertEqual(server.browser_for({}, 'a task').config.browser_name, 'Work')
        # The server's session works in Home (its panel's task): the task's own session goes there too.
        server.conn = BridgeConnection(url='ws://127.0.0.1:1/agent', secret=SECRET)
        server.conn.browser = HOME
        self.assertEqual(server.browser_for({}, 'a task').config.browser_name, 'Home')


if __name__ == '__main__':
    unittest.main()
