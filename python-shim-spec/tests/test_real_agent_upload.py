"""Uploads through the shim: browser_use's own example custom action (examples/custom-functions/
file_upload.py of 0.1.4x: get_file_upload_element, get_locate_element, ElementHandle.set_input_files)
run by the unmodified real Agent, and Page/ElementHandle.set_input_files with every form Playwright
accepts, against test/fixtures/pages/upload.html in real Chromium (bridge + extension)."""
import os
import tempfile
import unittest
from pathlib import Path

from tests.harness import set_extension_settings
from tests.real_agent_support import RealAgentModule, chat_openai, done, results_of
from tests.scripted_llm import Script, ScriptedOpenAIServer

M = RealAgentModule()
M.fixtures_dir = Path(__file__).resolve().parents[2] / 'test' / 'fixtures' / 'pages'
setUpModule, tearDownModule = M.hooks()


def allow_uploads(test: unittest.TestCase, folder: str) -> None:
    """The person's "Folders agents may upload from" setting, as the Settings page stores it; none again after the test."""
    set_extension_settings(M.h, {'upload_folders': [Path(folder).as_uri() + '/']})
    test.addCleanup(set_extension_settings, M.h, {'upload_folders': []})


def example_controller():
    """The controller of browser_use's file_upload.py example, its upload action as written there."""
    from browser_use import ActionResult
    from browser_use.browser.context import BrowserContext

    from browser_use_ext import ExtensionController
    controller = ExtensionController()

    @controller.action('Upload file to interactive element with file path ')
    async def upload_file(index: int, path: str, browser: BrowserContext, available_file_paths: list[str]):
        if path not in available_file_paths:
            return ActionResult(error=f'File path {path} is not available')
        if not os.path.exists(path):
            return ActionResult(error=f'File {path} does not exist')
        dom_el = await browser.get_dom_element_by_index(index)
        file_upload_dom_el = dom_el.get_file_upload_element()
        if file_upload_dom_el is None:
            msg = f'No file upload element found at index {index}'
            return ActionResult(error=msg)
        file_upload_el = await browser.get_locate_element(file_upload_dom_el)
        if file_upload_el is None:
            msg = f'No file upload element found at index {index}'
            return ActionResult(error=msg)
        try:
            await file_upload_el.set_input_files(path)
            msg = f'Successfully uploaded file to index {index}'
            return ActionResult(extracted_content=msg, include_in_memory=True)
        except Exception as e:
            msg = f'Failed to upload file to index {index}: {str(e)}'
            return ActionResult(error=msg)

    return controller


class ExampleUploadAction(unittest.TestCase):
    def test_the_agent_uploads_with_the_example_action_and_the_page_reads_the_file(self):
        from browser_use import Agent
        tmp = tempfile.TemporaryDirectory()
        self.addCleanup(tmp.cleanup)
        cv = Path(tmp.name) / 'test_cv.txt'
        cv.write_text('Ada Lovelace, analyst')
        allow_uploads(self, tmp.name)
        url = M.h.url('upload.html')
        script = Script([
            [{'go_to_url': {'url': url}}],
            lambda s: [{'upload_file': {'index': s.index_of('re:<input[^>]*file'), 'path': str(cv)}}],
            lambda s: [{'upload_file': {'index': s.index_of('re:<input[^>]*file'), 'path': '/etc/passwd'}}],
            done('uploaded'),
        ])
        browser = M.browser(include_screenshot=False)
        with ScriptedOpenAIServer(script) as server:
            agent = Agent('Upload my CV', chat_openai(server), browser=browser, controller=example_controller(),
                          use_vision=False, available_file_paths=[str(cv)], max_failures=5)

            async def go():
                try:
                    return await agent.run(max_steps=6)
                finally:
                    await agent.browser_context.close()
                    await browser.close()
            history = M.run(go(), timeout=200)
        self.assertEqual(script.errors, [])
        self.assertTrue(history.is_done())
        results = results_of(agent)
        self.assertIsNone(results[1].error, results[1].error)
        self.assertRegex(results[1].extracted_content, r'^Successfully uploaded file to index \d+$')
        self.assertEqual(results[2].error, 'File path /etc/passwd is not available')
        # The page's own change handler listed the file and read its bytes; the agent's next state shows it.
        after = script.of_kind('agent')[2].last_text
        self.assertIn('one: test_cv.txt (21 bytes, text/plain)', after)
        self.assertIn('Ada Lovelace, analyst', after)


