"""The state a context's helper modules share (session_state.py), without a bridge: one page object
per tab, the first state names the agent's tab, a closed tab leaves every list, notices are shown
once, and connecting again resumes the session by its token."""
import asyncio
import unittest
from types import SimpleNamespace

from browser_use_ext.session_state import SessionState
from tests.harness import SHIM_DIR  # noqa: F401  (puts the shim on sys.path)


def fake_context():
    return SimpleNamespace(
        session=SimpleNamespace(context=SimpleNamespace(pages=[])),
        agent_current_page=None, human_current_page=None, last_protocol_state=None,
    )


class FakeConn:
    def __init__(self, token):
        self.session_token = token
        self.handlers = {}

    def on(self, event, handler):
        self.handlers[event] = handler


class SharedState(unittest.TestCase):
    def setUp(self):
        self.ctx = fake_context()
        self.tokens = []

        async def connect(token):
            self.tokens.append(token)
            return FakeConn('t2')

        self.state = SessionState(self.ctx, connect)

    def test_one_page_object_per_tab(self):
        a = self.state.page_for(7, url='https://a.test/', title='A')
        b = self.state.page_for(7, url='https://a.test/next')
        self.assertIs(a, b)
        self.assertEqual(a.url, 'https://a.test/next')
        self.assertEqual(self.ctx.session.context.pages, [a])

    def test_the_first_state_names_the_agents_tab(self):
        self.state.note_state({'tab_id': 3, 'url': 'https://a.test/', 'title': 'A', 'frames': [{'frame_id': 0}]})
        page = self.state.pages[3]
        self.assertIs(self.ctx.agent_current_page, page)
        self.assertIs(self.ctx.human_current_page, page)
        self.assertEqual(page._frames, [{'frame_id': 0}])
        self.state.note_state({'tab_id': 4, 'url': 'https://b.test/'})
        self.assertIs(self.ctx.agent_current_page, page)  # a later state of another tab does not move the agent
        self.assertEqual(self.ctx.last_protocol_state['tab_id'], 4)

    def test_a_closed_tab_leaves_every_list_and_its_notice_is_shown_once(self):
        self.state.note_state({'tab_id': 3, 'url': 'https://a.test/'})
        page = self.state.pages[3]
        self.state.on_tab_released({'tab_id': 3, 'reason': 'tab_closed', 'message': 'Released tab: 3'})
        self.assertTrue(page.is_closed())
        self.assertEqual((self.state.pages, self.ctx.session.context.pages), ({}, []))
        self.assertIsNone(self.ctx.agent_current_page)
        self.assertEqual(self.state.take_notices(), ['Released tab: 3'])
        self.assertEqual(self.state.take_notices(), [])

    def test_connecting_again_resumes_the_session_by_its_token(self):
        self.state.session_token = 't1'
        conn = asyncio.run(self.state.connect_again())
        self.assertEqual(self.tokens, ['t1'])
        self.assertEqual(self.state.session_token, 't2')
        self.assertEqual(conn.handlers['tab_released'], self.state.on_tab_released)


if __name__ == '__main__':
    unittest.main()
