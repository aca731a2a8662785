"""Side by side with the real browser_use on Playwright (the model must get the same prompt): for each
fixture page of tests/fixtures/compat/, the real browser_use of this venv, on its own Playwright Browser launched on
/usr/bin/chromium (tests/compat_real.py), and the shim (browser_use_ext through the real bridge,
extension and Chromium of the harness) must print the same
``state.element_tree.clickable_elements_to_string(include_attributes=<the real Agent's list>)``:
same elements, order, 0-based indexes, lines. Where the extension deliberately shows more than
Playwright's page.evaluate can reach, ALLOWED names the difference (MIGRATION.md lists it): those
lines are dropped from the shim's output and the indexes of both sides renumbered, and everything
else must still be identical. A scripted task (controller actions by index) must reach the same
result on both.

Runs in a venv with the real browser_use (0.1.48 or 0.1.40) and the shim installed (or importable
from python-shim-spec); needs dist/ built. `python -m tests.test_compat_prompt --report FILE`
writes the side-by-side report (npm run compat)."""
from __future__ import annotations

import asyncio
import difflib
import os
import re
import sys
import unittest
from typing import Any, Callable, Optional

os.environ.setdefault('ANONYMIZED_TELEMETRY', 'false')

from tests.harness import FIXTURES_DIR, Harness  # noqa: E402

try:
    from tests import compat_real  # noqa: E402
    HAVE_REAL = True
except Exception as e:  # no browser_use / playwright in this venv
    HAVE_REAL = False
    WHY_NO_REAL = f'{type(e).__name__}: {e}'

PAGES = ['overlays.html', 'forms.html', 'frames.html', 'lowframe.html', 'shadow.html', 'long.html', 'lazy.html']

# page -> [(reason, predicate over an output line: True = a line only one side prints, side)]
# side 'shim': lines the extension adds; 'real': lines only browser_use on Playwright prints.
ALLOWED: dict[str, list[tuple[str, Callable[[str], bool], str]]] = {
    'frames.html': [(
        'cross-origin iframe contents: the extension walks every frame with its own content script; '
        "browser_use's buildDomTree.js runs in the top document and cannot read a cross-origin contentDocument",
        lambda line: 'Cross' in line or 'cross_input' in line,
        'shim',
    )],
    'lowframe.html': [(
        'a same-origin iframe outside the viewport: buildDomTree.js walks it and measures its elements against the '
        "top viewport in the iframe's own coordinates, so it indexes elements nobody can see; the extension snapshots only frames in scope",
        lambda line: 'Low frame' in line,
        'real',
    )],
    'shadow.html': [(
        'closed shadow roots: the extension opens them (chrome.dom.openOrClosedShadowRoot); page JS sees element.shadowRoot === null',
        lambda line: 'Closed shadow' in line,
        'shim',
    )],
}

INDEX = re.compile(r'^(\t*)(\*?)\[(\d+)\](\*?)<')


def renumber(lines: list[str]) -> list[str]:
    """Indexes renumbered 0.. in order (only used after an allowed difference dropped lines)."""
    out, n = [], 0
    for line in lines:
        m = INDEX.match(line)
        if m:
            line = f'{m.group(1)}{m.group(2)}[{n}]{m.group(4)}<' + line[m.end():]
            n += 1
        out.append(line)
    return out


def compare(page: str, real: str, shim: str) -> tuple[bool, list[str], list[str], list[str]]:
    """(identical after allowed differences, real lines, shim lines normalised, reasons applied)."""
    real_lines, shim_lines = real.split('\n'), shim.split('\n')
    reasons = []
    for reason, extra, side in ALLOWED.get(page, []):
        mine, other = (shim_lines, real_lines) if side == 'shim' else (real_lines, shim_lines)
        if any(extra(line) for line in other):
            continue  # both print them (0.1.40 launches Chromium with web security off: it reads cross-origin frames)
        kept = [line for line in mine if not extra(line)]
        if len(kept) != len(mine):
            reasons.append(reason)
            if side == 'shim':
                shim_lines = kept
            else:
                real_lines = kept
    if reasons:
        real_lines, shim_lines = renumber(real_lines), renumber(shim_lines)
    return real_lines == shim_lines, real_lines, shim_lines, reasons


H: Optional[Harness] = None
LOOP: Optional[asyncio.AbstractEventLoop] = None
SHIM: Any = None
SHIM_CTX: Any = None
REAL: Any = None
REAL_CTX: Any = None
VIEWPORT = (0, 0)


def run(coro: Any, timeout: float = 90) -> Any:
    assert LOOP is not None
    return LOOP.run_until_complete(asyncio.wait_for(coro, timeout))


