"""ExtensionController: browser_use 0.1.48's Controller with the same 25 default actions (names,
parameter models, descriptions, result strings), implemented with protocol actions instead of
Playwright. With browser_use installed it *is* a browser_use Controller (subclass) whose default
action bodies are swapped; user actions registered with ``@controller.action`` work unchanged.

No ``from __future__ import annotations`` here: the Registry inspects the first parameter's
annotation at call time to decide how to pass the params model.
"""
import asyncio
import enum
import functools
import inspect
import json
import logging
from typing import Any, Callable, Generic, Optional, TypeVar

from ._protocol_codes import ErrorCode
from .compat import ActionResult, URLNotAllowedError, browser_use_available
from .errors import OPTION_UNSELECTABLE_CODES
from .fallback import controller_views as fv
from .fallback.models import create_model as fb_create_model
from .fallback.registry import ActionModel as FallbackActionModel
from .fallback.registry import Registry as FallbackRegistry
from .transport import ActionFailed, BridgeError

logger = logging.getLogger(__name__)

DESCRIPTIONS = {
    'done': 'Complete task - with return text and if the task is finished (success=True) or not yet  completely finished '
            '(success=False), because last step is reached',
    'search_google': 'Search the query in Google in the current tab, the query should be a search query like humans search in Google, '
                     'concrete and not vague or super long. More the single most important items. ',
    'go_to_url': 'Navigate to URL in the current tab',
    'go_back': 'Go back',
    'wait': 'Wait for x seconds default 3',
    'click_element_by_index': 'Click element by index',
    'input_text': 'Input text into a input interactive element',
    'save_pdf': 'Save the current page as a PDF file',
    'switch_tab': 'Switch tab',
    'open_tab': 'Open url in new tab',
    'close_tab': 'Close an existing tab',
    'extract_content': 'Extract page content to retrieve specific information from the page, e.g. all company names, a specific '
                       'description, all information about, links with companies in structured format or simply links',
    'scroll_down': 'Scroll down the page by pixel amount - if no amount is specified, scroll down one page',
    'scroll_up': 'Scroll up the page by pixel amount - if no amount is specified, scroll up one page',
    'send_keys': 'Send strings of special keys like Escape,Backspace, Insert, PageDown, Delete, Enter, Shortcuts such as `Control+o`, '
                 '`Control+Shift+T` are supported as well. This gets used in keyboard.press. ',
    'scroll_to_text': 'If you dont find something which you want to interact with, scroll to it',
    'get_dropdown_options': 'Get all options from a native dropdown',
    'select_dropdown_option': 'Select dropdown option for interactive element index by the text of the option you want to select',
    'drag_drop': 'Drag and drop elements or between coordinates on the page - useful for canvas drawing, sortable lists, sliders, file '
                 'uploads, and UI rearrangement',
    'get_sheet_contents': 'Google Sheets: Get the contents of the entire sheet',
    'select_cell_or_range': 'Google Sheets: Select a specific cell or range of cells',
    'get_range_contents': 'Google Sheets: Get the contents of a specific cell or range of cells',
    'clear_selected_range': 'Google Sheets: Clear the currently selected cells',
    'input_selected_cell_text': 'Google Sheets: Input text into the currently selected cell',
    'update_range_contents': 'Google Sheets: Batch update a range of cells',
}
SHEETS_DOMAINS = ['sheets.google.com']

# Registration order of 0.1.48 (MIGRATION.md numbers them the same way).
DEFAULT_ACTIONS = list(DESCRIPTIONS)
ACTIONS_ABSENT_IN_0_1_40 = ['save_pdf', 'close_tab', 'drag_drop', 'get_sheet_contents', 'select_cell_or_range', 'get_range_contents',
                            'clear_selected_range', 'input_selected_cell_text', 'update_range_contents']

if browser_use_available():  # pragma: no cover - exercised only where browser_use is installed
    from browser_use.controller.service import Controller as _BaseController  # type: ignore
    _REAL = True
else:
    class _BaseController(Generic[TypeVar('C')]):  # type: ignore[no-redef]
        pass
    _REAL = False

Context = TypeVar('Context')


