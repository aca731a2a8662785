"""Scenarios of our own that make the calls browser_use 0.1.48's examples make (hover_element.py,
file_upload.py, download_file.py, drag_drop.py, multiple_agents_same_browser.py,
click_fallback_options.py, cross_origin_iframes.py), each run by the unmodified real Agent with the
scripted model on BOTH sides in the same test: our shim (ExtensionBrowser + ExtensionController through
the bridge and the extension in real Chromium) and browser_use's own Playwright on /usr/bin/chromium
(tests/compat_real.py). Both must reach the same final result and the same page-side effect: each
fixture page (tests/fixtures/scenarios048/) records what it received in <pre id="log">.

The custom actions below are written once and registered on both controllers, so both sides make
exactly the same calls. On 0.1.40, calls its BrowserContext lacks (get_locate_element_by_xpath /
_by_css_selector / _by_text, the drag_drop action) are left out on both sides.

One harness and one Playwright browser for the module. The Playwright browser runs with
disable_security=True: 0.1.48 documents it as required for cross-origin iframes (0.1.40's default);
the extension reaches them with Chrome's security on."""
import asyncio
import os
import re
import tempfile
import time
import unittest
from pathlib import Path
from typing import Any, Callable, Optional

from pydantic import BaseModel

from tests.harness import FIXTURES_DIR, set_extension_settings
from tests.real_agent_support import V40, RealAgentModule, chat_openai, done, results_of
from tests.scripted_llm import Script, ScriptedOpenAIServer

try:  # the custom actions' annotation, as in the examples (the registry injects the context by it)
    from browser_use.browser.context import BrowserContext
except ImportError:  # no browser_use in this venv: setUpModule skips
    BrowserContext = object  # type: ignore[assignment, misc]

M = RealAgentModule()
M.fixtures_dir = FIXTURES_DIR / 'scenarios048'
_set_up, _tear_down = M.hooks()
CLICK = 'click_element' if V40 else 'click_element_by_index'
FILE_INPUT = r're:<input\b.*\bfile\b'  # 0.1.48 prints <input type='file' />, 0.1.40 <input file/>
# 0.1.48's procedural memory (mem0, run every 10 steps) never runs in these short runs; importing it
# alone costs ~20 s of the CI budget, so both sides turn it off.
LEAN: dict[str, Any] = {} if V40 else {'enable_memory': False}
REAL: dict[str, Any] = {}
TIMINGS: list[tuple[str, str, float]] = []


def setUpModule() -> None:
    _set_up()
    from tests import compat_real
    cfg: dict[str, Any] = {'headless': True, 'disable_security': True}
    if compat_real.IS_040:
        cfg['extra_chromium_args'] = []
    else:
        cfg['extra_browser_args'] = ['--no-sandbox']
    REAL['browser'] = compat_real.SystemChromiumBrowser(config=compat_real.BrowserConfig(**cfg))


def tearDownModule() -> None:
    try:
        if 'browser' in REAL:
            M.run(REAL['browser'].close())
    finally:
        _tear_down()
        if TIMINGS:
            print('\nscenario timings (s): ' + ', '.join(f'{n}/{side} {t:.1f}' for n, side, t in TIMINGS))


# ---- the examples' custom actions, written once, registered on both sides ----------------------------


class HoverAction(BaseModel):
    index: Optional[int] = None
    xpath: Optional[str] = None
    selector: Optional[str] = None


class ClickFallback(BaseModel):
    xpath: Optional[str] = None
    selector: Optional[str] = None
    text: Optional[str] = None
    nth: int = 0
    page_click: Optional[str] = None  # page.click(selector)
    locator: Optional[str] = None  # page.locator(selector).first.click()


class MouseDrag(BaseModel):
    source: str
    target: str


