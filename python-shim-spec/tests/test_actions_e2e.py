"""Each default action of the ExtensionController on fixture pages through the real bridge,
extension and Chromium: its 0.1.48 result string, and its failure shape (ActionResult(error=...),
or the RuntimeError('Error executing action <name>: ...') the Registry raises)."""
import base64
import os
import re
import tempfile
import unittest
from pathlib import Path
from types import SimpleNamespace

from browser_use_ext import (
    ActionResult,
    BrowserContextConfig,
    ExtensionBrowser,
    ExtensionBrowserConfig,
    ExtensionController,
    FeatureNotAvailable,
    NotPermittedError,
    TabInfo,
)
from browser_use_ext.compat import BrowserState, DOMElementNode
from tests.harness import ShimModule, set_extension_settings

S = ShimModule()
H = None
CTX = None
CONTROLLER = ExtensionController()
AM = CONTROLLER.registry.create_action_model()


def run(coro, timeout=60):
    return S.run(coro, timeout)


def setUpModule():
    global H, CTX
    try:
        import importlib.metadata
        installed = importlib.metadata.version('browser-use')
    except Exception:
        installed = ''
    if installed.startswith('0.1.40'):
        # This suite calls the 0.1.48 action names and prompt format directly; with 0.1.40 installed the
        # registry and DOM classes are 0.1.40's own, which test_real_agent_actions drives through the Agent.
        raise unittest.SkipTest('browser_use 0.1.40 is installed: its own actions are checked by test_real_agent_actions')
    H = S.start()
    _, CTX = S.open_context(BrowserContextConfig(include_screenshot=False, allowed_domains=['127.0.0.1']))


tearDownModule = S.close


def act(**action):
    return run(CONTROLLER.act(AM(**action), CTX, page_extraction_llm=FakeLLM()))


def index_of(state, pred):
    for i, node in state.selector_map.items():
        if pred(node):
            return i
    raise AssertionError('no such element in ' + state.element_tree.clickable_elements_to_string(['id', 'name', 'type']))


def by_id(state, ident):
    return index_of(state, lambda n: n.attributes.get('id') == ident)


class FakeLLM:
    async def ainvoke(self, prompt):
        return SimpleNamespace(content='EXTRACTED: ' + ('treasure' if 'hidden treasure' in prompt else 'nothing'))


