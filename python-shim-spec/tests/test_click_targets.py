"""What an agent clicks is what happens, through browser_use 0.1.48's own controller actions on the
shim (bridge + extension in real Chromium):

- open_tab then a click at once never lands on our controlled-tab bar: a page button spans the bottom
  of the viewport with its centre where the bar's Stop button is drawn, and every one of the runs
  (trusted input on, so the click is a real one that the bar could take) reaches the button, as the
  page's own capture listener sees it; the tab is never taken back;
- input_text on a <label>'s index types into its control, as Playwright's fill retargets it
  (https://playwright.dev/docs/api/class-locator#locator-fill): browser_use lists the label with its
  text and the input without, so a model picks the label (its own examples/features/sensitive_data.py
  logs in so with secrets);
- hover as Playwright: browser_use 0.1.48's own examples/custom-functions/hover_element.py action
  (element_handle.hover() on the element its index names) on a box whose button only CSS :hover shows,
  then a click on that button, as its task asks."""

import os
import time
import unittest
from typing import Optional

from pydantic import BaseModel

from browser_use_ext import BrowserContextConfig, ExtensionController
from tests.harness import ShimModule, set_extension_settings

S = ShimModule()
H = None
CTX = None
CONTROLLER = ExtensionController()
#: open-then-click runs, ~0.8 s each on a loaded 2-core machine: 25 in CI (the unfixed bar lost 3 of 30);
#: BUX_BAR_RUNS=100 is the full proof
RUNS = int(os.environ.get('BUX_BAR_RUNS', '25'))


class HoverAction(BaseModel):
    """hover_element.py's own parameter model."""

    index: Optional[int] = None
    xpath: Optional[str] = None
    selector: Optional[str] = None


async def hover_element(params: HoverAction, browser):
    """hover_element.py's action, as the example writes it (its task names the box by CSS selector)."""
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
        raise Exception('Either index or xpath must be provided')
    if element_handle is None:
        raise Exception('Failed to locate the element')
    await element_handle.hover()
    from browser_use.agent.views import ActionResult

    msg = (
        f'🖱️ Hovered over element at index {params.index}'
        if params.index is not None
        else f'🖱️ Hovered over element with XPath {params.xpath}'
    )
    return ActionResult(extracted_content=msg, include_in_memory=True)


def with_hover_element(controller):
    """The controller with hover_element.py's action registered, as the example registers it."""
    controller.registry.action('Hover over an element', param_model=HoverAction)(hover_element)
    return controller


with_hover_element(CONTROLLER)
AM = CONTROLLER.registry.create_action_model()
#: The same steps on browser_use's own Playwright (set up in setUpModule): name -> (controller, action model, context).
SIDES = {}
SECRETS = {'x_name': 'my_x_name', 'x_password': 'my_x_password'}


def setUpModule():
    global H, CTX
    import importlib.metadata

    try:
        installed = importlib.metadata.version('browser-use')
    except Exception:
        installed = ''
    if not installed.startswith('0.1.48'):
        raise unittest.SkipTest(f'browser_use 0.1.48 is not installed ({installed or "none"}): these use its action names')
    H = S.start()
    # The tests read what the page saw with page.evaluate, which the person allows in Settings.
    set_extension_settings(H, {'allow_evaluate': True})
    _, CTX = S.open_context(BrowserContextConfig(include_screenshot=False, allowed_domains=['127.0.0.1']))
    SIDES['ours'] = (CONTROLLER, AM, CTX)
    # browser_use's own side: its real Controller on its own Playwright browser (system Chromium).
    from browser_use import Controller

    from tests.compat_real import context_config, real_browser

    real = with_hover_element(Controller())
    browser = real_browser()
    S.on_close(browser.close)
    ctx = S.run(browser.new_context(context_config(1280, 800)))
    S.on_close(ctx.close)
    SIDES['playwright'] = (real, real.registry.create_action_model(), ctx)


tearDownModule = S.close


def act(sensitive_data=None, side='ours', **action):
    controller, model, ctx = SIDES[side]
    return S.run(controller.act(model(**action), ctx, sensitive_data=sensitive_data))


