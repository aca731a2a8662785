"""The package's own browser_use classes (used when browser_use is not installed) against the 0.1.48
algorithms: the prompt text, hashes, is_new marking, the tree rebuilt from the snapshot's dom_tree (schemas/v1),
CSS selectors, and the Registry's execution rules."""
import asyncio
import unittest

from browser_use_ext import ExtensionBrowserContext, ExtensionController
from browser_use_ext.dom_tree import build_tree, element_id_of
from browser_use_ext.fallback.views import ActionResult, ClickableElementProcessor, DOMElementNode, DOMTextNode, HistoryTreeProcessor
from tests import harness  # noqa: F401

INCLUDE = ['title', 'type', 'name', 'role', 'aria-label', 'placeholder', 'value', 'alt', 'aria-expanded', 'data-date-format']


def el(tag, attrs=None, children=(), index=None, xpath=None, parent=None, visible=True, top=True):
    node = DOMElementNode(
        tag_name=tag,
        xpath=xpath or tag,
        attributes=dict(attrs or {}),
        children=[],
        is_visible=visible,
        is_top_element=top,
        highlight_index=index,
        parent=parent,
    )
    for c in children:
        c.parent = node
        node.children.append(c)
    return node


def text(t):
    return DOMTextNode(text=t, is_visible=True, parent=None)


class WithoutBrowserUse(unittest.TestCase):
    """This module runs in the venv without browser_use (scripts/python-envs.mjs, "nobu")."""

    def test_the_shim_hands_out_its_own_classes_and_registry(self):
        import importlib.util
        if importlib.util.find_spec('browser_use') is not None:
            self.skipTest('browser_use is installed in this venv: the fallback is not in use')
        import browser_use_ext
        from browser_use_ext import compat
        from browser_use_ext.fallback import views
        from browser_use_ext.fallback.registry import Registry
        self.assertEqual({k for k, v in compat.USING_BROWSER_USE.items() if v}, set())
        self.assertIs(browser_use_ext.ActionResult, views.ActionResult)
        self.assertIs(browser_use_ext.DOMElementNode, views.DOMElementNode)
        self.assertFalse(compat.browser_use_available())
        self.assertFalse(browser_use_ext.PATCHED_BROWSER_USE_AGENT)
        self.assertIsInstance(ExtensionController().registry, Registry)


class PromptFormat(unittest.TestCase):
    def test_the_hand_built_tree_of_section_1_8_prints_exactly_as_0_1_48(self):
        menu = el('div', {'role': 'menu'}, [text('loose text'), el('span', {}, [text('Item A')], index=4)], index=3)
        submit = el('button', {'role': 'button', 'aria-label': 'Submit'}, [text('Submit')], index=1)
        submit.is_new = True
        root = el('body', {}, [
            el('p', {}, [text('Welcome to the site')]),
            el('a', {'title': 'Home'}, [text('Home')], index=0),
            submit,
            el('input', {'type': 'text', 'name': 'q', 'placeholder': 'Search'}, [], index=2),
            menu,
            el('img', {'alt': 'logo'}, [], index=5),
            el('div', {}, [], index=6),
        ], xpath='/body')
        self.assertEqual(root.clickable_elements_to_string(INCLUDE), '\n'.join([
            'Welcome to the site',
            "[0]<a title='Home'>Home />",
            '*[1]*<button >Submit />',
            "[2]<input type='text' name='q' placeholder='Search' />",
            "[3]<div role='menu'>loose text />",
            '\t[4]<span >Item A />',
            "[5]<img alt='logo' />",
            '[6]<div  />',
        ]))

    def test_text_of_hidden_or_covered_parents_is_not_printed(self):
        root = el(
            'body',
            {},
            [el('p', {}, [text('hidden')], visible=False), el('p', {}, [text('covered')], top=False), el('p', {}, [text('shown')])],
        )
        self.assertEqual(root.clickable_elements_to_string(INCLUDE), 'shown')