class PlaywrightForms(unittest.TestCase):
    """Page.set_input_files / ElementHandle.set_input_files take what Playwright takes; refusals are
    BrowserError with error_code and a message saying what to do."""

    @staticmethod
    async def text(ctx, selector):
        return await (await ctx.get_locate_element_by_css_selector(selector)).inner_text()

    def _run(self, body):
        browser = M.browser(include_screenshot=False)

        async def go():
            ctx = await browser.new_context()
            try:
                page = await ctx.get_current_page()
                await page.goto(M.h.url('upload.html'))
                return await body(ctx, page)
            finally:
                await ctx.close()
                await browser.close()
        return M.run(go(), timeout=120)

    def test_paths_payloads_lists_and_clearing(self):
        tmp = tempfile.TemporaryDirectory()
        self.addCleanup(tmp.cleanup)
        a = Path(tmp.name) / 'a.json'
        a.write_text('{"a": 1}')
        ten = Path(tmp.name) / 'ten.bin'
        ten.write_bytes(b'x' * (10 * 1024 * 1024))
        allow_uploads(self, tmp.name)

        async def body(ctx, page):
            out = []
            await page.set_input_files('#one', a)  # a Path
            out.append(await self.text(ctx, '#out'))
            await page.set_input_files('#many', [str(a), {'name': 'b.png', 'mimeType': 'image/png', 'buffer': b'\x89PNG'}])
            out.append(await self.text(ctx, '#out'))
            el = await ctx.get_locate_element_by_css_selector('#many')
            await el.set_input_files({'name': 'c.txt', 'mimeType': 'text/plain', 'buffer': b'see'})
            out.append(await self.text(ctx, '#out'))
            await el.set_input_files([])
            out.append(await self.text(ctx, '#out'))
            # The limit itself goes through: 10 MiB in one file, read in Python and sent in one action.
            await page.set_input_files('#many', ten)
            out.append(await self.text(ctx, '#out'))
            # Playwright's locator form, as custom actions written for Playwright call it.
            await page.locator('#one').set_input_files({'name': 'd.txt', 'mimeType': 'text/plain', 'buffer': b'dd'})
            out.append(await self.text(ctx, '#out'))
            return out

        out = self._run(body)
        self.assertEqual(out[0], 'one: a.json (8 bytes, application/json)')
        self.assertEqual(out[1], 'many: a.json (8 bytes, application/json)\nmany: b.png (4 bytes, image/png)')
        self.assertEqual(out[2], 'many: c.txt (3 bytes, text/plain)')
        self.assertEqual(out[3], '')
        self.assertEqual(out[4], 'many: ten.bin (10485760 bytes, application/octet-stream)')
        self.assertEqual(out[5], 'one: d.txt (2 bytes, text/plain)')

    def test_refusals_raise_browser_error_with_code_and_next_step(self):
        from browser_use_ext import BrowserError
        tmp = tempfile.TemporaryDirectory()
        self.addCleanup(tmp.cleanup)
        big = Path(tmp.name) / 'big.bin'
        big.write_bytes(b'\0' * (10 * 1024 * 1024 + 1))
        allow_uploads(self, tmp.name)
        elsewhere = tempfile.TemporaryDirectory()
        self.addCleanup(elsewhere.cleanup)
        outside = Path(elsewhere.name) / 'outside.txt'
        outside.write_text('not for the page')

        async def body(ctx, page):
            errors = []
            for call in (
                lambda: page.set_input_files('#text', {'name': 'x.txt', 'buffer': b'x'}),
                lambda: page.set_input_files('#one', [{'name': 'x.txt', 'buffer': b'x'}, {'name': 'y.txt', 'buffer': b'y'}]),
                lambda: page.set_input_files('#one', str(Path(tmp.name) / 'missing.txt')),
                lambda: page.set_input_files('#many', big),
                lambda: page.set_input_files('#one', 42),
                lambda: page.set_input_files('#one', outside),
            ):
                try:
                    await call()
                    errors.append(None)
                except BrowserError as e:
                    errors.append((getattr(e, 'error_code', None), str(e)))
            errors.append(await self.text(ctx, '#count'))
            return errors

        errors = self._run(body)
        self.assertEqual(errors[0][0], 'NOT_FILLABLE')
        self.assertRegex(errors[0][1], r'^set_input_files failed: .*is not a file input.*input\[type=file\]')
        self.assertEqual(errors[1][0], 'INVALID_VALUE')
        self.assertIn('takes one file (it has no multiple attribute), but 2 were given', errors[1][1])
        self.assertEqual(errors[2][0], 'INVALID_VALUE')
        self.assertRegex(errors[2][1], r"no file at '.*missing\.txt' \(looked for it on the machine running Python")
        self.assertEqual(errors[3][0], 'FILES_TOO_LARGE')
        self.assertIn('10.0 MiB, more than the 10 MiB one upload carries; nothing was sent', errors[3][1])
        self.assertEqual(errors[4][0], 'INVALID_VALUE')
        self.assertIn('cannot upload a int', errors[4][1])
        self.assertEqual(errors[5][0], 'NOT_PERMITTED')
        self.assertIn('outside.txt', errors[5][1])
        self.assertIn('"Folders agents may upload from"', errors[5][1])
        self.assertEqual(errors[6], '0', 'no input or change event for a refused upload')


if __name__ == '__main__':
    unittest.main()
