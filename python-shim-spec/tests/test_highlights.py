"""Vision (use_vision): the state's screenshot carries browser_use's numbered boxes, drawn in the
page only for the capture (a container marked data-browser-agent-ui, removed right after), never
listed by a snapshot; highlight_elements=False gives a plain screenshot. Real bridge, extension and
Chromium; runs with or without browser_use installed."""
import base64
import unittest

from browser_use_ext import BrowserContextConfig
from tests.harness import ShimModule, set_extension_settings

S = ShimModule()
H = None
BROWSER = None


def run(coro, timeout=60):
    return S.run(coro, timeout)


def setUpModule():
    global H, BROWSER
    H = S.start()
    BROWSER = S.open_browser()
    # The test reads the page with evaluate (the person's consent setting, as the options page sets it).
    set_extension_settings(H, {'allow_evaluate': True})


tearDownModule = S.close


# The highlight container only: the "Agent is controlling this tab" overlay is agent UI too and stays.
OVERLAYS = "document.querySelectorAll('[data-browser-agent-ui=\"highlights\"]').length"


class Highlights(unittest.TestCase):
    def test_state_screenshot_has_the_boxes_and_they_are_gone_afterwards(self):
        ctx = run(BROWSER.new_context(BrowserContextConfig()))
        try:
            run(ctx.navigate_to(H.url('compat/forms.html')))
            state = run(ctx.get_state(True))
            self.assertGreater(len(state.selector_map), 10)
            boxed = base64.b64decode(state.screenshot)
            self.assertEqual(boxed[:8], b'\x89PNG\r\n\x1a\n')
            self.assertEqual(run(ctx.execute_javascript(OVERLAYS)), 0, 'the boxes outlived the capture')
            plain = base64.b64decode(run(ctx.take_screenshot()))  # the public call: no boxes, as real
            self.assertEqual(plain[:8], b'\x89PNG\r\n\x1a\n')
            self.assertNotEqual(boxed, plain, 'the state screenshot shows no boxes')
            # Same page, no boxes: two plain captures are identical, so the difference above is the boxes.
            self.assertEqual(base64.b64decode(run(ctx.take_screenshot())), plain)
            again = run(ctx.get_state(True))
            self.assertEqual(again.element_tree.clickable_elements_to_string([]), state.element_tree.clickable_elements_to_string([]))
        finally:
            run(ctx.close())

    def test_highlight_elements_false_gives_a_plain_screenshot(self):
        ctx = run(BROWSER.new_context(BrowserContextConfig(highlight_elements=False)))
        try:
            run(ctx.navigate_to(H.url('compat/forms.html')))
            state = run(ctx.get_state(True))
            plain = base64.b64decode(run(ctx.take_screenshot()))
            self.assertEqual(base64.b64decode(state.screenshot), plain)
        finally:
            run(ctx.close())

    def test_a_snapshot_never_lists_an_agent_ui_container(self):
        ctx = run(BROWSER.new_context(BrowserContextConfig()))
        try:
            run(ctx.navigate_to(H.url('compat/forms.html')))
            before = run(ctx.get_state(True)).element_tree.clickable_elements_to_string(['id'])
            # What a box container looks like while a capture runs (same marker, a clickable label).
            run(ctx.execute_javascript(
                "(() => { const d = document.createElement('div'); d.setAttribute('data-browser-agent-ui', 'highlights');"
                " d.style.cssText = 'position:fixed;inset:0;z-index:2147483640;pointer-events:none';"
                " d.innerHTML = '<button id=\"ui-box\" style=\"cursor:pointer\">7</button>'; document.body.appendChild(d); return 1; })()"))
            state = run(ctx.get_state(True))
            text = state.element_tree.clickable_elements_to_string(['id'])
            self.assertNotIn('ui-box', text)
            self.assertEqual(text, before)
            self.assertNotIn('ui-box', str(ctx.last_protocol_state))
        finally:
            run(ctx.close())


if __name__ == '__main__':
    unittest.main()