class Actions(unittest.TestCase):
    def setUp(self):
        r = act(go_to_url={'url': H.url('actions.html')})
        self.assertEqual(r.extracted_content, f"🔗  Navigated to {H.url('actions.html')}")
        self.state = run(CTX.get_state(True))

    def test_get_state_returns_browser_use_state(self):
        s = self.state
        self.assertIsInstance(s, BrowserState)
        self.assertIsInstance(s.element_tree, DOMElementNode)
        self.assertEqual((s.url, s.title), (H.url('actions.html'), 'Actions fixture'))
        self.assertTrue(all(isinstance(t, TabInfo) for t in s.tabs))
        self.assertIn(H.url('actions.html'), [t.url for t in s.tabs])
        self.assertEqual(s.pixels_above, 0)
        self.assertGreater(s.pixels_below, 2000)  # the 3000 px spacer
        self.assertIsNone(s.screenshot)  # include_screenshot=False
        self.assertEqual(run(CTX.get_selector_map()), s.selector_map)
        self.assertIs(run(CTX.get_dom_element_by_index(by_id(s, 'fullname'))), s.selector_map[by_id(s, 'fullname')])

    def test_viewport_expansion_from_the_context_config(self):
        self.assertNotIn('The hidden treasure is here', self.state.element_tree.clickable_elements_to_string([]))  # 3000 px below
        CTX.config.viewport_expansion = -1  # whole page, as browser_use's -1
        try:
            self.assertIn('The hidden treasure is here', run(CTX.get_state(False)).element_tree.clickable_elements_to_string([]))
        finally:
            CTX.config.viewport_expansion = 0

    def test_screenshot_when_asked(self):
        png = base64.b64decode(run(CTX.take_screenshot()))
        self.assertEqual(png[:8], b'\x89PNG\r\n\x1a\n')
        CTX.config.include_screenshot = True
        try:
            # Every state carries one, as the real _get_updated_state takes one (0.1.40 agents call
            # get_state() without the hash flag; 0.1.48's validator uses get_state(False)'s), even
            # right after the capture above: the shim paces Chrome's two-per-second quota.
            states = [run(CTX.get_state(True)) for _ in range(2)] + [run(CTX.get_state(False))]
            self.assertTrue(all(base64.b64decode(st.screenshot)[:8] == b'\x89PNG\r\n\x1a\n' for st in states))
        finally:
            CTX.config.include_screenshot = False

    def test_input_text_then_click(self):
        i, b = by_id(self.state, 'fullname'), by_id(self.state, 'hello')
        self.assertEqual(act(input_text={'index': i, 'text': 'Ada'}).extracted_content, f'⌨️  Input Ada into index {i}')
        self.assertEqual(act(click_element_by_index={'index': b}).extracted_content, f'🖱️  Clicked button with index {b}: Say hello')
        text = run(CTX.get_state(False)).element_tree.clickable_elements_to_string([])
        self.assertIn('clicked Ada', text)

    def test_get_state_true_marks_elements_that_appeared_as_new(self):
        more = by_id(self.state, 'more')
        self.assertTrue(all(not n.is_new for n in self.state.selector_map.values()))  # first state of this URL: nothing "new"
        act(click_element_by_index={'index': more})
        state = run(CTX.get_state(True))
        fresh = by_id(state, 'fresh')
        self.assertTrue(state.selector_map[fresh].is_new)
        self.assertEqual([i for i, n in state.selector_map.items() if n.is_new], [fresh])
        self.assertIn(f'*[{fresh}]*<button >Fresh button />', state.element_tree.clickable_elements_to_string([]))
        # The next get_state(True) has seen it: no longer new.
        again = run(CTX.get_state(True))
        self.assertFalse(again.selector_map[by_id(again, 'fresh')].is_new)

    def test_user_actions_registered_with_controller_action(self):
        controller = ExtensionController()

        @controller.action('Read the page title')
        async def read_title(browser):
            page = await browser.get_current_page()
            return ActionResult(extracted_content=f'title: {await page.title()}', include_in_memory=True)

        @controller.action('Type into the name field', param_model=None)
        async def fill_name(name: str, browser):
            await (await browser.get_locate_element_by_css_selector('#fullname')).fill(name)
            return f'filled {name}'

        model = controller.registry.create_action_model()
        self.assertEqual(run(controller.act(model(read_title={}), CTX)).extracted_content, 'title: Actions fixture')
        self.assertEqual(run(controller.act(model(fill_name={'name': 'Lin'}), CTX)).extracted_content, 'filled Lin')
        self.assertIn('read_title', controller.registry.get_prompt_description())

    def test_click_and_input_on_a_missing_index_raise(self):
        with self.assertRaisesRegex(
            RuntimeError,
            r'^Error executing action click_element_by_index: Element with index 999 does not exist - retry or use alternative actions$',
        ):
            act(click_element_by_index={'index': 999})
        with self.assertRaisesRegex(RuntimeError, r'^Error executing action input_text: Element index 999 does not exist'):
            act(input_text={'index': 999, 'text': 'x'})

    def test_click_on_a_file_input_does_not_open_the_dialog(self):
        i = by_id(self.state, 'upload')
        self.assertEqual(
            act(click_element_by_index={'index': i}).extracted_content,
            f'Index {i} - has an element which opens file upload dialog. To upload files please use a specific function to upload files ',
        )

    def test_click_that_opens_a_tab_switches_to_it_then_switch_and_close(self):
        i = by_id(self.state, 'newtab')
        r = act(click_element_by_index={'index': i})
        self.assertEqual(
            r.extracted_content,
            f'🖱️  Clicked button with index {i}: Open other page in a new tab - New tab opened - switching to it',
            r.error,
        )
        page = run(CTX.get_current_page())
        self.assertEqual(page.url, H.url('other.html'))
        tabs = run(CTX.get_tabs_info())
        first = [t.page_id for t in tabs if t.url == H.url('actions.html')][0]
        last = len(tabs) - 1
        self.assertEqual(act(switch_tab={'page_id': first}).extracted_content, f'🔄  Switched to tab {first}')
        self.assertEqual(run(CTX.get_current_page()).url, H.url('actions.html'))
        self.assertEqual(act(close_tab={'page_id': last}).extracted_content, f"❌  Closed tab #{last} with url {H.url('other.html')}")
        self.assertNotIn(H.url('other.html'), [t.url for t in run(CTX.get_tabs_info())])
        with self.assertRaisesRegex(RuntimeError, 'No tab found with page_id: 99'):
            act(switch_tab={'page_id': 99})

    def test_open_tab(self):
        r = act(open_tab={'url': H.url('other.html')})
        self.assertEqual(r.extracted_content, f"🔗  Opened new tab with {H.url('other.html')}")
        self.assertEqual(run(CTX.get_state(False)).url, H.url('other.html'))
        run(CTX.close_current_tab())
        self.assertEqual(run(CTX.get_current_page()).url, run(CTX.get_tabs_info())[0].url)

    def test_go_back(self):
        act(go_to_url={'url': H.url('other.html')})
        self.assertEqual(act(go_back={}).extracted_content, '🔙  Navigated back')
        self.assertEqual(run(CTX.get_state(False)).url, H.url('actions.html'))

    def test_go_to_url_outside_allowed_domains_is_refused(self):
        with self.assertRaisesRegex(
            RuntimeError, r'^Error executing action go_to_url: Navigation to non-allowed URL: https://example.com/'
        ):
            act(go_to_url={'url': 'https://example.com/'})
        with self.assertRaises(Exception) as cm:
            run(CTX.create_new_tab('https://example.com/'))
        self.assertIn('non-allowed URL', str(cm.exception))

    def test_scroll_down_and_up(self):
        self.assertEqual(act(scroll_down={'amount': 500}).extracted_content, '🔍  Scrolled down the page by 500 pixels')
        self.assertEqual(run(CTX.get_state(False)).pixels_above, 500)
        inner_height = CTX.last_protocol_state['viewport_dimensions']['height']
        self.assertEqual(act(scroll_up={}).extracted_content, '🔍  Scrolled up the page by one page')
        self.assertEqual(run(CTX.get_state(False)).pixels_above, max(0, 500 - inner_height))  # one page = window.innerHeight
        self.assertEqual(act(scroll_down={}).extracted_content, '🔍  Scrolled down the page by one page')
        self.assertGreater(run(CTX.get_state(False)).pixels_above, 0)

    def test_send_keys(self):
        self.assertEqual(act(send_keys={'keys': 'Enter'}).extracted_content, '⌨️  Sent keys: Enter')
        self.assertIn('key Enter', run(CTX.get_state(False)).element_tree.clickable_elements_to_string([]))

    def test_scroll_to_text(self):
        self.assertEqual(act(scroll_to_text={'text': 'hidden treasure'}).extracted_content, '🔍  Scrolled to text: hidden treasure')
        self.assertGreater(run(CTX.get_state(False)).pixels_above, 2000)
        self.assertEqual(
            act(scroll_to_text={'text': 'no such words'}).extracted_content, "Text 'no such words' not found or not visible on page"
        )

    def test_dropdown_options_and_selection(self):
        sel, name = by_id(self.state, 'fruit'), by_id(self.state, 'fullname')
        text = act(get_dropdown_options={'index': sel}).extracted_content
        lines = text.split('\n')
        self.assertEqual(lines[-1], 'Use the exact text string in select_dropdown_option')
        self.assertEqual([re.sub(r'^\d+: ', '', line) for line in lines[:-1]], ['text="Apple"', 'text="Banana"', 'text="Cherry"'])
        self.assertEqual(
            act(select_dropdown_option={'index': sel, 'text': 'Banana'}).extracted_content, "selected option Banana with value ['b']"
        )
        self.assertEqual(
            act(select_dropdown_option={'index': sel, 'text': 'Durian'}).extracted_content, "Could not select option 'Durian' in any frame"
        )
        self.assertEqual(
            act(select_dropdown_option={'index': name, 'text': 'x'}).extracted_content,
            f'Cannot select option: Element with index {name} is a input, not a select',
        )

    def test_extract_content_uses_the_page_extraction_llm(self):
        r = act(extract_content={'goal': 'find the treasure', 'should_strip_link_urls': True})
        self.assertEqual(r.extracted_content, '📄  Extracted from page\n: EXTRACTED: treasure\n')
        self.assertTrue(r.include_in_memory)

    def test_drag_drop_between_elements(self):
        r = act(drag_drop={'element_source': '#drag-src', 'element_target': '#drop'})
        self.assertIsNone(r.error, r.error)
        self.assertEqual(r.extracted_content, "🖱️ Dragged element '#drag-src' to '#drop'")
        self.assertIn('dropped', run(CTX.get_state(False)).element_tree.clickable_elements_to_string([]))

    def test_save_pdf_is_impossible_and_says_what_to_do(self):
        r = act(save_pdf={})
        self.assertTrue(r.error.startswith('save_pdf is not available through the browser-use-ext extension'))
        self.assertIn('extract_content', r.error)

    def test_wait(self):
        self.assertEqual(act(wait={'seconds': 0}).extracted_content, '🕒  Waiting for 0 seconds')


