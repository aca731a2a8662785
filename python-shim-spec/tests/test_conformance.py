"""The shim against browser_use 0.1.48's machine-readable surface (tests/data/browser_use_surface.json,
a copy of ../shared/reference/browser_use_surface.json): every method the Agent, the Controller or
HistoryTreeProcessor calls exists with compatible parameters and sync/async-ness, and every default
action is registered with the same name, parameter fields, description and domains."""
import inspect
import json
import re
import unittest
from pathlib import Path

from browser_use_ext import ExtensionBrowser, ExtensionBrowserContext, ExtensionController
from browser_use_ext.fallback.registry import Registry
from tests import harness  # noqa: F401  (puts the package on sys.path)

SURFACE = json.loads((Path(__file__).parent / 'data' / 'browser_use_surface.json').read_text(encoding='utf-8'))
OURS = {'BrowserContext': ExtensionBrowserContext, 'Browser': ExtensionBrowser, 'Controller': ExtensionController, 'Registry': Registry}


def parse_param(spec: str) -> tuple:
    """'max_depth: int = 3' -> ('max_depth', True); '**kwargs (...)' -> ('**kwargs', False)."""
    name = re.split(r'[:=\s(]', spec.strip(), maxsplit=1)[0]
    return name, '=' in spec


class SurfaceCopy(unittest.TestCase):
    def test_the_copy_matches_the_shared_reference_when_it_is_beside_the_clone(self):
        shared = Path(__file__).resolve().parents[2].parent / 'shared' / 'reference' / 'browser_use_surface.json'
        if not shared.exists():
            self.skipTest(f'{shared} is not beside the clone')
        self.assertEqual(
            json.loads(shared.read_text(encoding='utf-8')), SURFACE, 'refresh tests/data/browser_use_surface.json from ../shared/reference'
        )


class SurfaceMethods(unittest.TestCase):
    def test_every_method_the_agent_controller_or_history_processor_calls_exists(self):
        checked = 0
        for m in SURFACE['methods']:
            if not m['required_by_agent_or_controller'] or m['class'] not in OURS:
                continue
            with self.subTest(cls=m['class'], method=m['method']):
                cls = OURS[m['class']]
                self.assertTrue(hasattr(cls, m['method']), f"{cls.__name__}.{m['method']} is missing (called by {m['called_by']})")
                fn = inspect.getattr_static(cls, m['method'])
                target = fn.__func__ if isinstance(fn, (classmethod, staticmethod)) else fn
                if m['method'] != '__init__' and m['class'] != 'Registry':
                    # get_state/act are sync-wrapped in 0.1.48 but return coroutines: async here is compatible.
                    self.assertEqual(
                        inspect.iscoroutinefunction(target),
                        m['async'] or m['method'] in ('get_state', 'act'),
                        f"{m['method']}: async should be {m['async']}",
                    )
                sig = inspect.signature(target)
                ours = [p for p in sig.parameters.values() if p.name not in ('self', 'cls')]
                accepts_kwargs = any(p.kind is p.VAR_KEYWORD for p in ours)
                names = [p.name for p in ours]
                for position, spec in enumerate(m['params']):
                    name, has_default = parse_param(spec)
                    if name.startswith('**'):
                        self.assertTrue(accepts_kwargs, f"{m['method']} must accept **kwargs")
                        continue
                    self.assertIn(name, names, f"{m['method']} lacks parameter {name}")
                    self.assertEqual(names.index(name), position, f"{m['method']}: {name} must be positional #{position}")
                    if has_default:
                        self.assertIsNot(ours[names.index(name)].default, inspect.Parameter.empty, f"{m['method']}: {name} needs a default")
                extra_required = [
                    p.name
                    for p in ours[len(m['params']) :]
                    if p.default is inspect.Parameter.empty and p.kind not in (p.VAR_KEYWORD, p.VAR_POSITIONAL)
                ]
                self.assertEqual(extra_required, [], f"{m['method']} has extra required parameters")
                checked += 1
        self.assertGreaterEqual(checked, 25)

    def test_every_browser_context_method_of_0_1_48_exists(self):
        for m in SURFACE['methods']:
            if m['class'] == 'BrowserContext':
                with self.subTest(method=m['method']):
                    self.assertTrue(hasattr(ExtensionBrowserContext, m['method']))
                    self.assertEqual(
                        inspect.iscoroutinefunction(getattr(ExtensionBrowserContext, m['method'])), m['async'] or m['method'] == 'get_state'
                    )

    def test_css_selector_helpers_are_classmethods_callable_on_the_class(self):
        for name in ('_enhanced_css_selector_for_element', '_convert_simple_xpath_to_css_selector'):
            self.assertIsInstance(inspect.getattr_static(ExtensionBrowserContext, name), classmethod)
        self.assertEqual(
            ExtensionBrowserContext._convert_simple_xpath_to_css_selector('html/body/div[2]/a'), 'html > body > div:nth-of-type(2) > a'
        )

    def test_attributes_read_from_outside(self):
        browser = ExtensionBrowser()
        ctx = ExtensionBrowserContext(browser)
        self.assertEqual(ctx.config.wait_between_actions, 0.5)
        self.assertIsNone(ctx.config.allowed_domains)
        self.assertIsNone(ctx.session)  # Agent._validate_output tests its truthiness
        self.assertIsNone(ctx.agent_current_page)
        self.assertIs(browser.config.new_context_config.__class__.__name__, 'BrowserContextConfig')
        self.assertFalse(browser.config.disable_security)

    def test_get_state_without_argument_works_like_0_1_40(self):
        self.assertIs(inspect.signature(ExtensionBrowserContext.get_state).parameters['cache_clickable_elements_hashes'].default, False)