def add_hover(controller: Any) -> None:
    """hover_element.py: by index through the session's cached state, by XPath, by CSS selector; then hover()."""
    from browser_use.agent.views import ActionResult

    @controller.registry.action('Hover over an element', param_model=HoverAction)
    async def hover_element(params: HoverAction, browser: BrowserContext):
        session = await browser.get_session()
        state = session.cached_state
        if params.xpath:
            element_handle = await browser.get_locate_element_by_xpath(params.xpath)
        elif params.selector:
            element_handle = await browser.get_locate_element_by_css_selector(params.selector)
        elif params.index is not None:
            if state is None or params.index not in state.selector_map:
                raise Exception(f'Element index {params.index} does not exist - retry or use alternative actions')
            element_handle = await browser.get_locate_element(state.selector_map[params.index])
        else:
            raise Exception('Either index, xpath or selector must be provided')
        if element_handle is None:
            raise Exception('Failed to locate the element to hover')
        await element_handle.hover()
        how = f'index {params.index}' if params.index is not None else params.xpath or params.selector
        return ActionResult(extracted_content=f'Hovered over element {how}', include_in_memory=True)


def add_files(controller: Any) -> None:
    """file_upload.py: read_file, and upload_file through get_dom_element_by_index, get_file_upload_element,
    get_locate_element and ElementHandle.set_input_files."""
    from browser_use.agent.views import ActionResult

    @controller.action('Upload file to interactive element with file path ')
    async def upload_file(index: int, path: str, browser: BrowserContext, available_file_paths: list[str]):
        if path not in available_file_paths:
            return ActionResult(error=f'File path {path} is not available')
        dom_el = await browser.get_dom_element_by_index(index)
        file_upload_dom_el = dom_el.get_file_upload_element()
        if file_upload_dom_el is None:
            return ActionResult(error=f'No file upload element found at index {index}')
        file_upload_el = await browser.get_locate_element(file_upload_dom_el)
        if file_upload_el is None:
            return ActionResult(error=f'No file upload element found at index {index}')
        await file_upload_el.set_input_files(path)
        return ActionResult(extracted_content=f'Successfully uploaded file to index {index}', include_in_memory=True)

    @controller.action('Read the file content of a file given a path')
    async def read_file(path: str, available_file_paths: list[str]):
        if path not in available_file_paths:
            return ActionResult(error=f'File path {path} is not available')
        return ActionResult(extracted_content=f'File content: {Path(path).read_text()}', include_in_memory=True)


def add_click_fallback(controller: Any) -> None:
    """click_fallback_options.py's tasks (click by XPath, by CSS selector, the nth element with a text)
    through the BrowserContext locators, page.click and page.locator."""
    from browser_use.agent.views import ActionResult

    @controller.registry.action('Click an element by xpath, css selector, text, or with page.click / page.locator',
                                param_model=ClickFallback)
    async def click_fallback(params: ClickFallback, browser: BrowserContext):
        page = await browser.get_current_page()
        if params.page_click:
            await page.click(params.page_click)
            return ActionResult(extracted_content=f'page.click {params.page_click}', include_in_memory=True)
        if params.locator:
            await page.locator(params.locator).first.click()
            return ActionResult(extracted_content=f'locator click {params.locator}', include_in_memory=True)
        if params.xpath:
            handle = await browser.get_locate_element_by_xpath(params.xpath)
        elif params.selector:
            handle = await browser.get_locate_element_by_css_selector(params.selector)
        else:
            handle = await browser.get_locate_element_by_text(params.text, nth=params.nth)
        if handle is None:
            return ActionResult(error='Element not found', include_in_memory=True)
        await handle.click()
        return ActionResult(extracted_content=f'Clicked {params.xpath or params.selector or params.text}', include_in_memory=True)


def add_mouse_drag(controller: Any) -> None:
    """The calls 0.1.48's drag_drop action makes (page.locator().count(), .first.element_handle(),
    ElementHandle.bounding_box(), page.mouse.move/down/move.../up), as a custom action so 0.1.40 runs it too."""
    from browser_use.agent.views import ActionResult

    @controller.registry.action('Drag one element onto another with the mouse', param_model=MouseDrag)
    async def mouse_drag(params: MouseDrag, browser: BrowserContext):
        page = await browser.get_current_page()
        points = []
        for selector in (params.source, params.target):
            loc = page.locator(selector)
            if await loc.count() == 0:
                return ActionResult(error=f'Not found: {selector}', include_in_memory=True)
            box = await (await loc.first.element_handle()).bounding_box()
            if box is None:
                return ActionResult(error=f'No box: {selector}', include_in_memory=True)
            points.append((int(box['x'] + box['width'] / 2), int(box['y'] + box['height'] / 2)))
        (sx, sy), (tx, ty) = points
        await page.mouse.move(sx, sy)
        await page.mouse.down()
        for i in range(1, 6):
            await page.mouse.move(int(sx + (tx - sx) * i / 5), int(sy + (ty - sy) * i / 5))
        await page.mouse.move(tx, ty)
        await page.mouse.up()
        return ActionResult(extracted_content=f'Dragged {params.source} to {params.target}', include_in_memory=True)

    @controller.registry.action('Drag one element onto another with page.drag_and_drop', param_model=MouseDrag)
    async def page_drag(params: MouseDrag, browser: BrowserContext):
        page = await browser.get_current_page()
        await page.drag_and_drop(params.source, params.target)
        return ActionResult(extracted_content=f'page.drag_and_drop {params.source} to {params.target}', include_in_memory=True)