class Guards(unittest.TestCase):
    def test_a_click_that_lands_outside_allowed_domains_goes_back_and_fails_the_action(self):
        act(go_to_url={'url': H.url('elsewhere.html')})
        state = run(CTX.get_state(True))
        i = by_id(state, 'away')
        r = act(click_element_by_index={'index': i})
        self.assertTrue(r.error.startswith('Navigation to non-allowed URL: http://localhost:'), r.error)
        self.assertEqual(run(CTX.get_state(False)).url, H.url('elsewhere.html'))

    def test_sheets_actions_need_evaluate_permission_for_the_clipboard(self):
        act(go_to_url={'url': H.url('actions.html')})
        with self.assertRaisesRegex(RuntimeError, r'^Error executing action get_sheet_contents: evaluate is not permitted: .*Options'):
            run(CONTROLLER.registry.execute_action('get_sheet_contents', {}, browser=CTX))

    def test_0_1_40_click_element_name(self):
        legacy = ExtensionController(actions_version='0.1.40')
        act(go_to_url={'url': H.url('actions.html')})
        state = run(CTX.get_state(True))
        b = by_id(state, 'hello')
        r = run(legacy.act(legacy.registry.create_action_model()(click_element={'index': b}), CTX))
        self.assertEqual(r.extracted_content, f'🖱️  Clicked button with index {b}: Say hello')