def _result(r: dict) -> dict:
    return (r.get('outcome_details') or {}).get('result') or {}



def _remembered(msg):
    """Logs an action's result line and keeps it in the agent's memory: 0.1.48's shape for most actions."""
    logger.info(msg)
    return ActionResult(extracted_content=msg, include_in_memory=True)

async def _act(browser: Any, action: str, params: dict, tab_id: Optional[int] = None) -> dict:
    return await browser.call(action, params, tab_id=tab_id)


def _target(browser: Any, node: Any) -> tuple:
    return browser._target(node)


# ---- the 25 default actions (bodies) -------------------------------------------------------------
# Each takes the validated params model first (``params``) and the injected arguments by the same
# names as 0.1.48, so browser_use's Registry.execute_action injects exactly what it did before.

async def done(params):
    if hasattr(params, 'data') and not hasattr(params, 'text'):
        # 0.1.48 with output_model: ExtendedOutputModel(success, data)
        output_dict = params.data.model_dump() if hasattr(params.data, 'model_dump') else dict(params.data)
        for key, value in list(output_dict.items()):
            if isinstance(value, enum.Enum):
                output_dict[key] = value.value
        return ActionResult(is_done=True, success=params.success, extracted_content=json.dumps(output_dict))
    if not hasattr(params, 'text'):
        # 0.1.40 with output_model: ExtendedOutputModel(output_model) adds success to the user's fields
        output_dict = params.model_dump(exclude={'success'})
        return ActionResult(is_done=True, success=params.success, extracted_content=json.dumps(output_dict))
    return ActionResult(is_done=True, success=params.success, extracted_content=params.text)


async def search_google(params, browser):
    page = await browser.get_current_page()
    await page.goto(f'https://www.google.com/search?q={params.query}&udm=14')
    await page.wait_for_load_state()
    msg = f'🔍  Searched for "{params.query}" in Google'
    return _remembered(msg)


async def go_to_url(params, browser):
    if not browser._is_url_allowed(params.url):
        # 0.1.48 navigated first and bounced back on the next get_state; in the person's own
        # browser the shim refuses before leaving the page.
        raise URLNotAllowedError(f'Navigation to non-allowed URL: {params.url}')
    page = await browser.get_current_page()
    await page.goto(params.url)
    await page.wait_for_load_state()
    msg = f'🔗  Navigated to {params.url}'
    return _remembered(msg)


async def go_back(_, browser):
    await browser.go_back()
    msg = '🔙  Navigated back'
    return _remembered(msg)


async def wait(params):
    seconds = params.seconds
    msg = f'🕒  Waiting for {seconds} seconds'
    logger.info(msg)
    await asyncio.sleep(seconds)
    return ActionResult(extracted_content=msg, include_in_memory=True)


async def click_element_by_index(params, browser):
    session = await browser.get_session()
    if params.index not in await browser.get_selector_map():
        raise Exception(f'Element with index {params.index} does not exist - retry or use alternative actions')
    element_node = await browser.get_dom_element_by_index(params.index)
    initial_pages = len(session.context.pages)
    if await browser.is_file_uploader(element_node):
        msg = (
            f'Index {params.index} - has an element which opens file upload dialog. '
            'To upload files please use a specific function to upload files '
        )
        return _remembered(msg)
    msg = None
    try:
        download_path = await browser._click_element_node(element_node)
        if download_path:
            msg = f'💾  Downloaded file to {download_path}'
        else:
            msg = f'🖱️  Clicked button with index {params.index}: {element_node.get_all_text_till_next_clickable_element(max_depth=2)}'
        logger.info(msg)
        if len(session.context.pages) > initial_pages:
            new_tab_msg = 'New tab opened - switching to it'
            msg += f' - {new_tab_msg}'
            logger.info(new_tab_msg)
            await browser.switch_to_tab(-1)
        return ActionResult(extracted_content=msg, include_in_memory=True)
    except Exception as e:
        logger.warning(f'Element not clickable with index {params.index} - most likely the page changed')
        return ActionResult(error=str(e))


