"""Playwright's context.cookies() in the person's own Chrome, through the real bridge, extension and
Chromium: page.context.cookies() and browser_use's session.context.cookies() return the cookies of the
agent's own site in Playwright's shape, never a cookie of a site only another agent has open; a URL on
another site gets nothing and one log line; browser_use's cookies_file is written on close (0.1.48's
save_cookies) and no log line ever holds a value. Needs no browser_use (runs in nobu too)."""
import json
import logging
import os
import stat
import tempfile
import unittest

from browser_use_ext import BrowserContextConfig
from browser_use_ext.playwright_unsupported import UnsupportedPlaywrightCall
from tests.harness import ShimModule

S = ShimModule()
H = None
CTX = None
TMP = tempfile.mkdtemp(prefix='bux-cookies-')
COOKIES_FILE = os.path.join(TMP, 'saved', 'cookies.json')
PLAYWRIGHT_KEYS = {'name', 'value', 'domain', 'path', 'expires', 'httpOnly', 'secure', 'sameSite'}


def run(coro, timeout=60):
    return S.run(coro, timeout)


def setUpModule():
    global H, CTX
    H = S.start()
    _, CTX = S.open_context(BrowserContextConfig(include_screenshot=False))


tearDownModule = S.close


def elsewhere(path):
    """The same fixture server as another site: cookies are kept per host."""
    return H.url(path).replace('127.0.0.1', 'localhost')


class ContextCookies(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        # Another agent has another site open and logged in; our agent is on its own site.
        run(CTX.navigate_to(H.url('cookies.html')))
        _, cls.other = S.open_context(BrowserContextConfig(include_screenshot=False))
        run(cls.other.create_new_tab(elsewhere('cookies.html')))
        run(cls.other.get_state(False))

    def test_page_context_cookies_has_playwright_shape_and_only_the_agents_site(self):
        page = run(CTX.get_current_page())
        with self.assertLogs('browser_use_ext', level='DEBUG') as logs:
            cookies = run(page.context.cookies())
            logging.getLogger('browser_use_ext').debug('marker')
        by_name = {c['name']: c for c in cookies}
        self.assertEqual(set(by_name), {'shim_sid', 'theme'})
        for c in cookies:
            self.assertEqual(set(c), PLAYWRIGHT_KEYS)
        self.assertEqual(by_name['shim_sid']['value'], 'py-s3cr3t-value')
        self.assertEqual(by_name['shim_sid']['domain'], '127.0.0.1')
        self.assertEqual(by_name['shim_sid']['expires'], -1)
        self.assertEqual(by_name['theme']['sameSite'], 'Strict')
        self.assertIs(by_name['theme']['httpOnly'], False)
        self.assertNotIn('s3cr3t', '\n'.join(logs.output))
        # browser_use's own path: save_cookies calls self.session.context.cookies().
        session = run(CTX.get_session())
        self.assertEqual(run(session.context.cookies()), cookies)
        # The other agent reads its site's cookie, and not ours.
        theirs = {c['name'] for c in run(self.other.playwright_context.cookies())}
        self.assertEqual(theirs, {'other_site', 'theme'})

    def test_urls_filter_and_another_sites_url_get_nothing_with_one_log_line(self):
        page = run(CTX.get_current_page())
        self.assertEqual({c['name'] for c in run(page.context.cookies(H.url('cookies.html')))}, {'shim_sid', 'theme'})
        with self.assertLogs('browser_use_ext', level='WARNING') as logs:
            got = run(page.context.cookies([elsewhere('cookies.html?token=abc')]))
        self.assertEqual(got, [])
        text = '\n'.join(logs.output)
        self.assertIn(elsewhere('cookies.html'), text)
        self.assertIn("reads only the cookies of the sites its own tabs show", text)
        self.assertNotIn('token=abc', text)
        self.assertNotIn('s3cr3t', text)

    def test_add_cookies_names_the_way_forward(self):
        with self.assertRaises(UnsupportedPlaywrightCall) as cm:
            run(CTX.playwright_context.add_cookies([{'name': 'a', 'value': 'b', 'url': H.url('/')}]))
        self.assertIn('BrowserContext.add_cookies is not available', str(cm.exception))

    def test_cookies_file_is_written_on_close_readable_by_its_owner_only(self):
        # browser_use 0.1.48 writes context.cookies() to cookies_file when the context closes.
        _, saver = S.open_context(BrowserContextConfig(include_screenshot=False, cookies_file=COOKIES_FILE))
        run(saver.create_new_tab(H.url('cookies.html')))
        run(saver.get_state(False))
        run(saver.close())
        with open(COOKIES_FILE, encoding='utf-8') as f:
            saved = json.load(f)
        self.assertEqual({c['name'] for c in saved}, {'shim_sid', 'theme'})
        self.assertEqual(set(saved[0]), PLAYWRIGHT_KEYS)
        self.assertEqual(stat.S_IMODE(os.stat(COOKIES_FILE).st_mode), 0o600)

if __name__ == '__main__':
    unittest.main()