class ContextMethods(unittest.TestCase):
    def setUp(self):
        act(go_to_url={'url': H.url('actions.html')})
        self.state = run(CTX.get_state(True))

    def test_navigation_methods(self):
        run(CTX.navigate_to(H.url('other.html')))
        self.assertEqual(run(CTX.get_state(False)).url, H.url('other.html'))
        run(CTX.go_back())
        run(CTX.go_forward())
        self.assertEqual(run(CTX.get_state(False)).url, H.url('other.html'))
        run(CTX.refresh_page())
        self.assertEqual(run(CTX.get_state(False)).title, 'Other page')
        with self.assertRaisesRegex(Exception, 'Navigation to non-allowed URL: https://example.com/'):
            run(CTX.navigate_to('https://example.com/'))

    def test_element_handles_by_index_css_xpath_and_text(self):
        handle = run(CTX.get_element_by_index(by_id(self.state, 'fullname')))
        run(handle.fill('Grace'))
        self.assertEqual(run(run(CTX.get_locate_element_by_css_selector('#fullname')).get_attribute('id')), 'fullname')
        button = run(CTX.get_locate_element_by_xpath('html/body/button[1]'))
        self.assertTrue(run(button.is_visible()))
        run(button.click())
        self.assertEqual(run(run(CTX.get_locate_element_by_css_selector('#out')).inner_text()), 'clicked Grace')
        # An attribute test, as browser_use's hover_element.py example passes: one element, not "*".
        by_id_xpath = run(CTX.get_locate_element_by_xpath('//*[@id="hello"]'))
        self.assertEqual(run(by_id_xpath.inner_text()), 'Say hello')
        link = run(CTX.get_locate_element_by_text('Open other page', element_type='a'))
        self.assertEqual(run(link.get_attribute('id')), 'newtab')
        self.assertIsNone(run(CTX.get_locate_element_by_text('no such text')))

    def test_scroll_info_structure_and_waits(self):
        above, below = run(CTX.get_scroll_info(run(CTX.get_current_page())))
        self.assertEqual(above, 0)
        self.assertGreater(below, 2000)
        structure = run(CTX.get_page_structure())
        self.assertIn('<select> [', structure)
        run(CTX.wait_for_element('#far', 2000))
        with self.assertRaisesRegex(Exception, 'did not appear'):
            run(CTX.wait_for_element('#never', 300))

    def test_drag_drop_by_coordinates(self):
        run(CTX.get_state(False))
        el = CTX.last_protocol_state['actionable_elements']
        boxes = {e['attributes'].get('id'): e.get('bounds') for e in el if e.get('bounds')}
        if 'drag-src' not in boxes or 'drop' not in boxes:
            self.skipTest('the state lists no bounds for the drag source/target divs')
        s, d = boxes['drag-src'], boxes['drop']
        r = act(drag_drop={'coord_source_x': int(s['x'] + s['width'] / 2), 'coord_source_y': int(s['y'] + s['height'] / 2),
                           'coord_target_x': int(d['x'] + d['width'] / 2), 'coord_target_y': int(d['y'] + d['height'] / 2)})
        self.assertIsNone(r.error, r.error)
        self.assertTrue(r.extracted_content.startswith('🖱️ Dragged from ('), r.extracted_content)
        self.assertIn('dropped', run(CTX.get_state(False)).element_tree.clickable_elements_to_string([]))

    def test_a_dropped_connection_is_resumed_with_the_same_tab(self):
        tab = CTX.current_tab_id
        conn, reconnects = CTX.conn, CTX.conn.reconnects
        run(CTX.conn._ws.close(1011, 'simulated drop'))
        # The connection reconnects by itself (transport.py) and resumes the bridge session.
        state = run(CTX.get_state(False))
        self.assertEqual(state.url, H.url('actions.html'))
        self.assertEqual(CTX.current_tab_id, tab)
        self.assertIs(CTX.conn, conn)
        self.assertEqual(CTX.conn.reconnects, reconnects + 1)
        self.assertTrue(CTX.conn.hello_ack.get('resumed'), CTX.conn.hello_ack)

    def test_reset_context_forgets_the_cached_state(self):
        self.assertTrue(run(CTX.get_selector_map()))
        run(CTX.reset_context())
        self.assertEqual(run(CTX.get_selector_map()), {})