async def input_text(params, browser, has_sensitive_data: bool = False):
    if params.index not in await browser.get_selector_map():
        raise Exception(f'Element index {params.index} does not exist - retry or use alternative actions')
    element_node = await browser.get_dom_element_by_index(params.index)
    await browser._input_text_element_node(element_node, params.text)
    if not has_sensitive_data:
        msg = f'⌨️  Input {params.text} into index {params.index}'
    else:
        msg = f'⌨️  Input sensitive data into index {params.index}'
    return _remembered(msg)


async def save_pdf(params, browser):
    page = await browser.get_current_page()
    return ActionResult(error=(
        f'save_pdf is not available through the browser-use-ext extension (printing {page.url} to PDF needs the '
        'DevTools protocol, which the extension does not use). Use extract_content to keep the page text, '
        "or print from Chrome's menu."
    ))


async def switch_tab(params, browser):
    await browser.switch_to_tab(params.page_id)
    page = await browser.get_agent_current_page()
    await page.wait_for_load_state()
    msg = f'🔄  Switched to tab {params.page_id}'
    return _remembered(msg)


async def open_tab(params, browser):
    await browser.create_new_tab(params.url)
    await browser.get_agent_current_page()
    msg = f'🔗  Opened new tab with {params.url}'
    return _remembered(msg)


async def close_tab(params, browser):
    await browser.switch_to_tab(params.page_id)
    page = await browser.get_current_page()
    url = page.url
    await page.close()
    msg = f'❌  Closed tab #{params.page_id} with url {url}'
    return _remembered(msg)


EXTRACT_PROMPT = (
    'Your task is to extract the content of the page. You will be given a page and a goal and you should extract all relevant '
    'information around this goal from the page. If the goal is vague, summarize the page. Respond in json format. '
    'Extraction goal: {goal}, Page: {page}'
)


async def extract_content(params, browser, page_extraction_llm):
    strip = bool(getattr(params, 'should_strip_link_urls', False))
    r = await _act(browser, 'extract_content', {'include_links': not strip})
    content = _result(r).get('text', '')
    prompt = EXTRACT_PROMPT.format(goal=params.goal, page=content)
    try:
        output = await page_extraction_llm.ainvoke(prompt)
        msg = f'📄  Extracted from page\n: {getattr(output, "content", output)}\n'
        return _remembered(msg)
    except Exception as e:
        logger.debug(f'Error extracting content: {e}')
        msg = f'📄  Extracted from page\n: {content}\n'
        logger.info(msg)
        return ActionResult(extracted_content=msg)


async def _scroll(params, browser, direction: str):
    p: dict = {'direction': direction}
    height = ((getattr(browser, 'last_protocol_state', None) or {}).get('viewport_dimensions') or {}).get('height')
    if params.amount is not None:
        p['amount'] = abs(int(params.amount))
    elif height:
        p['amount'] = height  # 0.1.48 scrolls by window.innerHeight
    else:
        p['pages'] = 1
    await _act(browser, 'scroll', p)
    amount = f'{params.amount} pixels' if params.amount is not None else 'one page'
    msg = f'🔍  Scrolled {direction} the page by {amount}'
    return _remembered(msg)


async def scroll_down(params, browser):
    return await _scroll(params, browser, 'down')


async def scroll_up(params, browser):
    return await _scroll(params, browser, 'up')


async def send_keys(params, browser):
    """0.1.48/0.1.40 verbatim: keyboard.press(keys); on Playwright's "Unknown key" (a word, not a key
    name) each character is pressed on its own. Keyboard.press raises the same message (page.py)."""
    page = await browser.get_current_page()
    try:
        await page.keyboard.press(params.keys)
    except Exception as e:
        if 'Unknown key' in str(e):
            for key in params.keys:
                try:
                    await page.keyboard.press(key)
                except Exception as e:
                    logger.debug(f'Error sending key {key}: {str(e)}')
                    raise e
        else:
            raise e
    msg = f'⌨️  Sent keys: {params.keys}'
    return _remembered(msg)


