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


    def test_a_second_download_in_the_tab_lands_too(self):
        # The link's file, then the page's blob export in the same tab: Chrome drops a page's second
        # download without a user gesture, and the agent was told "Clicked button with index N".
        from browser_use import Agent
        click = 'click_element' if V40 else 'click_element_by_index'
        script = Script([
            [{'open_tab': {'url': M.h.url('exports.html')}}],
            lambda s: [{click: {'index': s.index_of('Download people.csv')}}],
            lambda s: [{click: {'index': s.index_of('Export report')}}],
            done('exported'),
        ])
        browser = M.browser(include_screenshot=False)
        with ScriptedOpenAIServer(script) as server:
            agent = Agent('Download the people list and the report', chat_openai(server), browser=browser, use_vision=False)

            async def go():
                try:
                    return await agent.run(max_steps=5)
                finally:
                    await agent.browser_context.close()
                    await browser.close()
            history = M.run(go(), timeout=200)
        self.assertEqual(script.errors, [])
        self.assertTrue(history.is_done())
        paths = []
        for result in results_of(agent)[1:3]:
            self.assertIsNone(result.error, result.error)
            m = re.fullmatch(r'💾  Downloaded file to (.+)', result.extracted_content or '')
            self.assertIsNotNone(m, result.extracted_content)
            paths.append(m.group(1))
        self.assertEqual(Path(paths[0]).read_text(), CSV)
        self.assertEqual(Path(paths[1]).read_text(), 'report 1\n')
        self.assertRegex(os.path.basename(paths[1]), r'^report-1( \(\d+\))?\.txt$')


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

    def test_expect_download_after_earlier_downloads_in_the_tab(self):
        # Chrome drops a page's second download without a user gesture: the blob export after the
        # link's download used to time out here after 30 s. Ten in one tab, each saved with its size.
        browser = M.browser(include_screenshot=False)

        async def go():
            ctx = await browser.new_context()
            try:
                await ctx.create_new_tab(M.h.url('exports.html'))
                page = await ctx.get_current_page()
                got = []
                for selector in ['#get', '#export', '#export', '#get', '#export', '#get', '#export', '#export', '#get', '#export']:
                    async with page.expect_download(timeout=15_000) as info:
                        await page.click(selector)
                    download = await info.value
                    got.append((selector, download.suggested_filename, await download.path(), download._record.get('bytes')))
                return got
            finally:
                await ctx.close()
                await browser.close()
        got = M.run(go(), timeout=240)
        self.assertEqual(len(got), 10)
        self.assertEqual(len({path for _, _, path, _ in got}), 10, got)
        reports = 0
        for selector, name, path, size in got:
            if selector == '#export':
                reports += 1
                body = f'report {reports}\n'
                # The harness's one Downloads folder: Chrome numbers a name an earlier test saved.
                self.assertRegex(name, rf'^report-{reports}( \(\d+\))?\.txt$')
            else:
                body = CSV
                self.assertTrue(name.endswith('.csv'), name)
            self.assertEqual(Path(path).read_text(), body)
            self.assertEqual(os.path.getsize(path), size)

    def test_save_as_says_so_when_chrome_runs_on_another_machine(self):
        import asyncio

        from browser_use_ext.downloads import Download, DownloadNotLocal
        d = Download({'id': 1, 'filename': '/nonexistent/elsewhere/people.csv', 'suggested_filename': 'people.csv',
                      'url': 'http://x/people.csv', 'state': 'complete', 'bytes': 3})
        with self.assertRaises(DownloadNotLocal) as e:
            asyncio.run(d.save_as('/tmp/whatever.csv'))
        self.assertIn('same machine as Chrome', str(e.exception))
