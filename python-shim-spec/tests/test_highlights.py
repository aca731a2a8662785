"""Vision (use_vision): the state's screenshot carries browser_use's numbered boxes, drawn in the
page only for the capture (a container the extension creates and claims as its own UI, removed
right after); neither the boxes nor the "Agent is controlling this tab" bar is ever listed by a
snapshot; highlight_elements=False gives a plain screenshot. Real bridge, extension and Chromium;
runs with or without browser_use installed."""
import base64
import json
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


def body_xpaths(protocol_state):
    """The xpaths of the elements a snapshot lists right under <body>, in page order."""
    return [c['xpath'] for c in protocol_state['dom_tree']['children'] if c.get('kind') == 'element']


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
        # Our UI is what the extension itself created (the bar here; the boxes exist only during the
        # capture), never whatever carries data-browser-agent-ui: the page shares the DOM and could
        # otherwise hide its own content from the agent by adding the attribute.
        ctx = run(BROWSER.new_context(BrowserContextConfig()))
        try:
            run(ctx.navigate_to(H.url('compat/forms.html')))
            state = run(ctx.get_state(True))  # highlights on: the real boxes were drawn for this capture
            text = state.element_tree.clickable_elements_to_string(['id'])
            proto = ctx.last_protocol_state  # before evaluate: its answer replaces last_protocol_state
            listed = body_xpaths(proto)
            # The real bar is in the page while the snapshot is taken: one host in <body>, shown.
            bar = json.loads(run(ctx.execute_javascript(
                "(() => { const bars = [...document.querySelectorAll('[data-browser-agent-ui=\"overlay\"]')];"
                " const divs = [...document.body.children].filter((e) => e.tagName === 'DIV');"
                " return JSON.stringify({ count: bars.length, parent: bars[0] && bars[0].parentElement.tagName,"
                " shown: !!bars[0] && bars[0].matches(':popover-open'), pageDivs: divs.length - bars.length }); })()")))
            self.assertEqual((bar['count'], bar['parent'], bar['shown']), (1, 'BODY', True), bar)
            # Neither the bar (nor its Stop button) nor the boxes are listed, and the bar is not
            # counted as a sibling: the page's divs are div[1]..div[n], nothing after them.
            self.assertNotIn('Stop', text)
            self.assertNotIn('Agent is controlling', str(proto))
            page_divs = [f'html/body/div[{i}]' for i in range(1, bar['pageDivs'] + 1)]
            self.assertEqual([x for x in listed if x.startswith('html/body/div')], page_divs)
            self.assertEqual(run(ctx.execute_javascript(OVERLAYS)), 0, 'the boxes outlived the capture')

            # Page content carrying our attribute is ordinary page content: listed, clickable, and it
            # takes the next div position (the bar before it in <body> is not a sibling).
            run(ctx.execute_javascript(
                "(() => { const d = document.createElement('div'); d.setAttribute('data-browser-agent-ui', 'highlights');"
                " d.innerHTML = '<button id=\"ui-box\">7</button>'; document.body.appendChild(d); return 1; })()"))
            state = run(ctx.get_state(True))
            after = state.element_tree.clickable_elements_to_string(['id'])
            self.assertIn('ui-box', after)
            self.assertNotIn('Stop', after)
            self.assertEqual(body_xpaths(ctx.last_protocol_state), listed + [f'html/body/div[{bar["pageDivs"] + 1}]'])
        finally:
            run(ctx.close())


if __name__ == '__main__':
    unittest.main()
