"""The Playwright calls custom actions make on get_current_page() (hover, keyboard, mouse, locator,
wait_for_selector, wait_for_load_state) through the real bridge, extension and Chromium, each checked
by what it did to the page; and every other Playwright call raising the one UnsupportedPlaywrightCall
that names the method and the closest supported way. Needs no browser_use (runs in nobu too)."""
import time
import unittest

from browser_use_ext import BrowserContextConfig, BrowserError, FeatureNotAvailable
from browser_use_ext.playwright_unsupported import ALTERNATIVES, GENERIC_HINT, UnsupportedPlaywrightCall
from tests.harness import ShimModule

S = ShimModule()
H = None
CTX = None


def run(coro, timeout=60):
    return S.run(coro, timeout)


def setUpModule():
    global H, CTX
    H = S.start()
    _, CTX = S.open_context(BrowserContextConfig(include_screenshot=False, allowed_domains=['127.0.0.1']))


tearDownModule = S.close


def text_of(page, css):
    return run(page.locator(css).inner_text())


def centre_of(ident):
    """Viewport-relative centre of the element with that id, from a fresh state's bounds."""
    run(CTX.get_state(False))
    for e in CTX.last_protocol_state['actionable_elements']:
        if e.get('attributes', {}).get('id') == ident and e.get('bounds'):
            b = e['bounds']
            return b['x'] + b['width'] / 2, b['y'] + b['height'] / 2
    raise AssertionError(f'#{ident} is not in the state')