async def _settle(ctx: Any) -> None:
    await asyncio.sleep(0.6)  # lazy lists, iframes and the page's own scroll-on-load


async def shim_goto(url: str) -> Any:
    await SHIM_CTX.navigate_to(url)
    await _settle(SHIM_CTX)
    return await SHIM_CTX.get_state(True)


async def real_goto(url: str) -> Any:
    page = await REAL_CTX.get_current_page()
    await page.goto(url)
    await page.wait_for_load_state()
    await _settle(REAL_CTX)
    return await compat_real.real_state(REAL_CTX)


def setUpModule() -> None:
    global H, LOOP, SHIM, SHIM_CTX, REAL, REAL_CTX, VIEWPORT
    if not HAVE_REAL:
        raise unittest.SkipTest(f'the real browser_use is not importable in this venv ({WHY_NO_REAL})')
    from browser_use_ext import BrowserContextConfig, ExtensionBrowser

    H = Harness(FIXTURES_DIR)
    LOOP = asyncio.new_event_loop()
    try:
        SHIM = ExtensionBrowser(bridge_url=H.agent_url, agent_secret=H.agent_secret)
        SHIM_CTX = run(SHIM.new_context(BrowserContextConfig()))
        run(SHIM_CTX.navigate_to(H.url('compat/frame_child.html')))
        vp = run(SHIM_CTX._fresh_protocol_state()).get('viewport_dimensions') or {}
        VIEWPORT = (int(vp['width']), int(vp['height']))
        REAL = compat_real.real_browser()
        REAL_CTX = run(REAL.new_context(compat_real.context_config(*VIEWPORT)))
    except BaseException:
        tearDownModule()
        raise


def tearDownModule() -> None:
    for closer in (lambda: REAL_CTX and run(REAL_CTX.close()), lambda: REAL and run(REAL.close()),
                   lambda: SHIM_CTX and run(SHIM_CTX.close()), lambda: SHIM and run(SHIM.close())):
        try:
            closer()
        except Exception:
            pass
    if LOOP is not None:
        LOOP.close()
    if H is not None:
        H.close()


def prompts(page: str) -> tuple[str, str, Any, Any]:
    attrs = compat_real.include_attributes()
    real_state = run(real_goto(H.url(f'compat/{page}')))
    shim_state = run(shim_goto(H.url(f'compat/{page}')))
    return (real_state.element_tree.clickable_elements_to_string(include_attributes=attrs),
            shim_state.element_tree.clickable_elements_to_string(include_attributes=attrs), real_state, shim_state)


def diff_text(page: str, real: list[str], shim: list[str]) -> str:
    real_name = f'real browser_use {compat_real.BU_VERSION} on Playwright: {page}'
    return '\n'.join(difflib.unified_diff(real, shim, real_name, f'shim: {page}', lineterm=''))


class PromptParity(unittest.TestCase):
    def check(self, page: str) -> None:
        real, shim, real_state, shim_state = prompts(page)
        same, r, s, _ = compare(page, real, shim)
        self.assertTrue(same, '\n' + diff_text(page, r, s))
        self.assertTrue(real.strip(), 'the real side printed nothing: the page did not load')
        self.assertEqual((shim_state.pixels_above, shim_state.pixels_below), (real_state.pixels_above, real_state.pixels_below))
        # Every index the prompt shows is in the selector map, keyed as real (0-based).
        if page not in ALLOWED:
            self.assertEqual(sorted(shim_state.selector_map), sorted(real_state.selector_map))
        printed = [int(m.group(3)) for m in map(INDEX.match, shim.split('\n')) if m]
        self.assertEqual(sorted(shim_state.selector_map), sorted(printed), 'every printed index, and only those, is in the selector map')
        if shim_state.selector_map:
            self.assertEqual(min(shim_state.selector_map), 0)

    def test_overlays_modal_cookie_banner_sticky_header(self):
        self.check('overlays.html')

    def test_forms_selects_details_contenteditable_pointer_divs(self):
        self.check('forms.html')

    def test_same_and_cross_origin_iframes(self):
        self.check('frames.html')

    def test_iframe_below_the_fold(self):
        self.check('lowframe.html')

    def test_open_and_closed_shadow_dom(self):
        self.check('shadow.html')

    def test_long_page_partly_scrolled_under_a_sticky_header(self):
        self.check('long.html')

    def test_lazy_list_loaded_on_scroll(self):
        self.check('lazy.html')