def _installed_browser_use() -> str:
    try:
        import importlib.metadata
        return importlib.metadata.version('browser-use')
    except Exception:
        return ''


class DefaultActions(unittest.TestCase):
    """The surface file is 0.1.48's. With browser_use 0.1.40 installed the registry is 0.1.40's own
    (ExtensionController subclasses the real Controller): test_real_agent_actions checks that one."""
    controller = ExtensionController()

    def setUp(self):
        if _installed_browser_use().startswith('0.1.40'):
            self.skipTest('browser_use 0.1.40 is installed: its own registry is checked by test_real_agent_actions')

    def test_the_25_default_actions_in_registration_order(self):
        self.assertEqual(list(self.controller.registry.registry.actions), [a['action'] for a in SURFACE['actions']])

    def test_each_action_has_the_same_fields_required_set_description_and_domains(self):
        for a in SURFACE['actions']:
            with self.subTest(action=a['action']):
                ra = self.controller.registry.registry.actions[a['action']]
                schema = ra.param_model.model_json_schema()
                self.assertEqual(sorted(schema['properties']), sorted(a['params']))
                self.assertEqual(sorted(schema.get('required', [])), sorted(a['required']))
                for field, default in (a.get('defaults') or {}).items():
                    self.assertEqual(schema['properties'][field].get('default'), default)
                self.assertEqual(ra.description, a['description'])
                self.assertEqual(ra.domains, a.get('domains'))

    def test_prompt_description_matches_0_1_48_format(self):
        ra = self.controller.registry.registry.actions['click_element_by_index']
        self.assertEqual(
            ra.prompt_description(),
            "Click element by index: \n{click_element_by_index: {'index': {'type': 'integer'}, "
            "'xpath': {'anyOf': [{'type': 'string'}, {'type': 'null'}], 'default': None}}}",
        )

    def test_sheets_actions_only_appear_for_sheets_pages(self):
        class Page:
            url = 'https://sheets.google.com/d/1'
        self.assertNotIn('get_sheet_contents', self.controller.registry.get_prompt_description())
        self.assertIn('get_sheet_contents', self.controller.registry.get_prompt_description(Page()))
        model = self.controller.registry.create_action_model(page=Page())
        self.assertIn('update_range_contents', model.model_fields)
        self.assertNotIn('update_range_contents', self.controller.registry.create_action_model().model_fields)

    def test_exclude_actions_and_output_model(self):
        from browser_use_ext.controller import _REAL
        if _REAL:  # browser_use's Controller builds a pydantic model around it
            from pydantic import BaseModel as Model
        else:
            from browser_use_ext.fallback.models import Model

        class Answer(Model):
            price: float

        c = ExtensionController(exclude_actions=['search_google'], output_model=Answer)
        self.assertNotIn('search_google', c.registry.registry.actions)
        self.assertEqual(sorted(c.registry.registry.actions['done'].param_model.model_fields), ['data', 'success'])


class Version0140(unittest.TestCase):
    def test_0_1_40_action_set(self):
        v = SURFACE['variants_0_1_40']
        c = ExtensionController(actions_version='0.1.40')
        names = list(c.registry.registry.actions)
        self.assertIn('click_element', names)
        self.assertNotIn('click_element_by_index', names)
        for absent in v['actions_absent']:
            if absent != 'Google Sheets actions':
                self.assertNotIn(absent, names)
        self.assertFalse([n for n in names if getattr(c.registry.registry.actions[n], 'domains', None)])  # 0.1.40 has no domains field
        self.assertEqual(
            sorted(c.registry.registry.actions['extract_content'].param_model.model_fields), sorted(v['extract_content_params'])
        )
        self.assertEqual(
            names,
            [
                'done',
                'search_google',
                'go_to_url',
                'go_back',
                'wait',
                'click_element',
                'input_text',
                'switch_tab',
                'open_tab',
                'extract_content',
                'scroll_down',
                'scroll_up',
                'send_keys',
                'scroll_to_text',
                'get_dropdown_options',
                'select_dropdown_option',
            ],
        )


if __name__ == '__main__':
    unittest.main()
