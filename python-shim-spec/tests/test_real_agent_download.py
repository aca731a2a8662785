"""Downloads through the shim: the unmodified real Agent clicks a download link and gets the saved
file's path in its result, as browser_use's click on Playwright gives it; page.expect_download and
Download.save_as, against test/fixtures/pages/downloads.html in real Chromium (bridge + extension)."""
import os
import re
import tempfile
import unittest
from pathlib import Path

from tests.real_agent_support import V40, RealAgentModule, chat_openai, done, results_of
from tests.scripted_llm import Script, ScriptedOpenAIServer

M = RealAgentModule()
M.fixtures_dir = Path(__file__).resolve().parents[2] / 'test' / 'fixtures' / 'pages'
setUpModule, tearDownModule = M.hooks()

CSV = (M.fixtures_dir / 'people.csv').read_text()


class AgentClickDownloads(unittest.TestCase):
    # Chrome lets a page start one download without a real user gesture; the next from the same
    # site in the same tab waits for the person's "allow multiple downloads". Each test opens a new tab.
    def _run_agent(self, **config):
        from browser_use import Agent
        click = 'click_element' if V40 else 'click_element_by_index'
        script = Script([
            [{'open_tab': {'url': M.h.url('downloads.html')}}],
            lambda s: [{click: {'index': s.index_of('Download people.csv')}}],
            done('downloaded'),
        ])
        browser = M.browser(include_screenshot=False, **config)
        with ScriptedOpenAIServer(script) as server:
            agent = Agent('Download the people list', chat_openai(server), browser=browser, use_vision=False)

            async def go():
                try:
                    return await agent.run(max_steps=4)
                finally:
                    await agent.browser_context.close()
                    await browser.close()
            with self.assertLogs('browser_use_ext', level='DEBUG') as logs:
                history = M.run(go(), timeout=200)
        self.assertEqual(script.errors, [])
        self.assertTrue(history.is_done())
        result = results_of(agent)[1]
        self.assertIsNone(result.error, result.error)
        m = re.fullmatch(r'💾  Downloaded file to (.+)', result.extracted_content or '')
        self.assertIsNotNone(m, result.extracted_content)
        path = m.group(1)
        self.assertTrue(os.path.isabs(path), path)
        self.assertEqual(Path(path).read_text(), CSV)
        self.assertTrue(any(f'Download triggered. Saved file to: {path}' in line for line in logs.output), logs.output)
        return path

    def test_the_agents_click_returns_the_path_chrome_saved(self):
        path = self._run_agent()
        self.assertTrue(path.endswith('.csv'), path)

    def test_with_save_downloads_path_the_file_is_copied_there_under_a_unique_name(self):
        tmp = tempfile.TemporaryDirectory()
        self.addCleanup(tmp.cleanup)
        (Path(tmp.name) / 'people.csv').write_text('older file')
        path = self._run_agent(save_downloads_path=tmp.name)
        # browser_use's _get_unique_filename: an existing name gets " (1)".
        self.assertEqual(path, os.path.join(tmp.name, 'people (1).csv'))


class PlaywrightExpectDownload(unittest.TestCase):
    def test_expect_download_gives_the_download_of_the_next_action(self):
        tmp = tempfile.TemporaryDirectory()
        self.addCleanup(tmp.cleanup)
        browser = M.browser(include_screenshot=False)

        async def go():
            ctx = await browser.new_context()
            try:
                await ctx.create_new_tab(M.h.url('downloads.html'))
                page = await ctx.get_current_page()
                async with page.expect_download() as info:
                    await page.click('#get')
                download = await info.value
                target = Path(tmp.name) / 'copy.csv'
                await download.save_as(target)
                return download, await download.path(), target.read_text()
            finally:
                await ctx.close()
                await browser.close()
        download, path, copied = M.run(go(), timeout=120)
        self.assertEqual(download.suggested_filename, os.path.basename(path))
        self.assertEqual(Path(path).read_text(), CSV)
        self.assertEqual(copied, CSV)

    def test_save_as_says_so_when_chrome_runs_on_another_machine(self):
        import asyncio

        from browser_use_ext.downloads import Download, DownloadNotLocal
        d = Download({'id': 1, 'filename': '/nonexistent/elsewhere/people.csv', 'suggested_filename': 'people.csv',
                      'url': 'http://x/people.csv', 'state': 'complete', 'bytes': 3})
        with self.assertRaises(DownloadNotLocal) as e:
            asyncio.run(d.save_as('/tmp/whatever.csv'))
        self.assertIn('same machine as Chrome', str(e.exception))