async def scroll_to_text(params, browser):
    text = params.text
    try:
        r = await _act(browser, 'scroll_to_text', {'text': text})
        if _result(r).get('found', True):
            msg = f'🔍  Scrolled to text: {text}'
        else:
            msg = f"Text '{text}' not found or not visible on page"
        return _remembered(msg)
    except ActionFailed as e:
        if e.code in (ErrorCode.TARGET_ELEMENT_NOT_FOUND, ErrorCode.OPERATION_FAILED_IN_TARGET):
            msg = f"Text '{text}' not found or not visible on page"
            return ActionResult(extracted_content=msg, include_in_memory=True)
        msg = f"Failed to scroll to text '{text}': {str(e)}"
        logger.error(msg)
        return ActionResult(error=msg, include_in_memory=True)


async def get_dropdown_options(params, browser):
    selector_map = await browser.get_selector_map()
    dom_element = selector_map[params.index]
    target, tab = _target(browser, dom_element)
    try:
        r = await _act(browser, 'get_dropdown_options', target, tab)
        options = _result(r).get('options') or []
        if not options:
            msg = 'No options found in any frame for dropdown'
            return _remembered(msg)
        all_options = [f'{opt["index"]}: text={json.dumps(opt["text"])}' for opt in options]
        msg = '\n'.join(all_options)
        msg += '\nUse the exact text string in select_dropdown_option'
        return _remembered(msg)
    except (ActionFailed, BridgeError) as e:
        msg = f'Error getting options: {str(e)}'
        return _remembered(msg)


async def select_dropdown_option(params, browser):
    selector_map = await browser.get_selector_map()
    dom_element = selector_map[params.index]
    text = params.text
    if dom_element.tag_name != 'select':
        msg = f'Cannot select option: Element with index {params.index} is a {dom_element.tag_name}, not a select'
        logger.error(msg)
        return ActionResult(extracted_content=msg, include_in_memory=True)
    target, tab = _target(browser, dom_element)
    try:
        r = await _act(browser, 'select_option', {**target, 'labels': [text]}, tab)
        selected_option_values = _result(r).get('values') or []
        msg = f'selected option {text} with value {selected_option_values}'
        return _remembered(msg)
    except ActionFailed as e:
        if e.code in OPTION_UNSELECTABLE_CODES:
            msg = f"Could not select option '{text}' in any frame"
            return _remembered(msg)
        msg = f'Selection failed: {str(e)}'
        logger.error(msg)
        return ActionResult(error=msg, include_in_memory=True)


def _drag_selector(browser, selector: str) -> str:
    """page.locator() takes CSS or XPath; the protocol takes CSS (XPath converted as 0.1.48's history does)."""
    if selector.startswith('xpath='):
        selector = selector[len('xpath='):]
    if selector.startswith('/') or selector.startswith('('):
        return browser._convert_simple_xpath_to_css_selector(selector)
    return selector


async def _count(browser, selector: str) -> int:
    try:
        r = await _act(browser, 'get', {'selector': selector, 'what': 'count'})
        value = _result(r).get('value')
        return value if isinstance(value, int) else 0
    except (ActionFailed, BridgeError) as e:
        logger.error(f'Error finding elements: {str(e)}')
        return 0


async def drag_drop(params, browser):
    """0.1.48's drag_drop result strings: element- or coordinate-based, 'Failed to find source element',
    'Must provide either ...', 'Error during drag operation: ...'. Element offsets are used as page
    points, exactly as 0.1.48 does (get_element_coordinates returns the offset itself)."""
    try:
        steps = max(1, params.steps or 10)
        p: dict = {}
        if params.element_source and params.element_target:
            source, target = _drag_selector(browser, params.element_source), _drag_selector(browser, params.element_target)
            source_found, target_found = await _count(browser, source) > 0, await _count(browser, target) > 0
            if not source_found or not target_found:
                return ActionResult(error=f'Failed to find {"source" if not source_found else "target"} element', include_in_memory=True)
            so, to = params.element_source_offset, params.element_target_offset
            if so is not None:
                p['from_point'] = {'x': so.x, 'y': so.y}
            else:
                p['selector'] = source
            if to is not None:
                p['to_point'] = {'x': to.x, 'y': to.y}
            else:
                p['to'] = {'selector': target}
        elif all(v is not None for v in (params.coord_source_x, params.coord_source_y, params.coord_target_x, params.coord_target_y)):
            p = {
                'from_point': {'x': params.coord_source_x, 'y': params.coord_source_y},
                'to_point': {'x': params.coord_target_x, 'y': params.coord_target_y},
            }
        else:
            return ActionResult(error='Must provide either source/target selectors or source/target coordinates', include_in_memory=True)
        p['steps'] = min(50, steps)  # the protocol's limit; 0.1.48 moves `steps` times too
        try:
            await _act(browser, 'drag_and_drop', p)
        except (ActionFailed, BridgeError) as e:
            message = f'Error during drag operation: {str(e)}'
            logger.error(f'Drag operation failed: {message}')
            return ActionResult(error=message, include_in_memory=True)
        if params.element_source and params.element_target:
            msg = f"🖱️ Dragged element '{params.element_source}' to '{params.element_target}'"
        else:
            msg = f'🖱️ Dragged from ({params.coord_source_x}, {params.coord_source_y}) to ({params.coord_target_x}, {params.coord_target_y})'
        return _remembered(msg)
    except Exception as e:
        error_msg = f'Failed to perform drag and drop: {str(e)}'
        logger.error(error_msg)
        return ActionResult(error=error_msg, include_in_memory=True)