# ---- running one scenario on both sides ------------------------------------------------------------


async def page_log(ctx: Any) -> str:
    """What the fixture page recorded, read the same way on both sides (Page.inner_text)."""
    page = await ctx.get_current_page()
    return (await page.inner_text('#log')).strip()


def controller_for(side: str, extend: Callable[[Any], None]) -> Any:
    if side == 'ours':
        from browser_use_ext import ExtensionController
        controller = ExtensionController()
    else:
        from browser_use import Controller
        controller = Controller()
    extend(controller)
    return controller


def real_context_config(**config: Any) -> Any:
    """Short page-load waits (the fixtures load at once; the shim's side waits 0.1 s between actions too)."""
    from tests import compat_real
    fast = {'minimum_wait_page_load_time': 0.1, 'wait_for_network_idle_page_load_time': 0.1, 'wait_between_actions': 0.1}
    return compat_real.context_config(1280, 800, **fast, **config)


def real_context(**config: Any) -> Any:
    from browser_use.browser.context import BrowserContext
    return BrowserContext(browser=REAL['browser'], config=real_context_config(**config))


class Run:
    """One side's run: history, agent, what the model saw, what the page recorded."""

    def __init__(self, side: str, history: Any, agents: list, script: Script, log: str) -> None:
        self.side, self.history, self.agents, self.script, self.log = side, history, agents, script, log

    @property
    def results(self) -> list:
        return [r for a in self.agents for r in results_of(a)]


def run_side(name: str, side: str, steps: list, task: str, extend: Callable[[Any], None] = lambda c: None,
             context_config: Optional[dict] = None, max_steps: int = 6, **agent_kw: Any) -> Run:
    from browser_use import Agent
    script = Script(steps)
    controller = controller_for(side, extend)
    started = time.monotonic()
    with ScriptedOpenAIServer(script) as server:
        if side == 'ours':
            browser = M.browser(include_screenshot=bool(agent_kw.get('use_vision')), **(context_config or {}))
            agent = Agent(task, chat_openai(server), browser=browser, controller=controller, **{'use_vision': False, **LEAN, **agent_kw})
        else:
            browser = None
            agent = Agent(task, chat_openai(server), browser=REAL['browser'], browser_context=real_context(**(context_config or {})),
                          controller=controller, **{'use_vision': False, **LEAN, **agent_kw})

        async def go():
            try:
                history = await agent.run(max_steps=max_steps)
                return history, await page_log(agent.browser_context)
            finally:
                await agent.browser_context.close()
                if browser is not None:
                    await browser.close()
        history, log = M.run(go(), timeout=150)
    TIMINGS.append((name, side, time.monotonic() - started))
    return Run(side, history, [agent], script, log)


def both(test: unittest.TestCase, name: str, make_steps: Callable[[], list], task: str, **kw: Any) -> tuple[Run, Run]:
    ours = run_side(name, 'ours', make_steps(), task, **kw)
    real = run_side(name, 'playwright', make_steps(), task, **kw)
    for r in (ours, real):
        test.assertEqual(r.script.errors, [], f'{r.side}: {contents(r)}')
        test.assertTrue(r.history.is_done(), f'{r.side}: {contents(r)}')
    test.assertEqual(ours.history.final_result(), real.history.final_result())
    test.assertEqual(ours.log, real.log)
    return ours, real


def contents(run: Run) -> list:
    return [(r.extracted_content, r.error) for r in run.results]


