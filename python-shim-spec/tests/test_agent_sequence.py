"""The real browser_use Agent (0.1.48 from PyPI, in the venv scripts/python-envs.mjs builds) runs
unchanged on the real bridge, extension and Chromium: "find the cheapest stapler and add it to the
cart" on the shop fixture, driven by a scripted chat model that reads the prompt text the Agent
builds. Checks the BrowserContext call sequence of Agent.step / multi_act, the history's CSS
selectors and the prompt format. agent_run.py runs in a subprocess (browser_use configures logging
at import)."""
import importlib.util
import json
import os
import subprocess
import sys
import unittest

from tests.harness import SHIM_DIR, TESTS_DIR, Harness

REPORT = {}


def setUpModule():
    if importlib.util.find_spec('browser_use') is None:
        raise unittest.SkipTest('browser_use is not installed in this venv (this module runs in the browser-use venvs)')
    h = Harness()
    try:
        env = dict(os.environ, PYTHONPATH=str(SHIM_DIR))
        r = subprocess.run([sys.executable, str(TESTS_DIR / 'agent_run.py'), h.agent_url, h.agent_secret or '', h.fixtures_url],
                           env=env, capture_output=True, text=True, timeout=180)
        if r.returncode != 0 or not r.stdout.strip():
            raise RuntimeError(f'agent_run.py failed ({r.returncode}):\n{r.stderr[-4000:]}')
        REPORT.update(json.loads(r.stdout.strip().splitlines()[-1]))
    finally:
        h.close()


class RealBrowserUse(unittest.TestCase):
    def test_the_shim_hands_out_browser_use_own_classes(self):
        self.assertTrue(REPORT['browser_use_version'].startswith('0.1.4'), REPORT['browser_use_version'])
        self.assertIn('site-packages', REPORT['browser_use_file'])  # the PyPI package, not a copy in the repo
        for name, module in REPORT['classes'].items():
            self.assertTrue(module.startswith('browser_use.'), f'{name} comes from {module}, not browser_use')
        for step in REPORT['steps']:
            self.assertEqual(step['state_types'], ['browser_use.browser.views', 'browser_use.dom.views', 'browser_use.browser.views'])

    def test_agent_with_browser_only_builds_the_extension_context(self):
        # Agent(task, llm, browser=ExtensionBrowser(), controller=ExtensionController()): no browser_context passed.
        self.assertTrue(REPORT['patched'])
        self.assertEqual(REPORT['context_class'], 'ExtensionBrowserContext')


class ShopTask(unittest.TestCase):
    def test_the_cheapest_stapler_ends_up_in_the_cart(self):
        self.assertEqual(REPORT['choice']['name'], 'Mini Stapler')
        self.assertEqual(REPORT['choice']['offers'], ['Heavy Duty Stapler SX-200', 'Mini Stapler', 'Ergonomic Desk Stapler'])
        self.assertEqual(REPORT['final_result'], 'Mini Stapler - $3.99')
        done = REPORT['steps'][-1]['results'][-1]
        self.assertEqual((done['is_done'], done['success']), (True, True))

    def test_each_step_starts_with_get_state_true_then_the_current_page(self):
        for step in REPORT['steps']:
            self.assertEqual(step['calls'][:4], ['get_state(True)', 'get_current_page', 'get_selector_map', 'remove_highlights'])

    def test_search_step_chains_two_indexed_actions_with_a_fresh_state_between(self):
        step = REPORT['steps'][1]
        self.assertEqual([list(a)[0] for a in step['actions']], ['input_text', 'click_element_by_index'])
        calls = step['calls']
        self.assertLess(calls.index('_input_text_element_node'), calls.index('get_state(False)'))
        self.assertLess(calls.index('get_state(False)'), calls.index('_click_element_node'))
        # The branch_path_hash checks passed: both actions ran, nothing "changed" or "appeared".
        self.assertEqual([r['extracted_content'] for r in step['results']], [
            f"⌨️  Input stapler into index {step['actions'][0]['input_text']['index']}",
            f"🖱️  Clicked button with index {step['actions'][1]['click_element_by_index']['index']}: Search",
        ])
        self.assertTrue(REPORT['steps'][2]['url'].endswith('/shop/results.html?q=stapler'))

    def test_history_records_interacted_elements_with_css_selectors(self):
        add = REPORT['steps'][2]['interacted'][0]
        self.assertEqual(add['tag_name'], 'button')
        self.assertEqual(add['xpath'], 'html/body/main/ul/li[2]/button')
        self.assertEqual(
            add['css_selector'],
            'html > body > main > ul > li:nth-of-type(2) > button[type="button"][data-id="mini-s"][aria-label="Add Mini Stapler to cart"]',
        )
        for step in REPORT['steps']:
            for el in step['interacted']:
                if el:
                    self.assertEqual(el['css_selector'], el['ours'])


class PromptText(unittest.TestCase):
    def test_clickable_elements_to_string_matches_the_0_1_48_format(self):
        # What 0.1.48 prints for tests/fixtures/prompt.html with the Agent's default include_attributes
        # (indexes from 0, as browser_use numbers them; the side-by-side test compares with the real one).
        self.assertEqual(REPORT['prompt_text'], '\n'.join([
            'Welcome to the site',
            "[0]<a title='Home'>Home />",
            '[1]<button >Submit />',
            "[2]<input type='text' name='q' placeholder='Search' />",
            "[3]<div role='button'>Menu />",
            '\t[4]<a >Item A />',
            'Footer text',
        ]))

    def test_history_css_selectors_select_exactly_their_element_on_the_page(self):
        self.assertEqual(len(REPORT['prompt_selectors']), 5)
        for css, count in REPORT['prompt_selectors'].items():
            self.assertEqual(count, 1, css)


if __name__ == '__main__':
    unittest.main()