# Google Sheets (domains=['sheets.google.com']): keyboard through send_keys/type; reading the
# clipboard needs evaluate, which the person must enable (else NotPermittedError -> step error).
async def _keys(browser, *keys):
    page = await browser.get_current_page()
    for k in keys:
        await page.keyboard.press(k)


async def get_sheet_contents(params, browser):
    page = await browser.get_current_page()
    await _keys(browser, 'Enter', 'Escape', 'ControlOrMeta+A', 'ControlOrMeta+C')
    extracted_tsv = await page.evaluate('() => navigator.clipboard.readText()')
    return ActionResult(extracted_content=extracted_tsv, include_in_memory=True)


async def select_cell_or_range(params, browser):
    page = await browser.get_current_page()
    await _keys(browser, 'Enter', 'Escape')
    await asyncio.sleep(0.1)
    await _keys(browser, 'Home', 'ArrowUp')
    await asyncio.sleep(0.1)
    await _keys(browser, 'Control+G')
    await asyncio.sleep(0.2)
    await page.keyboard.type(params.cell_or_range, delay=0.05)
    await asyncio.sleep(0.2)
    await _keys(browser, 'Enter')
    await asyncio.sleep(0.2)
    await _keys(browser, 'Escape')
    return ActionResult(extracted_content=f'Selected cell {params.cell_or_range}', include_in_memory=False)


async def get_range_contents(params, browser):
    page = await browser.get_current_page()
    await select_cell_or_range(params, browser)
    await _keys(browser, 'ControlOrMeta+C')
    await asyncio.sleep(0.1)
    extracted_tsv = await page.evaluate('() => navigator.clipboard.readText()')
    return ActionResult(extracted_content=extracted_tsv, include_in_memory=True)


async def clear_selected_range(params, browser):
    await _keys(browser, 'Backspace')
    return ActionResult(extracted_content='Cleared selected range', include_in_memory=False)


async def input_selected_cell_text(params, browser):
    page = await browser.get_current_page()
    await page.keyboard.type(params.text, delay=0.1)
    await _keys(browser, 'Enter', 'ArrowUp')
    return ActionResult(extracted_content=f'Inputted text {params.text}', include_in_memory=False)


async def update_range_contents(params, browser):
    page = await browser.get_current_page()

    class _R:
        cell_or_range = params.range
    await select_cell_or_range(_R, browser)
    await page.evaluate(
        '''(tsv) => { const d = new DataTransfer(); d.setData('text/plain', tsv);
        document.activeElement.dispatchEvent(new ClipboardEvent('paste', {clipboardData: d, bubbles: true})); }''',
        params.new_contents_tsv,
    )
    return ActionResult(extracted_content=f'Updated cell {params.range} with {params.new_contents_tsv}', include_in_memory=False)