def index_of(state, pred) -> int:
    for i, node in state.selector_map.items():
        if pred(node):
            return i
    raise AssertionError('no such element in ' + state.element_tree.clickable_elements_to_string(['id', 'for', 'type']))


class BarNeverTakesTheClick(unittest.TestCase):
    def setUp(self):
        set_extension_settings(H, {'trusted_input': True})
        self.addCleanup(set_extension_settings, H, {'trusted_input': False})

    def test_open_tab_then_click_at_the_bar_spot_reaches_the_page(self):
        url = H.url('bar_wide.html')
        # Where Stop is drawn, learnt once on a tab the agent holds (the page keeps it for later loads).
        act(go_to_url={'url': url})
        page = S.run(CTX.get_current_page())
        deadline = time.monotonic() + 10
        while not S.run(page.evaluate('learnStop()')):
            self.assertLess(time.monotonic(), deadline, 'the bar was never shown')
            time.sleep(0.05)
        misses = []
        started = time.monotonic()
        for run in range(1, RUNS + 1):
            opened = act(open_tab={'url': url})
            self.assertEqual(opened.extracted_content, f'🔗  Opened new tab with {url}')
            state = S.run(CTX.get_state(True))
            clicked = act(click_element_by_index={'index': index_of(state, lambda n: n.attributes.get('id') == 'wide')})
            tab = S.run(CTX.get_current_page())
            seen = S.run(tab.evaluate('seen.join(", ")'))
            if clicked.error or seen != 'pointerdown wide, click wide':
                misses.append(f'run {run}: {seen!r} {clicked.error or clicked.extracted_content}')
            S.run(tab.close())
        took = time.monotonic() - started
        print(f'\n      {RUNS} runs in {took:.1f} s ({took / RUNS * 1000:.0f} ms each), {len(misses)} misses')
        self.assertEqual(misses, [])


class LabelTakesTheText(unittest.TestCase):
    def test_input_text_on_the_labels_index_fills_its_control_and_logs_in(self):
        for side in SIDES:
            with self.subTest(side=side):
                ctx = SIDES[side][2]
                act(side=side, go_to_url={'url': H.url('label_login.html')})
                state = S.run(ctx.get_state(True))

                user, password = (
                    index_of(state, lambda n, t=t: n.tag_name == 'label' and n.get_all_text_till_next_clickable_element() == t)
                    for t in ('Phone, email or username', 'Password')
                )
                r = act(side=side, sensitive_data=SECRETS, input_text={'index': user, 'text': '<secret>x_name</secret>'})
                self.assertIsNone(r.error)
                self.assertEqual(r.extracted_content, f'⌨️  Input sensitive data into index {user}')
                r = act(side=side, sensitive_data=SECRETS, input_text={'index': password, 'text': '<secret>x_password</secret>'})
                self.assertIsNone(r.error)
                state = S.run(ctx.get_state(True))
                r = act(side=side, click_element_by_index={'index': index_of(state, lambda n: n.tag_name == 'button')})
                self.assertIsNone(r.error)
                page = S.run(ctx.get_current_page())
                out = S.run(page.evaluate('document.getElementById("out").textContent'))
                self.assertEqual(out, 'Logged in as my_x_name with the right password')


class HoverAsPlaywright(unittest.TestCase):
    def test_hover_element_example_reveals_the_css_hover_button_and_it_is_clicked(self):
        for side in SIDES:
            with self.subTest(side=side):
                ctx = SIDES[side][2]
                act(side=side, go_to_url={'url': H.url('css_hover.html')})
                S.run(ctx.get_state(True))
                r = act(side=side, hover_element={'selector': '#hoverdivpara'})
                self.assertIsNone(r.error)
                # The button is shown by CSS :hover only: listed now because the hover was a real one.
                state = S.run(ctx.get_state(True))
                r = act(side=side, click_element_by_index={'index': index_of(state, lambda n: n.attributes.get('id') == 'clickme')})
                self.assertIsNone(r.error)
                page = S.run(ctx.get_current_page())
                self.assertEqual(S.run(page.evaluate('document.getElementById("out").textContent')), 'You clicked me')


if __name__ == '__main__':
    unittest.main()
