"""serve's pieces without a browser: the LLM choice and its messages (llm.py), the task text with
seed 004's context bundle, and the step details the panel shows (from browser_use's history)."""
import contextlib
import io
import unittest
from types import SimpleNamespace

from browser_use_ext import llm
from browser_use_ext.serve import SHARED_ROWS, build_parser, serve_help, step_details, task_text
from browser_use_ext.transport import agent_url
from tests.harness import SHIM_DIR  # noqa: F401  (puts the shim on sys.path)


class ChooseTheLLM(unittest.TestCase):
    def test_says_what_to_configure_when_nothing_is(self):
        with self.assertRaises(llm.LLMSetupError) as e:
            llm.choose(env={})
        self.assertIn('--llm openai', str(e.exception))
        self.assertIn('OPENAI_API_KEY', str(e.exception))

    def test_names_the_missing_key(self):
        with self.assertRaises(llm.LLMSetupError) as e:
            llm.choose('anthropic', env={})
        self.assertIn('ANTHROPIC_API_KEY', str(e.exception))

    def test_openai_compatible_server_needs_no_key(self):
        c = llm.choose('openai', 'local-model', 'http://127.0.0.1:8000/v1', env={})
        self.assertEqual((c.provider, c.model, c.base_url), ('openai', 'local-model', 'http://127.0.0.1:8000/v1'))
        self.assertTrue(c.api_key)

    def test_provider_from_the_environment(self):
        self.assertEqual(llm.choose(env={'GOOGLE_API_KEY': 'g'}).provider, 'google')
        self.assertEqual(llm.choose(env={'OLLAMA_HOST': 'http://h:11434'}).base_url, 'http://h:11434')
        self.assertEqual(
            llm.choose(env={'BROWSER_USE_EXT_LLM': 'openai', 'OPENAI_API_KEY': 'k', 'BROWSER_USE_EXT_MODEL': 'gpt-4o-mini'}).model,
            'gpt-4o-mini',
        )

    def test_unknown_provider(self):
        with self.assertRaises(llm.LLMSetupError):
            llm.choose('bard', env={})

    def test_the_cli_takes_the_flags(self):
        a = build_parser().parse_args(['serve', '--llm', 'ollama', '--model', 'qwen2.5:7b', '--no-vision', '--base-url', 'http://x:1'])
        self.assertEqual((a.llm, a.model, a.no_vision, a.base_url), ('ollama', 'qwen2.5:7b', True, 'http://x:1'))


class SharedOptions(unittest.TestCase):
    """The options every browser-use-ext command shares (test/integration/cli-help.spec.ts compares the
    help lines with the npm CLI's)."""

    def test_the_shared_options_and_their_lines(self):
        a = build_parser().parse_args(['serve', '--bridge-url', 'ws://127.0.0.1:9000', '--config-dir', '/cfg', '--log-level', 'warn'])
        self.assertEqual((a.bridge_url, a.config_dir, a.log_level), ('ws://127.0.0.1:9000', '/cfg', 'warn'))
        help_text = serve_help()
        for flags, _ in SHARED_ROWS:
            self.assertIn(f'\n  {flags}', help_text)

    def test_an_unknown_option_is_one_line_and_exit_2(self):
        err = io.StringIO()
        with contextlib.redirect_stderr(err), self.assertRaises(SystemExit) as cm:
            build_parser().parse_args(['serve', '--no-such-flag'])
        self.assertEqual(cm.exception.code, 2)
        self.assertEqual(err.getvalue(), 'browser-use-ext serve: unknown option --no-such-flag; see browser-use-ext serve --help\n')

    def test_any_url_of_the_bridge_reaches_its_agent_endpoint(self):
        for given, expected in (
            ('ws://127.0.0.1:8765/agent', 'ws://127.0.0.1:8765/agent'),
            ('ws://127.0.0.1:9000', 'ws://127.0.0.1:9000/agent'),
            ('http://127.0.0.1:9000/', 'ws://127.0.0.1:9000/agent'),
            ('https://bridge.example:443', 'wss://bridge.example:443/agent'),
        ):
            self.assertEqual(agent_url(given), expected, given)


class TaskText(unittest.TestCase):
    def test_carries_the_context_bundle(self):
        t = task_text(
            'What does this do?',
            {
                'url': 'https://shop.test/',
                'page_title': 'Shop',
                'active_tab_id': 4,
                'selected_text': 'Mini Stapler',
                'viewport_summary': '[1] button "Add to cart"',
                'element': {'tag': 'button', 'role': 'button', 'name': 'Add to cart', 'selector': '#add'},
            },
        )
        self.assertTrue(t.startswith('What does this do?'))
        for part in ('https://shop.test/', "'Mini Stapler'", 'button "Add to cart" (selector #add)', '[1] button "Add to cart"'):
            self.assertIn(part, t)


class StepDetails(unittest.TestCase):
    def test_reads_browser_use_history(self):
        class Action:
            def __init__(self, d):
                self.d = d

            def model_dump(self, exclude_unset=False):
                return self.d
        item = SimpleNamespace(
            state=SimpleNamespace(url='https://shop.test/results.html'),
            model_output=SimpleNamespace(
                current_state=SimpleNamespace(evaluation_previous_goal='Success', memory='m', next_goal='Add it'),
                action=[Action({'click_element_by_index': {'index': 5}}), Action({'done': {'text': 'ok', 'success': True}})],
            ),
            result=[
                SimpleNamespace(extracted_content='Clicked button 5', error=None, is_done=False),
                SimpleNamespace(extracted_content='ok', error=None, is_done=True),
            ],
        )
        agent = SimpleNamespace(state=SimpleNamespace(history=SimpleNamespace(history=[item])))
        d = step_details(agent)
        self.assertEqual(d['next_goal'], 'Add it')
        self.assertEqual(d['url'], 'https://shop.test/results.html')
        self.assertEqual(
            d['actions'],
            [
                {'name': 'click_element_by_index', 'params': {'index': 5}, 'description': 'Click element 5', 'result': 'Clicked button 5',
                 'error': None},
                {'name': 'done', 'params': {'text': 'ok', 'success': True}, 'description': 'Done', 'result': None, 'error': None,
                 'is_done': True},
            ],
        )

    def test_an_error_before_any_action_is_shown(self):
        item = SimpleNamespace(
            state=SimpleNamespace(url='u'),
            model_output=None,
            result=[SimpleNamespace(extracted_content=None, error='Could not parse response', is_done=False)],
        )
        d = step_details(SimpleNamespace(state=SimpleNamespace(history=SimpleNamespace(history=[item]))))
        failed = 'The step failed before any action ran'
        expected = {'name': 'step', 'params': {}, 'description': failed, 'result': None, 'error': 'Could not parse response'}
        self.assertEqual(d['actions'], [expected])


if __name__ == '__main__':
    unittest.main()
