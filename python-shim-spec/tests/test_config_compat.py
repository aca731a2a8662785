"""browser_use 0.1.40's configuration names work with the shim's BrowserConfig / BrowserContextConfig:
its examples pass chrome_instance_path (to start Chrome in debug mode), extra_chromium_args and
browser_window_size. They are accepted and have no effect (the extension drives the running Chrome),
and the Chrome path is answered with one log line saying so."""

import unittest

from tests.harness import SHIM_DIR  # noqa: F401  (puts the package on sys.path)


class BrowserUse040ConfigNames(unittest.TestCase):
    def test_chrome_instance_path_is_accepted_and_one_line_says_your_running_chrome_is_used(self) -> None:
        from browser_use_ext import Browser, BrowserConfig

        with self.assertLogs('browser_use_ext.config', 'INFO') as logs:
            cfg = BrowserConfig(
                chrome_instance_path='/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
                extra_chromium_args=['--window-size=2000,2000'],
                headless=False,
            )
        self.assertEqual(len(logs.output), 1)
        self.assertIn('drives your running Chrome', logs.output[0])
        self.assertEqual(Browser(config=cfg).config.chrome_instance_path, cfg.chrome_instance_path)

    def test_without_a_chrome_path_nothing_is_logged(self) -> None:
        from browser_use_ext import BrowserConfig

        with self.assertNoLogs('browser_use_ext.config', 'INFO'):
            BrowserConfig(headless=False)

    def test_browser_window_size_of_0_1_40_is_accepted(self) -> None:
        from browser_use_ext import BrowserContextConfig

        cfg = BrowserContextConfig(browser_window_size={'width': 1280, 'height': 1100}, trace_path='./tmp/traces/')
        self.assertEqual(cfg.browser_window_size, {'width': 1280, 'height': 1100})


if __name__ == '__main__':
    unittest.main()