class TreeFromState(unittest.TestCase):
    STATE = {
        'url': 'http://x/',
        'title': 't',
        'tab_id': 7,
        'actionable_elements': [],
        'dom_tree': {
            'kind': 'element',
            'tag': 'body',
            'xpath': '/body',
            'attributes': {},
            'is_visible': True,
            'is_top_element': True,
            'children': [
                {
                    'kind': 'element',
                    'tag': 'div',
                    'xpath': 'html/body/div',
                    'attributes': {},
                    'is_visible': True,
                    'is_top_element': True,
                    'children': [
                        {'kind': 'text', 'text': 'Hello', 'is_visible': True},
                        {
                            'kind': 'element',
                            'tag': 'a',
                            'xpath': 'html/body/div/a[2]',
                            'attributes': {'href': '/x', 'class': 'btn primary'},
                            'is_visible': True,
                            'is_interactive': True,
                            'is_top_element': True,
                            'is_in_viewport': True,
                            'highlight_index': 1,
                            'element_id': 'e5',
                            'children': [{'kind': 'text', 'text': 'Go', 'is_visible': True}],
                        },
                    ],
                },
            ],
        },
    }

    def test_nodes_parents_selector_map_and_refs(self):
        tree, selector_map = build_tree(self.STATE)
        self.assertEqual(tree.xpath, '/body')
        a = selector_map[1]
        self.assertEqual((a.tag_name, a.xpath, a.parent.tag_name, a.parent.parent), ('a', 'html/body/div/a[2]', 'div', tree))
        self.assertEqual(element_id_of(a), 'e5')
        self.assertEqual(tree.clickable_elements_to_string(INCLUDE), 'Hello\n[1]<a >Go />')
        self.assertEqual(HistoryTreeProcessor._get_parent_branch_path(a), ['div', 'a'])
        self.assertEqual(
            ExtensionBrowserContext._enhanced_css_selector_for_element(a), 'html > body > div > a:nth-of-type(2).btn.primary[href="/x"]'
        )

    def test_flat_tree_when_no_dom_tree_is_sent(self):
        state = {'url': 'u', 'title': 't', 'actionable_elements': [
            {'id': 'e1', 'index': 1, 'tag': 'BUTTON', 'text_content': 'OK', 'attributes': {'type': 'submit'}, 'is_visible': True},
            {'id': 'e2', 'index': 2, 'tag': 'input', 'attributes': {'name': 'q'}, 'is_visible': True}]}
        tree, selector_map = build_tree(state)
        self.assertEqual(tree.clickable_elements_to_string(INCLUDE), "[0]<button type='submit'>OK />\n[1]<input name='q' />")
        self.assertEqual(element_id_of(selector_map[1]), 'e2')

    def test_dom_tree_is_taken_as_sent_with_0_based_indexes(self):
        def node(tag, xpath, children=(), index=None, eid=None, attrs=None, top=True):
            n = {'kind': 'element', 'tag': tag, 'xpath': xpath, 'attributes': attrs or {}, 'is_visible': True, 'is_top_element': top,
                 'is_in_viewport': True, 'is_interactive': index is not None, 'children': list(children)}
            if index is not None:
                n.update(highlight_index=index, element_id=eid)
            return n
        t = lambda s: {'kind': 'text', 'text': s, 'is_visible': True}  # noqa: E731
        state = {
            'url': 'u',
            'title': 't',
            'tab_id': 3,
            'actionable_elements': [],
            'dom_tree': node(
                'body',
                '/body',
                [
                    node('button', 'html/body/button', [t('Before')], 0, 'e1'),
                    node(
                        'label',
                        'html/body/label',
                        [t('Remember me'), node('input', 'html/body/label/input', [], 2, 'e3', {'type': 'checkbox'})],
                        1,
                        'e2',
                    ),
                    node('p', 'html/body/p', [t('Covered')], top=False),
                ],
            ),
        }
        tree, selector_map = build_tree(state)
        # The indexes are the extension's (browser_use's buildDomTree.js rules, 0-based): nothing is renumbered here.
        self.assertEqual(
            tree.clickable_elements_to_string(INCLUDE), "[0]<button >Before />\n[1]<label >Remember me />\n\t[2]<input type='checkbox' />"
        )
        self.assertEqual(sorted(selector_map), [0, 1, 2])
        ctx = ExtensionBrowserContext.__new__(ExtensionBrowserContext)
        ctx.config = type('C', (), {'include_dynamic_attributes': True})()
        self.assertEqual(ctx._target(selector_map[0]), ({'element_id': 'e1'}, 3))
        self.assertEqual(ctx._target(selector_map[1]), ({'element_id': 'e2'}, 3))
        bare = node('a', 'html/body/a', [], 4)
        tree, selector_map = build_tree({'dom_tree': node('body', '/body', [bare])})
        self.assertEqual(ctx._target(selector_map[4]), ({'index': 5}, None))  # no element id: the protocol index is 1-based

    def test_is_new_marks_elements_whose_hash_was_not_seen(self):
        tree1, _ = build_tree(self.STATE)
        hashes = ClickableElementProcessor.get_clickable_elements_hashes(tree1)
        tree2, sm2 = build_tree(self.STATE)
        for e in ClickableElementProcessor.get_clickable_elements(tree2):
            e.is_new = ClickableElementProcessor.hash_dom_element(e) not in hashes
        self.assertFalse(sm2[1].is_new)
        sm2[1].attributes['href'] = '/y'
        self.assertNotIn(ClickableElementProcessor.hash_dom_element(sm2[1]), hashes)


class RegistryRules(unittest.TestCase):
    def run_async(self, coro):
        return asyncio.run(coro)

    def test_user_actions_sensitive_data_and_error_wrapping(self):
        controller = ExtensionController()
        seen = {}

        @controller.action('Remember a value')
        def remember(value: str, times: int = 1):
            seen['value'] = value * times
            return f'remembered {value}'

        @controller.action('Needs the browser')
        async def needs_browser(browser):
            return ActionResult(extracted_content=type(browser).__name__)

        AM = controller.registry.create_action_model()
        r = self.run_async(
            controller.act(
                AM(remember={'value': '<secret>pw</secret>', 'times': 2}), browser_context=object(), sensitive_data={'pw': 'hunter2'}
            )
        )
        self.assertEqual((r.extracted_content, seen['value']), ('remembered hunter2', 'hunter2hunter2'))
        r = self.run_async(controller.act(AM(needs_browser={}), browser_context='ctx'))
        self.assertEqual(r.extracted_content, 'str')
        with self.assertRaisesRegex(
            RuntimeError, r'^Error executing action needs_browser: Action needs_browser requires browser but none provided\.'
        ):
            self.run_async(controller.act(AM(needs_browser={}), browser_context=None))
        with self.assertRaisesRegex(RuntimeError, 'Error executing action click_element_by_index: Invalid parameters'):
            self.run_async(controller.registry.execute_action('click_element_by_index', {'index': 'first'}, browser='b'))

    def test_done_and_wait_need_no_browser(self):
        controller = ExtensionController()
        AM = controller.registry.create_action_model()
        r = self.run_async(controller.act(AM(done={'text': 'ok', 'success': True}), browser_context=None))
        self.assertEqual((r.is_done, r.success, r.extracted_content), (True, True, 'ok'))
        r = self.run_async(controller.act(AM(wait={'seconds': 0}), browser_context=None))
        self.assertEqual(r.extracted_content, '🕒  Waiting for 0 seconds')


if __name__ == '__main__':
    unittest.main()
