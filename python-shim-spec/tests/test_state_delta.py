"""State deltas in the Python shim (the agent gets only what changed since its last state).

- apply_state_delta builds exactly the state the TypeScript diff describes, on 200 random cases
  computed by schemas/lib/state-delta.ts (test/harness/state-delta-cases.ts);
- through the real bridge, extension and Chromium, the shim's get_state asks ``since`` its last
  state, and its other actions ask ``state_since`` the state of the action before; after typing,
  toggling a checkbox and appending a list item, the state it rebuilt from the delta equals a fresh
  full state, browser_use's element tree prints the same, and the delta is at most 10% of the full
  state's bytes.
"""
import asyncio
import json
import subprocess
import unittest

from browser_use_ext import BrowserContextConfig, ExtensionBrowser
from browser_use_ext.dom_tree import build_tree
from browser_use_ext.state_delta import StateDeltaError, apply_state_delta
from tests.harness import REPO_ROOT, Harness, set_extension_settings

H = None
LOOP = None
BROWSER = None
CTX = None


def run(coro, timeout=60):
    return LOOP.run_until_complete(asyncio.wait_for(coro, timeout))


class ApplyMatchesTypeScript(unittest.TestCase):
    def test_random_cases(self):
        out = subprocess.run(
            ['node', '--import', 'tsx', 'test/harness/state-delta-cases.ts', '200'],
            cwd=str(REPO_ROOT),
            capture_output=True,
            text=True,
            timeout=120,
            check=True,
        )
        cases = json.loads(out.stdout)
        self.assertEqual(len(cases), 200)
        for c in cases:
            base_copy = json.loads(json.dumps(c['base']))
            got = apply_state_delta(c['base'], c['delta'])
            self.assertEqual(got, c['next'], f"seed {c['seed']}")
            self.assertEqual(c['base'], base_copy, 'the base state is not modified')

    def test_a_delta_for_another_state_is_refused(self):
        with self.assertRaisesRegex(StateDeltaError, 'take a full state'):
            apply_state_delta(
                {'state_id': 'a', 'url': 'u', 'title': 't', 'actionable_elements': []}, {'base_state_id': 'b', 'state_id': 'c'}
            )
        with self.assertRaises(StateDeltaError):
            apply_state_delta(
                {'url': 'u', 'title': 't', 'actionable_elements': []}, {'base_state_id': 'b', 'state_id': 'c', 'elements_removed': ['e1']}
            )


def setUpModule():
    global H, LOOP, BROWSER, CTX
    H = Harness()
    set_extension_settings(H, {'allow_evaluate': True})  # the page changes below are made by evaluate
    LOOP = asyncio.new_event_loop()
    BROWSER = ExtensionBrowser(bridge_url=H.agent_url, agent_secret=H.agent_secret)
    CTX = run(BROWSER.new_context(BrowserContextConfig(include_screenshot=False, viewport_expansion=-1)))


def tearDownModule():
    try:
        if CTX is not None:
            run(CTX.close())
        if BROWSER is not None:
            run(BROWSER.close())
        if LOOP is not None:
            LOOP.close()
    finally:
        if H is not None:
            H.close()


def comparable(st):
    """A state minus what legitimately differs a moment later (its id, timings; is_new moves on with every snapshot)."""
    st = {k: v for k, v in st.items() if k not in ('state_id', 'timings_ms', 'delta_unavailable')}
    st['actionable_elements'] = [{k: v for k, v in e.items() if k != 'is_new'} for e in st['actionable_elements']]
    return st


class ShimUsesDeltas(unittest.TestCase):
    def setUp(self):
        run(CTX.call('navigate', {'url': H.url('delta.html')}))
        self.results = []
        original = CTX._call

        async def spy(action, params, tab_id=None, timeout_ms=None):
            r = await original(action, params, tab_id=tab_id, timeout_ms=timeout_ms)
            if action == 'get_state':
                self.results.append((params, r))
            return r

        CTX._call = spy
        self.addCleanup(lambda: delattr(CTX, '_call'))

    def step(self, change_js):
        run(CTX.get_state())  # base (full or delta, whatever the shim holds)
        run(CTX.call('evaluate', {'expression': change_js}))
        self.results.clear()
        state = run(CTX.get_state())
        params, r = self.results[-1]
        self.assertIn('since', params, 'the shim asked for a delta')
        self.assertIn(
            'state_delta', r, f"answered by a delta, not {json.dumps((r.get('new_simplified_state') or {}).get('delta_unavailable'))}"
        )
        rebuilt = CTX.shared.state_bases[CTX.current_tab_id][1]
        fresh_params = {k: v for k, v in params.items() if k != 'since'}
        fresh = run(CTX.call('get_state', fresh_params))['new_simplified_state']
        self.assertEqual(comparable(rebuilt), comparable(fresh))
        # What the LLM reads: browser_use's own element tree prints the same from both.
        attrs = ['id', 'name', 'type', 'aria-label', 'checked']
        self.assertEqual(
            build_tree(rebuilt)[0].clickable_elements_to_string(attrs), build_tree(fresh)[0].clickable_elements_to_string(attrs)
        )
        full_bytes = len(json.dumps(fresh, separators=(',', ':')).encode())
        delta_bytes = len(json.dumps(r['state_delta'], separators=(',', ':')).encode())
        print(f'\n  delta {delta_bytes} B / full {full_bytes} B = {100 * delta_bytes / full_bytes:.1f}% ({change_js[:40]})', end=' ')
        self.assertLessEqual(delta_bytes, 0.1 * full_bytes)
        return state

    def test_typing_into_a_field(self):
        state = self.step(
            "const c = document.getElementById('coupon'); c.value = 'SPRING'; c.dispatchEvent(new Event('input', {bubbles: true})); 'ok'"
        )
        line = [ln for ln in state.element_tree.clickable_elements_to_string(['name']).splitlines() if 'coupon' in ln]
        self.assertTrue(line, 'the coupon field is in the prompt')

    def test_toggling_a_checkbox(self):
        self.step("document.getElementById('gift').click(); 'ok'")

    def test_appending_a_list_item(self):
        state = self.step(
            "const li = document.createElement('li'); li.innerHTML = 'Water plants <button>Done</button>'; "
            "document.getElementById('todo').append(li); 'ok'"
        )
        self.assertIn('Water plants', state.element_tree.clickable_elements_to_string())

    def test_action_states_come_as_deltas(self):
        run(CTX.call('click', {'selector': '#gift'}))  # the state after it is the base of the next one
        r = run(CTX.call('click', {'selector': '#gift'}))
        self.assertIn(
            'state_delta', r, f"answered by a delta, not {json.dumps((r.get('new_simplified_state') or {}).get('delta_unavailable'))}"
        )
        fresh = run(CTX.call('get_state', {}))['new_simplified_state']
        self.assertEqual(comparable(r['new_simplified_state']), comparable(fresh))
        full_bytes = len(json.dumps(fresh, separators=(',', ':')).encode())
        delta_bytes = len(json.dumps(r['state_delta'], separators=(',', ':')).encode())
        print(f'\n  click state: delta {delta_bytes} B / full {full_bytes} B = {100 * delta_bytes / full_bytes:.1f}%', end=' ')
        self.assertLessEqual(delta_bytes, 0.1 * full_bytes)


if __name__ == '__main__':
    unittest.main()
