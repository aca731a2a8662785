"""A person's redirect reaches serve's Agent at the model's next request (task_redirects.py): placed before
the step's state message, and a request still being answered is asked again with it."""
import asyncio
import unittest
from types import SimpleNamespace

from browser_use_ext.task_redirects import RedirectInbox


class Managed:
    def __init__(self, message):
        self.message = message


class FakeAgent:
    """browser_use 0.1.x's shape as far as the inbox needs it: the message history and get_next_action."""

    def __init__(self, answer_after: asyncio.Event):
        self._message_manager = SimpleNamespace(state=SimpleNamespace(history=SimpleNamespace(messages=[])))
        self._message_manager.add_new_task = self._add_new_task
        self.asked: list[list[str]] = []
        self.answer_after = answer_after

    def _add_new_task(self, text):
        self._message_manager.state.history.messages.append(Managed(f'Your new ultimate task is: """{text}"""'))

    async def get_next_action(self, input_messages):
        self.asked.append(list(input_messages))
        await self.answer_after.wait()
        return 'answer'


class Redirects(unittest.IsolatedAsyncioTestCase):
    async def test_a_waiting_redirect_goes_before_the_state_message_of_the_next_request(self):
        go = asyncio.Event()
        go.set()
        agent = FakeAgent(go)
        agent._message_manager.state.history.messages.extend([Managed('system'), Managed('state of step 2')])
        inbox = RedirectInbox()
        self.assertTrue(inbox.attach(agent))
        inbox.push('Only blue ones')
        self.assertEqual(await agent.get_next_action(['system', 'state of step 2']), 'answer')
        self.assertEqual(agent.asked, [['system', 'Your new ultimate task is: """Only blue ones"""', 'state of step 2']])
        history = [m.message for m in agent._message_manager.state.history.messages]
        self.assertEqual(history[-1], 'state of step 2', 'browser_use drops the last message after the answer: the state, not the redirect')

    async def test_a_redirect_during_the_models_answer_asks_again_with_it(self):
        go = asyncio.Event()
        agent = FakeAgent(go)
        agent._message_manager.state.history.messages.extend([Managed('system'), Managed('state')])
        inbox = RedirectInbox()
        inbox.attach(agent)
        request = asyncio.ensure_future(agent.get_next_action(['system', 'state']))
        while not agent.asked:
            await asyncio.sleep(0)
        inbox.push('Stop after the first result')
        while len(agent.asked) < 2:
            await asyncio.sleep(0)
        go.set()
        self.assertEqual(await request, 'answer')
        self.assertEqual(agent.asked[1], ['system', 'Your new ultimate task is: """Stop after the first result"""', 'state'])

    async def test_not_browser_uses_agent(self):
        self.assertFalse(RedirectInbox().attach(SimpleNamespace(run=lambda: None)))


if __name__ == '__main__':
    unittest.main()
