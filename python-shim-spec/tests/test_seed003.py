"""Seed 003's executor as a Python function (browser_use_ext.seed003) through the real bridge,
extension and Chromium: the output is exactly the seed's schema, the seven tools act on the fixture
shop, and error_type follows the documented table."""
import unittest

from browser_use_ext import BridgeConnection
from browser_use_ext.seed003 import dom_snapshot, execute_step
from tests.harness import FIXTURES_DIR, ShimModule

S = ShimModule(FIXTURES_DIR / 'shop')
H = None
CONN = None
ALL = ['navigate', 'click', 'type', 'search', 'scroll', 'press_key', 'wait']


def run(coro, timeout=60):
    return S.run(coro, timeout)


def setUpModule():
    global H, CONN
    H = S.start()
    CONN = run(BridgeConnection.connect(H.agent_url, H.agent_secret, client_name='seed003-py-test'))
    S.on_close(CONN.close)


tearDownModule = S.close


def step(plan, tool, args, allowed=ALL):
    snap = run(dom_snapshot(CONN))
    return run(
        execute_step(
            CONN,
            {
                'main_goal': 'Buy a stapler',
                'plan_step': plan,
                'dom_snapshot': snap['dom_snapshot'],
                'url': snap['url'],
                'allowed_tools': allowed,
            },
            {'tool': tool, 'args': args},
        )
    )


class Seed003Test(unittest.TestCase):
    def assertSeedShape(self, o):
        self.assertEqual(list(o), ['action', 'args', 'status', 'error_type', 'message'])
        self.assertEqual(list(o['args']), ['url', 'role', 'name', 'text', 'direction', 'key', 'seconds'])
        self.assertIn(o['status'], ('success', 'failure'))
        self.assertIn(o['error_type'], ('none', 'element_not_found', 'ambiguous_step', 'tool_limit', 'navigation_blocked', 'unknown'))
        self.assertEqual(o['error_type'] == 'none', o['status'] == 'success')

    def test_1_shop_with_the_seven_tools(self):
        run(CONN.call('navigate', {'url': H.url('index.html')}))
        snap = run(dom_snapshot(CONN))
        self.assertEqual(snap['dom_snapshot']['role'], 'WebArea')
        self.assertIn({'role': 'textbox', 'name': 'Search products'}, snap['dom_snapshot']['children'])
        for plan, tool, args in [
            ('Go to the shop', 'navigate', {'url': H.url('index.html')}),
            ('Click the search box', 'click', {'role': 'textbox', 'name': 'Search products'}),
            ('Type stapler', 'type', {'text': 'stapler'}),
            ('Submit', 'press_key', {'key': 'Enter'}),
            ('Add the Mini Stapler', 'click', {'role': 'button', 'name': 'Add Mini Stapler to cart'}),
            ('Scroll down', 'scroll', {'direction': 'down'}),
            ('Wait a second', 'wait', {'seconds': 1}),
            ('Go home', 'navigate', {'url': H.url('index.html')}),
            ('Search for pens', 'search', {'query': 'pen'}),
        ]:
            o = step(plan, tool, args)
            self.assertSeedShape(o)
            self.assertEqual(o['status'], 'success', (plan, o))
            self.assertEqual(o['action'], tool)
        self.assertIn('results.html?q=pen', run(dom_snapshot(CONN))['url'])

    def test_2_error_types(self):
        run(CONN.call('navigate', {'url': H.url('index.html')}))
        o = step('Click Delete', 'click', {'role': 'button', 'name': 'Delete'})
        self.assertSeedShape(o)
        self.assertEqual((o['status'], o['error_type']), ('failure', 'element_not_found'))
        self.assertEqual(step('Wait', 'wait', {'seconds': 1}, allowed=['click'])['error_type'], 'tool_limit')
        self.assertEqual(step('Hover', 'hover', {})['error_type'], 'tool_limit')
        self.assertEqual(step('Scroll sideways', 'scroll', {'direction': 'left'})['error_type'], 'ambiguous_step')
        self.assertEqual(step('Open a closed port', 'navigate', {'url': 'http://127.0.0.1:1/'})['error_type'], 'navigation_blocked')

    def test_3_the_seeds_input_without_tool(self):
        # The seed's Input Schema as written: the tool comes from plan_step (select_tool), grounded in dom_snapshot.
        run(CONN.call('navigate', {'url': H.url('index.html')}))

        def seed_step(plan):
            snap = run(dom_snapshot(CONN))
            seed_input = {'main_goal': 'Buy a stapler', 'plan_step': plan, 'dom_snapshot': snap['dom_snapshot'], 'url': snap['url'],
                          'allowed_tools': ALL}
            return run(execute_step(CONN, seed_input))

        typed = seed_step('Type "stapler" into the search box')
        self.assertSeedShape(typed)
        self.assertEqual((typed['action'], typed['status']), ('type', 'success'), typed)
        self.assertEqual((typed['args']['role'], typed['args']['name'], typed['args']['text']), ('textbox', 'Search products', 'stapler'))
        self.assertEqual(seed_step('Press Enter to submit')['action'], 'press_key')
        self.assertIn('results.html?q=stapler', run(dom_snapshot(CONN))['url'])
        self.assertEqual(seed_step('Click Checkout')['error_type'], 'element_not_found')
        self.assertEqual(seed_step('Find a good deal')['error_type'], 'ambiguous_step')
        blocked = seed_step('Open chrome://settings')
        self.assertSeedShape(blocked)
        self.assertEqual((blocked['action'], blocked['error_type']), ('navigate', 'navigation_blocked'))
        self.assertIn('results.html?q=stapler', run(dom_snapshot(CONN))['url'])


if __name__ == '__main__':
    unittest.main()