class Frames(unittest.TestCase):
    def test_iframe_documents_are_children_of_their_iframe_and_clickable_by_index(self):
        act(go_to_url={'url': H.url('frames.html')})
        state = run(CTX.get_state(True))
        inner = by_id(state, 'inner-btn')
        node = state.selector_map[inner]
        chain = []
        p = node.parent
        while p is not None:
            chain.append(p.tag_name)
            p = p.parent
        self.assertEqual(chain, ['body', 'html', 'iframe', 'body'])
        self.assertEqual(node.xpath, 'html/body/button')  # relative to the iframe boundary, as buildDomTree.js
        text = state.element_tree.clickable_elements_to_string(['id'])
        self.assertEqual(
            text, "Top document\n[0]<button id='top-btn'>Top button />\ninner untouched\n[1]<button id='inner-btn'>Inner button />"
        )
        r = act(click_element_by_index={'index': inner})
        self.assertEqual(r.extracted_content, f'🖱️  Clicked button with index {inner}: Inner button')
        self.assertIn('inner clicked', run(CTX.get_state(False)).element_tree.clickable_elements_to_string([]))
        self.assertIn(H.url('frame_inner.html'), [f.url for f in run(CTX.get_current_page()).frames])


class TabLimit(unittest.TestCase):
    def test_a_released_tab_is_reported_in_browser_errors(self):
        limited = ExtensionBrowser(ExtensionBrowserConfig(bridge_url=H.agent_url, agent_secret=H.agent_secret, max_tabs=1))
        ctx = run(limited.new_context(BrowserContextConfig(include_screenshot=False)))
        opened = []
        try:
            for _ in range(3):
                run(ctx.create_new_tab(H.url('other.html')))
                opened.append(ctx.current_tab_id)
                if ctx.shared.notices:
                    break
            state = run(ctx.get_state(True))
            self.assertEqual(len(state.browser_errors), 1, state.browser_errors)
            self.assertTrue(state.browser_errors[0].startswith('Tab limit (1) reached. Released tab: '), state.browser_errors)
            self.assertEqual(run(ctx.get_state(True)).browser_errors, [])  # reported once
        finally:
            for tab in opened:
                try:
                    run(CTX.conn.call('close_tab', {'tab_id': tab}))  # released tabs belong to no one now
                    run(ctx.conn.call('close_tab', {'tab_id': tab}))
                except Exception:
                    pass
            run(ctx.close())
            run(limited.close())