class ScriptedTask(unittest.TestCase):
    """The same controller actions by index reach the same result on both."""

    def _controllers(self) -> tuple[Any, Any]:
        from browser_use import Controller

        from browser_use_ext import ExtensionController

        return Controller(), ExtensionController()

    def _act(self, controller: Any, ctx: Any, **action: Any) -> Any:
        # 0.1.48 names it click_element_by_index, 0.1.40 click_element; an unknown name would be a silent no-op.
        names = set(controller.registry.registry.actions)
        if 'click_element' in action and 'click_element' not in names:
            action['click_element_by_index'] = action.pop('click_element')
        self.assertTrue(set(action) <= names, f'{set(action) - names} not registered')
        model = controller.registry.create_action_model()
        return run(controller.act(model(**action), ctx))

    def _index(self, state: Any, pred: Callable[[Any], bool]) -> int:
        for i, node in state.selector_map.items():
            if pred(node):
                return i
        raise AssertionError('no such element')

    def test_dismiss_modal_then_click_what_was_under_it(self):
        real_c, shim_c = self._controllers()
        results = []
        for controller, ctx, goto in ((real_c, REAL_CTX, real_goto), (shim_c, SHIM_CTX, shim_goto)):
            state = run(goto(H.url('compat/overlays.html')))
            close = self._index(
                state, lambda n: n.attributes.get('id') == 'close' or n.get_all_text_till_next_clickable_element() == 'No thanks'
            )
            r1 = self._act(controller, ctx, click_element={'index': close})
            state = run(compat_real.real_state(ctx)) if ctx is REAL_CTX else run(ctx.get_state(True))
            text = state.element_tree.clickable_elements_to_string(include_attributes=compat_real.include_attributes())
            buy = self._index(state, lambda n: n.get_all_text_till_next_clickable_element() == 'Buy the blue one')
            r2 = self._act(controller, ctx, click_element={'index': buy})
            results.append((close, r1.extracted_content, text, buy, r2.extracted_content))
        self.assertEqual(results[1], results[0])

    def test_select_option_and_submit_form(self):
        real_c, shim_c = self._controllers()
        results = []
        for controller, ctx, goto in ((real_c, REAL_CTX, real_goto), (shim_c, SHIM_CTX, shim_goto)):
            state = run(goto(H.url('compat/forms.html')))
            sel = self._index(state, lambda n: n.tag_name == 'select')
            r1 = self._act(controller, ctx, select_dropdown_option={'index': sel, 'text': 'United States'})
            send = self._index(state, lambda n: n.get_all_text_till_next_clickable_element() == 'Send order')
            r2 = self._act(controller, ctx, click_element={'index': send})
            r3 = self._act(
                controller,
                ctx,
                input_text={'index': self._index(state, lambda n: n.attributes.get('name') == 'note'), 'text': 'ring twice'},
            )
            run(asyncio.sleep(0.3))
            state = run(compat_real.real_state(ctx)) if ctx is REAL_CTX else run(ctx.get_state(True))
            text = state.element_tree.clickable_elements_to_string(include_attributes=compat_real.include_attributes())
            results.append((sel, r1.extracted_content, send, r2.extracted_content, r3.extracted_content, text))
        self.assertEqual(results[1], results[0])
        self.assertIn('Sent us', results[0][5])


def report(path: str) -> int:
    """Writes the side-by-side report (a diff per page); returns the number of pages that differ."""
    setUpModule()
    failures = 0
    out = [f'# Prompt parity: browser_use {compat_real.BU_VERSION} on Playwright vs the shim', '',
           f'Viewport {VIEWPORT[0]}x{VIEWPORT[1]}; include_attributes {compat_real.include_attributes()}.', '']
    try:
        for page in PAGES:
            real, shim, _, _ = prompts(page)
            same, r, s, reasons = compare(page, real, shim)
            failures += 0 if same else 1
            out.append(f'## {page}: {"identical" if same else "DIFFERENT"}' + (' (after the named differences)' if reasons else ''))
            for reason in reasons:
                out.append(f'- allowed difference: {reason}')
            out.append('')
            out.append('```diff' if not same else '```')
            out.append(diff_text(page, r, s) if not same else '\n'.join(r))
            out.append('```')
            out.append('')
            if reasons:
                out.append('Before dropping the named lines, real browser_use printed:')
                out.append('')
                out.append('```')
                out.append(real)
                out.append('```')
                out.append('')
                out.append('and the shim printed:')
                out.append('')
                out.append('```')
                out.append(shim)
                out.append('```')
                out.append('')
    finally:
        tearDownModule()
    text = '\n'.join(out) + '\n'
    with open(path, 'a' if os.path.exists(path) and os.environ.get('BUX_COMPAT_APPEND') else 'w', encoding='utf-8') as f:
        f.write(text)
    sys.stdout.write(text)
    return failures


if __name__ == '__main__':
    if len(sys.argv) >= 3 and sys.argv[1] == '--report':
        sys.exit(1 if report(sys.argv[2]) else 0)
    unittest.main()