IMPLEMENTATIONS: dict[str, Callable] = {
    'done': done, 'search_google': search_google, 'go_to_url': go_to_url, 'go_back': go_back, 'wait': wait,
    'click_element_by_index': click_element_by_index, 'input_text': input_text, 'save_pdf': save_pdf,
    'switch_tab': switch_tab, 'open_tab': open_tab, 'close_tab': close_tab, 'extract_content': extract_content,
    'scroll_down': scroll_down, 'scroll_up': scroll_up, 'send_keys': send_keys, 'scroll_to_text': scroll_to_text,
    'get_dropdown_options': get_dropdown_options, 'select_dropdown_option': select_dropdown_option,
    'drag_drop': drag_drop, 'get_sheet_contents': get_sheet_contents, 'select_cell_or_range': select_cell_or_range,
    'get_range_contents': get_range_contents, 'clear_selected_range': clear_selected_range,
    'input_selected_cell_text': input_selected_cell_text, 'update_range_contents': update_range_contents,
}


# Bodies that only use what the shim provides (no Playwright-only API) stay browser_use's own when it
# is installed: done (0.1.40's and 0.1.48's output_model shapes differ), wait, send_keys (its
# "Unknown key" per-character retry runs on ExtensionPage.keyboard).
KEEP_REAL_BODIES = {'done', 'wait', 'send_keys'}


def _bind(name: str, impl: Callable, param_model: type) -> Callable:
    """impl with its first parameter annotated as param_model (the Registry then passes the model)
    and a __name__ equal to the action name."""
    @functools.wraps(impl)
    async def fn(*args, **kwargs):
        return await impl(*args, **kwargs)
    sig = inspect.signature(impl)
    params = list(sig.parameters.values())
    params[0] = params[0].replace(annotation=param_model)
    fn.__signature__ = sig.replace(parameters=params)
    fn.__name__ = name
    return fn


def _fallback_param_models(output_model: Optional[type]) -> dict[str, type]:
    gen = lambda name, **fields: fb_create_model(f'{name}_parameters', __base__=FallbackActionModel, **fields)  # noqa: E731
    if output_model is not None:
        done_model = fb_create_model('ExtendedOutputModel', __base__=FallbackActionModel, success=(bool, True), data=(output_model, ...))
    else:
        done_model = fv.DoneAction
    return {
        'done': done_model,
        'search_google': fv.SearchGoogleAction,
        'go_to_url': fv.GoToUrlAction,
        'go_back': fv.NoParamsAction,
        'wait': gen('wait', seconds=(int, 3)),
        'click_element_by_index': fv.ClickElementAction,
        'input_text': fv.InputTextAction,
        'save_pdf': gen('save_pdf'),
        'switch_tab': fv.SwitchTabAction,
        'open_tab': fv.OpenTabAction,
        'close_tab': fv.CloseTabAction,
        'extract_content': gen('extract_content', goal=(str, ...), should_strip_link_urls=(bool, ...)),
        'scroll_down': fv.ScrollAction,
        'scroll_up': fv.ScrollAction,
        'send_keys': fv.SendKeysAction,
        'scroll_to_text': gen('scroll_to_text', text=(str, ...)),
        'get_dropdown_options': gen('get_dropdown_options', index=(int, ...)),
        'select_dropdown_option': gen('select_dropdown_option', index=(int, ...), text=(str, ...)),
        'drag_drop': fv.DragDropAction,
        'get_sheet_contents': gen('get_sheet_contents'),
        'select_cell_or_range': gen('select_cell_or_range', cell_or_range=(str, ...)),
        'get_range_contents': gen('get_range_contents', cell_or_range=(str, ...)),
        'clear_selected_range': gen('clear_selected_range'),
        'input_selected_cell_text': gen('input_selected_cell_text', text=(str, ...)),
        'update_range_contents': gen('update_range_contents', range=(str, ...), new_contents_tsv=(str, ...)),
    }