async def two_agents(side: str, llm: Any) -> tuple[list, str]:
    """multiple_agents_same_browser.py: ``async with await browser.new_context() as context``, then one
    Agent(browser_context=context) after another (the running one paused first), each run as a task."""
    from browser_use import Agent
    browser = M.browser(include_screenshot=False) if side == 'ours' else REAL['browser']
    try:
        async with await browser.new_context(None if side == 'ours' else real_context_config()) as context:
            current = None
            finals = []
            for task in ('Add apples to the cart', 'Now add oranges and tell me the cart'):
                if current:
                    current.pause()
                current = Agent(task=task, llm=llm, browser_context=context, controller=controller_for(side, lambda c: None),
                                use_vision=False, **LEAN)
                history = await asyncio.create_task(current.run(max_steps=4))
                finals.append(history.final_result())
            return finals, await page_log(context)
    finally:
        if side == 'ours':
            await browser.close()


# ---- the scenarios ------------------------------------------------------------------------------------


class Scenarios(unittest.TestCase):
    def test_hover_menu_by_index_selector_and_xpath(self):
        url = M.h.url('hover.html')

        def steps():
            hovers = [] if V40 else [{'hover_element': {'selector': '#by-selector'}},
                                     {'hover_element': {'xpath': '/html/body/nav/button[3]'}}]
            return [
                [{'go_to_url': {'url': url}}],
                lambda s: hovers + [{'hover_element': {'index': s.index_of('Products')}}],
                lambda s: [{CLICK: {'index': s.index_of('Can you click me?')}}],
                done('hovered and clicked'),
            ]
        ours, real = both(self, 'hover', steps, 'Hover the menus, then click "Can you click me?"', extend=add_hover)
        expected = ([] if V40 else ['hovered Pricing', 'hovered Support']) + ['hovered Products', 'clicked Can you click me?']
        self.assertEqual(ours.log.splitlines(), expected)
        self.assertEqual(contents(ours), contents(real))

    def test_upload_files_with_the_example_actions(self):
        tmp = tempfile.TemporaryDirectory()
        self.addCleanup(tmp.cleanup)
        txt, csv = Path(tmp.name) / 'tmp.txt', Path(tmp.name) / 'tmp.csv'
        txt.write_text('test')
        csv.write_text('a,b\n1,2\n')
        # The person allowed the folder for uploads (Settings, "Folders agents may upload from").
        set_extension_settings(M.h, {'upload_folders': [Path(tmp.name).as_uri() + '/']})
        self.addCleanup(set_extension_settings, M.h, {'upload_folders': []})
        url = M.h.url('upload.html')

        def steps():
            return [
                [{'go_to_url': {'url': url}}],
                lambda s: [{'read_file': {'path': str(txt)}}, {'upload_file': {'index': s.index_of(FILE_INPUT), 'path': str(txt)}},
                           {'upload_file': {'index': s.index_of(FILE_INPUT, 1), 'path': str(csv)}}],
                done('uploaded'),
            ]
        ours, real = both(self, 'upload', steps, 'Read the files and upload them to the fields', extend=add_files,
                          available_file_paths=[str(txt), str(csv)])
        self.assertEqual(ours.log.splitlines(), ['received txt: tmp.txt (4 bytes)', 'received csv: tmp.csv (8 bytes)'])
        self.assertEqual(contents(ours), contents(real))
        self.assertEqual(contents(ours)[1][0], 'File content: test')

    def test_download_to_save_downloads_path(self):
        url = M.h.url('download.html')
        expected = (M.fixtures_dir / 'files' / 'report.csv').read_bytes()
        saved = {}
        for side in ('ours', 'playwright'):
            tmp = tempfile.TemporaryDirectory()
            self.addCleanup(tmp.cleanup)
            steps = [[{'go_to_url': {'url': url}}], lambda s: [{CLICK: {'index': s.index_of('Download the quarterly report')}}],
                     done('downloaded')]
            run = run_side('download', side, steps, 'Download the quarterly report', context_config={'save_downloads_path': tmp.name},
                           max_actions_per_step=8, use_vision=True)
            self.assertTrue(run.history.is_done(), run.side)
            msg = run.results[1].extracted_content or ''
            self.assertEqual(msg, f'💾  Downloaded file to {os.path.join(tmp.name, "report.csv")}', f'{side}: {run.results[1]}')
            saved[side] = (Path(tmp.name, 'report.csv').read_bytes(), run.log, run.history.final_result())
        self.assertEqual(saved['ours'], saved['playwright'])
        self.assertEqual(saved['ours'][0], expected)
        self.assertEqual(saved['ours'][1], 'download link clicked')

    def test_drag_and_drop_a_sortable_list(self):
        url = M.h.url('drag.html')

        def steps():
            # Actions without an index run on in one step (the Agent re-reads the page only before an indexed one).
            builtin = [] if V40 else [{'drag_drop': {'element_source': '#item-1', 'element_target': '#item-3'}}]
            return [[{'go_to_url': {'url': url}}, *builtin, {'mouse_drag': {'source': '#item-4', 'target': '#item-2'}},
                     {'page_drag': {'source': '#item-2', 'target': '#item-1'}}],
                    done('sorted')]
        ours, real = both(self, 'drag', steps, 'Sort the list by dragging items', extend=add_mouse_drag)
        # An item dropped on another goes below it when it came from above, above it when it came from below.
        expected = ['order 1,4,2,3', 'order 2,1,4,3'] if V40 else ['order 2,3,1,4', 'order 4,2,3,1', 'order 4,3,1,2']
        self.assertEqual(ours.log.splitlines(), expected)
        self.assertEqual(contents(ours), contents(real))

    def test_click_fallbacks_by_xpath_selector_text_and_page_calls(self):
        url = M.h.url('fallback.html')

        def steps():
            by_context = [] if V40 else [
                {'click_fallback': {'xpath': '/html/body/div[1]/div[1]'}}, {'click_fallback': {'text': 'Oranges'}},
                {'click_fallback': {'selector': '#p2 .shown'}}, {'click_fallback': {'text': 'Apples'}},
            ]
            return [
                [{'go_to_url': {'url': url}}, *by_context,
                 {'click_fallback': {'page_click': '#p3 .shown'}}, {'click_fallback': {'locator': '//*[@id="p3"]/div[2]/div[3]'}}],
                lambda s: [{'select_dropdown_option': {'index': s.index_of('<select'), 'text': 'BMW'}}],
                done('picked'),
            ]
        ours, real = both(self, 'fallback', steps, 'Pick fruits in the pickers and choose the car BMW', extend=add_click_fallback)
        expected = ([] if V40 else ['p1 picked Oranges', 'p2 picked Apples']) + ['p3 picked Pears', 'car BMW']
        self.assertEqual(ours.log.splitlines(), expected)
        self.assertEqual(contents(ours), contents(real))

    def test_two_agents_share_one_browser_context(self):
        url = M.h.url('cart.html')
        seen = {}
        for side in ('ours', 'playwright'):
            script = Script([
                [{'go_to_url': {'url': url}}],
                lambda s: [{CLICK: {'index': s.index_of('Add apples')}}],
                done('apples added'),
                lambda s: [{CLICK: {'index': s.index_of('Add oranges')}}],
                lambda s: [{'done': {'text': re.search(r'Cart: ?\n?\s*([^\n]+)', s.last_text).group(1).strip(), 'success': True}}],
            ])
            started = time.monotonic()
            with ScriptedOpenAIServer(script) as server:
                seen[side] = M.run(two_agents(side, chat_openai(server)), timeout=150)
            TIMINGS.append(('two agents', side, time.monotonic() - started))
            self.assertEqual(script.errors, [], side)
        self.assertEqual(seen['ours'], seen['playwright'])
        self.assertEqual(seen['ours'], (['apples added', 'apples, oranges'], 'added apples\nadded oranges'))

    def test_click_in_a_cross_origin_iframe(self):
        url = M.h.url('iframe.html')

        def steps():
            return [
                [{'go_to_url': {'url': url}}],
                lambda s: [{CLICK: {'index': s.index_of('Go cross-site')}}],
                lambda s: done('Hello from the partner site' if 'Hello from the partner site' in s.last_text else 'text not seen'),
            ]
        ours, real = both(self, 'iframe', steps, 'Click "Go cross-site" in the partner frame, then tell me the text within')
        self.assertEqual(ours.history.final_result(), 'Hello from the partner site')  # read from the frame after the click
        self.assertEqual(contents(ours), contents(real))
        port = M.h.fixtures_url.rsplit(':', 1)[1]
        self.assertEqual(ours.log, f'from http://localhost:{port}: button clicked')


if __name__ == '__main__':
    unittest.main()