class SearchGoogle(unittest.TestCase):
    def test_search_google_goes_to_the_0_1_48_url(self):
        url = 'https://www.google.com/search?q=staplers&udm=14'
        try:
            r = act(search_google={'query': 'staplers'})
        except RuntimeError as e:  # machines without internet (CI): the navigation error names the URL
            self.assertTrue(str(e).startswith('Error executing action search_google: navigate failed: '), str(e))
            self.assertIn(url, str(e))
            return
        self.assertEqual(r.extracted_content, '🔍  Searched for "staplers" in Google')
        self.assertTrue(run(CTX.get_current_page()).url.startswith('https://www.google.com/'))


class SheetsKeyboard(unittest.TestCase):
    def test_cell_text_and_clear_use_the_focused_element(self):
        act(go_to_url={'url': H.url('actions.html')})
        run(CTX.get_state(True))
        field = run(CTX.get_locate_element_by_css_selector('#fullname'))
        run(field.focus())
        r = run(CONTROLLER.registry.execute_action('input_selected_cell_text', {'text': 'cell'}, browser=CTX))
        self.assertEqual(r.extracted_content, 'Inputted text cell')
        run(field.focus())
        run(run(CTX.get_current_page()).keyboard.press('End'))  # the action's ArrowUp put the caret at the start
        self.assertEqual(
            run(CONTROLLER.registry.execute_action('clear_selected_range', {}, browser=CTX)).extracted_content, 'Cleared selected range'
        )
        self.assertEqual(run(field._do('get', {'what': 'value'}))['outcome_details']['result']['value'], 'cel')