class ExtensionController(_BaseController):  # type: ignore[misc, valid-type]
    """``Controller`` for the extension: ``ExtensionController(exclude_actions=[], output_model=None)``."""

    def __init__(
        self, exclude_actions: Optional[list] = None, output_model: Optional[type] = None, *, actions_version: str = '0.1.48'
    ) -> None:
        """actions_version='0.1.40' registers the 0.1.40 default set instead: ``click_element`` (the
        0.1.41 rename's old name), ``extract_content(goal)`` without should_strip_link_urls, and no
        save_pdf / close_tab / drag_drop / Google Sheets actions."""
        exclude_actions = list(exclude_actions or [])
        if actions_version == '0.1.40':
            exclude_actions += [a for a in ACTIONS_ABSENT_IN_0_1_40 if a not in exclude_actions]
        if _REAL:
            super().__init__(exclude_actions=exclude_actions, output_model=output_model)
            for name, ra in self.registry.registry.actions.items():
                if name in KEEP_REAL_BODIES:
                    continue
                impl = IMPLEMENTATIONS.get(name) or ({'click_element': click_element_by_index}).get(name)  # 0.1.40's name
                if impl is not None:
                    ra.function = _bind(name, impl, ra.param_model)
            if actions_version == '0.1.40':
                self._as_0_1_40()
            return
        self.registry = FallbackRegistry(exclude_actions)
        models = _fallback_param_models(output_model)
        if actions_version == '0.1.40':
            models['extract_content'] = fb_create_model('extract_content_parameters', __base__=FallbackActionModel, goal=(str, ...))
        for name in DEFAULT_ACTIONS:
            if name in exclude_actions:
                continue
            kwargs: dict = {'param_model': models[name]}
            if actions_version == '0.1.40' and name == 'click_element_by_index':
                self.registry.action(DESCRIPTIONS[name], **kwargs)(_bind('click_element', IMPLEMENTATIONS[name], models[name]))
                continue
            if name in (
                'get_sheet_contents',
                'select_cell_or_range',
                'get_range_contents',
                'clear_selected_range',
                'input_selected_cell_text',
                'update_range_contents',
            ):
                kwargs['domains'] = list(SHEETS_DOMAINS)
            self.registry.action(DESCRIPTIONS[name], **kwargs)(_bind(name, IMPLEMENTATIONS[name], models[name]))

    def _as_0_1_40(self) -> None:
        """On a newer installed browser_use, actions_version='0.1.40' gives the model 0.1.40's names and
        parameters: click_element (renamed in 0.1.41) and extract_content(goal) only."""
        actions = self.registry.registry.actions
        if 'click_element_by_index' not in actions:
            return  # browser_use 0.1.40 itself is installed: its registry already is the 0.1.40 set
        from browser_use.controller.registry.views import ActionModel as _RealActionModel  # type: ignore
        from pydantic import create_model  # browser_use depends on pydantic
        renamed: dict = {}
        for name, ra in actions.items():
            if name == 'click_element_by_index':
                ra.name, ra.description = 'click_element', 'Click element'
                ra.function = _bind('click_element', click_element_by_index, ra.param_model)
                renamed['click_element'] = ra
                continue
            if name == 'extract_content':
                ra.param_model = create_model('extract_content_parameters', __base__=_RealActionModel, goal=(str, ...))
                ra.function = _bind('extract_content', extract_content, ra.param_model)
            renamed[name] = ra
        actions.clear()
        actions.update(renamed)

    def action(self, description: str, **kwargs: Any) -> Callable:
        """Decorator for registering custom actions (``@controller.action('...')``)."""
        return self.registry.action(description, **kwargs)

    async def act(
        self,
        action: Any,
        browser_context: Any,
        page_extraction_llm: Any = None,
        sensitive_data: Optional[dict] = None,
        available_file_paths: Optional[list] = None,
        context: Any = None,
    ) -> Any:
        if _REAL:
            return await super().act(action, browser_context, page_extraction_llm, sensitive_data, available_file_paths, context)
        for action_name, params in action.model_dump(exclude_unset=True).items():
            if params is not None:
                result = await self.registry.execute_action(
                    action_name, params, browser=browser_context, page_extraction_llm=page_extraction_llm,
                    sensitive_data=sensitive_data, available_file_paths=available_file_paths, context=context,
                )
                if isinstance(result, str):
                    return ActionResult(extracted_content=result)
                if isinstance(result, ActionResult):
                    return result
                if result is None:
                    return ActionResult()
                raise ValueError(f'Invalid action result type: {type(result)} of {result}')
        return ActionResult()