class PlaywrightCalls(unittest.TestCase):
    def setUp(self):
        run(CTX.navigate_to(H.url('playwright_calls.html')))
        self.page = run(CTX.get_current_page())

    def test_hover_on_page_and_element_handle_fire_mouseover(self):
        run(self.page.hover('#hover-me'))
        self.assertEqual(text_of(self.page, '#hover-out'), 'hovered hover-me')
        handle = run(CTX.get_locate_element_by_css_selector('#hover-too'))
        run(handle.hover())
        self.assertEqual(text_of(self.page, '#hover-out'), 'hovered hover-too')

    def test_a_hover_the_pages_hover_rules_style_is_a_real_one_and_shows_the_menu(self):
        from browser_use_ext import hover_note

        hover_note._said = False
        # As Playwright's hover: a real pointer move where the page has :hover rules for the element,
        # so the menu they show is shown, and there is nothing to warn about.
        with self.assertNoLogs('browser_use_ext.hover', 'WARNING'):
            run(self.page.hover('#hover-menu'))
            run(self.page.locator('#hover-menu').hover())
        self.assertTrue(run(self.page.locator('#hover-menu .items').is_visible()))

    def test_keyboard_type_press_and_insert_text_reach_the_focused_field(self):
        run(self.page.locator('#name').click())
        run(self.page.keyboard.type('Ada'))
        run(self.page.keyboard.insert_text(' L.'))
        self.assertEqual(run(self.page.locator('#name').input_value()), 'Ada L.')
        run(self.page.keyboard.press('Shift+A'))
        self.assertEqual(text_of(self.page, '#keys'), 'key A')
        self.assertEqual(run(self.page.locator('#name').input_value()), 'Ada L.A')

    def test_keyboard_down_and_up_name_the_chord_instead(self):
        for name in ('down', 'up'):
            with self.assertRaises(UnsupportedPlaywrightCall) as cm:
                run(getattr(self.page.keyboard, name)('Shift'))
            self.assertIn(f'Keyboard.{name}', str(cm.exception))
            self.assertIn('press("Shift+A")', str(cm.exception))
        self.assertEqual(text_of(self.page, '#keys'), 'no keys')

    def test_mouse_click_move_and_wheel_at_points(self):
        x, y = centre_of('point')
        run(self.page.mouse.click(x, y))
        self.assertEqual(text_of(self.page, '#point-out'), 'clicked at point')
        x, y = centre_of('hover-too')
        run(self.page.mouse.move(x, y))
        self.assertEqual(text_of(self.page, '#hover-out'), 'hovered hover-too')
        with self.assertRaises(BrowserError) as cm:  # the empty page corner: nothing to click there
            run(self.page.mouse.click(790, 590))
        self.assertIn('no interactive element at (790, 590)', str(cm.exception))
        self.assertEqual(cm.exception.error_code, 'TARGET_ELEMENT_NOT_FOUND')
        run(self.page.mouse.wheel(0, 400))
        self.assertGreaterEqual(run(CTX.get_state(False)).pixels_above, 300)

    def test_locator_count_text_attribute_first_nth_and_fill(self):
        items = self.page.locator('.item')
        self.assertEqual(run(items.count()), 3)
        self.assertEqual(run(self.page.locator('#nothing-here').count()), 0)
        self.assertEqual(run(items.first.inner_text()), 'Alpha')
        self.assertEqual(run(items.nth(1).inner_text()), 'Beta')
        self.assertEqual(run(items.last.inner_text()), 'Gamma')
        self.assertEqual(run(items.nth(2).count()), 1)
        run(items.nth(2).click())
        self.assertEqual(text_of(self.page, '#picked'), 'picked Gamma')
        run(self.page.locator('//ul/li[2]/button').click())  # a simple XPath, as browser_use writes them
        self.assertEqual(text_of(self.page, '#picked'), 'picked Beta')
        with self.assertRaises(BrowserError) as cm:  # strict, as Playwright: three visible buttons
            run(items.click())
        self.assertEqual(cm.exception.error_code, 'AMBIGUOUS_TARGET')
        with self.assertRaises(BrowserError) as cm:
            run(items.nth(5).inner_text())
        self.assertEqual(cm.exception.error_code, 'TARGET_ELEMENT_NOT_FOUND')
        self.assertIsNone(run(self.page.query_selector('#nothing-here')))
        self.assertEqual(run(run(self.page.query_selector('.item')).inner_text()), 'Alpha')
        name = self.page.locator('#name')
        self.assertEqual(run(name.get_attribute('data-kind')), 'person')
        self.assertIsNone(run(name.get_attribute('data-missing')))
        run(name.fill('Grace'))
        self.assertEqual(run(name.input_value()), 'Grace')
        # XPaths with attribute tests, as browser_use's examples write them (//*[@id="..."]), convert to CSS.
        run(self.page.locator('//*[@id="list"]/li[3]/button').click())
        self.assertEqual(text_of(self.page, '#picked'), 'picked Gamma')
        with self.assertRaises(UnsupportedPlaywrightCall) as cm:
            self.page.locator('//button[contains(@id, "poi")]')  # a function: no CSS says that
        self.assertIn('CSS selector', str(cm.exception))

    def test_bounding_box_is_the_box_page_mouse_uses(self):
        box = run(run(self.page.locator('#point').element_handle()).bounding_box())
        x, y = centre_of('point')
        # The state's bounds are whole pixels; the box is exact, as Playwright's.
        self.assertAlmostEqual(box['x'] + box['width'] / 2, x, delta=1)
        self.assertAlmostEqual(box['y'] + box['height'] / 2, y, delta=1)
        self.assertGreater(box['width'], 0)
        self.assertEqual(run(self.page.locator('#hover-me').bounding_box())['y'] < box['y'], True)
        # What 0.1.48's drag_drop does with it: the mouse at the box's centre clicks that element.
        run(self.page.mouse.click(box['x'] + box['width'] / 2, box['y'] + box['height'] / 2))
        self.assertEqual(text_of(self.page, '#point-out'), 'clicked at point')
        # Any element has its box, not only those the state lists: a paragraph between the two buttons.
        picked = run(self.page.locator('#picked').bounding_box())
        self.assertLess(picked['y'], box['y'])
        self.assertGreater(picked['width'], 0)
        # No layout box: None, as Playwright.
        self.assertIsNone(run(self.page.locator('#no-box').bounding_box()))

    def test_bounding_box_of_an_element_in_a_frame_is_where_it_shows_on_the_page(self):
        run(CTX.navigate_to(H.url('frames.html')))
        page = run(CTX.get_current_page())
        state = run(CTX.get_state(False))
        index = next(i for i, n in state.selector_map.items() if n.attributes.get('id') == 'inner-btn')
        box = run(run(CTX.get_element_by_index(index)).bounding_box())
        frame = run(page.locator('#inner').bounding_box())
        # Inside the iframe's own box on the page (the frame's offset added), not at the frame's 0,0.
        self.assertGreaterEqual(box['x'], frame['x'])
        self.assertGreaterEqual(box['y'], frame['y'])
        self.assertLessEqual(box['y'] + box['height'], frame['y'] + frame['height'])
        self.assertGreater(box['y'], frame['y'] + 0.5)
        # The point page.mouse would take clicks that button.
        run(page.mouse.click(box['x'] + box['width'] / 2, box['y'] + box['height'] / 2))
        self.assertIn('inner clicked', run(CTX.get_state(False)).element_tree.clickable_elements_to_string([]))

    def test_wait_for_selector_waits_for_an_element_added_later(self):
        run(self.page.locator('#later').click())
        self.assertEqual(run(self.page.locator('#late').inner_text()), 'I came late')  # auto-waits, as Playwright
        run(CTX.navigate_to(H.url('playwright_calls.html')))
        run(self.page.locator('#later').click())
        started = time.monotonic()
        handle = run(self.page.wait_for_selector('#late', timeout=5000))
        self.assertGreaterEqual(time.monotonic() - started, 0.1)  # it was not there yet when the wait began
        self.assertEqual(run(handle.inner_text()), 'I came late')
        self.assertIsNone(run(self.page.wait_for_selector('#never', state='detached', timeout=1000)))
        with self.assertRaises(BrowserError) as cm:
            run(self.page.wait_for_selector('#never', timeout=300))
        self.assertEqual(cm.exception.error_code, 'TIMEOUT')
        run(self.page.wait_for_load_state('load'))
        run(self.page.wait_for_load_state('networkidle', timeout=5000))

    def test_other_playwright_calls_raise_one_error_naming_method_and_way(self):
        handle = run(CTX.get_locate_element_by_css_selector('#name'))
        cases = [
            (self.page, 'pdf', 'Page.pdf', 'extract_content'),
            (self.page, 'route', 'Page.route', 'api_activity'),
            (self.page, 'frobnicate', 'Page.frobnicate', GENERIC_HINT),
            (self.page.keyboard, 'frobnicate', 'Keyboard.frobnicate', GENERIC_HINT),
            (self.page.mouse, 'frobnicate', 'Mouse.frobnicate', GENERIC_HINT),
            (self.page.locator('#name'), 'filter', 'Locator.filter', ALTERNATIVES['Locator']['filter']),
            (handle, 'content_frame', 'ElementHandle.content_frame', 'selector_map'),
        ]
        for obj, attr, method, way in cases:
            with self.subTest(method=method):
                with self.assertRaises(UnsupportedPlaywrightCall) as cm:
                    getattr(obj, attr)
                e = cm.exception
                self.assertIn(f'{method} is not available in your own Chrome through browser-use-ext; use ', str(e))
                self.assertIn(way, str(e))
                self.assertEqual((e.method, e.error_code), (method, 'UNSUPPORTED_ACTION'))
                self.assertIsInstance(e, BrowserError)
                self.assertIsInstance(e, FeatureNotAvailable)
                self.assertFalse(hasattr(obj, attr))


if __name__ == '__main__':
    unittest.main()