class PromptGaps(unittest.TestCase):
    def test_label_wrappers_and_onclick_images_are_indexed_as_in_0_1_48(self):
        act(go_to_url={'url': H.url('prompt_gaps.html')})
        state = run(CTX.get_state(True))
        text = state.element_tree.clickable_elements_to_string(
            ['title', 'type', 'name', 'role', 'aria-label', 'placeholder', 'value', 'alt', 'aria-expanded', 'data-date-format'])
        self.assertEqual(text, "[0]<label >Remember me />\n\t[1]<input type='checkbox' name='remember' />\n[2]<img alt='logo' />")
        self.assertEqual([state.selector_map[i].tag_name for i in (0, 1, 2)], ['label', 'input', 'img'])
        # The snapshot itself still lists only the checkbox and the image (a label is listed only when
        # it operates a hidden control, else it is noise); the label is the shim's own index.
        self.assertEqual([e['tag'] for e in CTX.last_protocol_state['actionable_elements']], ['input', 'img'])

    def test_clicking_the_label_index_clicks_the_label(self):
        act(go_to_url={'url': H.url('prompt_gaps.html')})
        run(CTX.get_state(True))
        r = act(click_element_by_index={'index': 0})
        self.assertIsNone(r.error)
        self.assertEqual(r.extracted_content, '🖱️  Clicked button with index 0: Remember me')
        run(CTX.get_state(False))
        box = [e for e in CTX.last_protocol_state['actionable_elements'] if e['tag'] == 'input'][0]
        self.assertIs(box['states']['checked'], True)


class PageFacade(unittest.TestCase):
    def setUp(self):
        act(go_to_url={'url': H.url('actions.html')})
        self.page = run(CTX.get_current_page())

    def test_url_title_content_and_keyboard(self):
        self.assertEqual(self.page.url, H.url('actions.html'))
        self.assertEqual(run(self.page.title()), 'Actions fixture')
        self.assertIn('<h1>Actions</h1>', run(self.page.content()))
        run(self.page.keyboard.press('Escape'))
        self.assertIn('key Escape', run(CTX.get_state(False)).element_tree.clickable_elements_to_string([]))
        self.assertEqual(self.page.frames[0].url, H.url('actions.html'))

    def test_mouse_drag_screenshot_and_close(self):
        run(CTX.get_state(False))
        boxes = {e['attributes'].get('id'): e['bounds'] for e in CTX.last_protocol_state['actionable_elements'] if e.get('bounds')}
        s, d = boxes['drag-src'], boxes['drop']
        run(self.page.mouse.move(s['x'] + s['width'] / 2, s['y'] + s['height'] / 2))
        run(self.page.mouse.down())
        run(self.page.mouse.move(d['x'] + d['width'] / 2, d['y'] + d['height'] / 2, steps=5))
        run(self.page.mouse.up())
        self.assertIn('dropped', run(CTX.get_state(False)).element_tree.clickable_elements_to_string([]))
        with tempfile.TemporaryDirectory() as tmp:
            png = run(self.page.screenshot(path=os.path.join(tmp, 'shot.png')))
            self.assertEqual(png[:4], b'\x89PNG')
            self.assertEqual(Path(tmp, 'shot.png').read_bytes(), png)
        run(CTX.create_new_tab(H.url('other.html')))
        extra = run(CTX.get_current_page())
        run(extra.close())
        self.assertTrue(extra.is_closed())
        self.assertNotIn(extra.tab_id, [p.tab_id for p in run(CTX.get_session()).context.pages])
        run(CTX.switch_to_tab(0))

    def test_evaluate_needs_the_person_to_enable_it(self):
        with self.assertRaises(NotPermittedError) as cm:
            run(self.page.evaluate('1 + 1'))
        self.assertIn('Options', str(cm.exception))

    def test_evaluate_runs_once_the_person_enabled_it(self):
        set_extension_settings(H, {'allow_evaluate': True})
        try:
            self.assertEqual(run(self.page.evaluate('1 + 1')), 2)
            self.assertEqual(run(self.page.evaluate('(x) => x.a * 2', {'a': 21})), 42)
            self.assertEqual(run(CTX.execute_javascript('document.title')), 'Actions fixture')
        finally:
            set_extension_settings(H, {'allow_evaluate': False})
        with self.assertRaises(NotPermittedError):
            run(self.page.evaluate('1 + 1'))

    def test_playwright_only_features_name_the_alternative(self):
        with self.assertRaises(FeatureNotAvailable) as cm:
            _ = self.page.pdf
        self.assertIn('extract_content', str(cm.exception))
        self.assertFalse(hasattr(self.page, 'route'))


if __name__ == '__main__':
    unittest.main()
