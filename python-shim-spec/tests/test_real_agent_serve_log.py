"""What the person reads of a serve task, with browser_use's REAL Agent on the real bridge and Chromium
and a scripted model that records what it receives at each step: the log reads in order and once (no
plumbing lines before step 1, the answer only in the final status, Stop after the step that ran
before it), and a redirect sent right after a step is reported reaches the model at its next step."""
import asyncio
import unittest
from typing import Any, Optional

from tests.real_agent_support import V40, RealAgentModule
from tests.scripted_llm import Script, ScriptedChatModel

M = RealAgentModule()
_set_up, tearDownModule = M.hooks()
NO_STEP_HOOKS = "browser_use 0.1.40's Agent.run has no step hooks: serve reports no steps there"


def setUpModule() -> None:
    if V40:
        raise unittest.SkipTest(NO_STEP_HOOKS)  # before the harness starts Chromium for nothing
    _set_up()

REDIRECT = 'Only look at the blue staplers'


def scroll(goal: str) -> dict:
    return {'current_state': {'evaluation_previous_goal': 'Success', 'memory': '', 'next_goal': goal},
            'action': [{'scroll_down': {'amount': 100}}]}


def finish(text: str) -> dict:
    return {'current_state': {'evaluation_previous_goal': 'Success', 'memory': '', 'next_goal': 'Finish'},
            'action': [{'done': {'text': text, 'success': True}}]}


class ServeLog(unittest.TestCase):
    def server(self, script: Script, on_progress: Optional[Any] = None) -> tuple[Any, list[dict]]:
        from browser_use_ext.serve import TaskServer

        assert M.h is not None
        sent: list[dict] = []
        server = TaskServer(bridge_url=M.h.agent_url, agent_secret=M.h.agent_secret, max_steps=6,
                            llm=ScriptedChatModel(script=script), use_vision=False, factory=None)
        async def progress(task_id: str, status: str, message: str, step: Optional[int] = None, final_result: Any = ...,
                           details: Optional[dict] = None) -> None:
            entry = {'status': status, 'message': message, 'step': step, 'details': details}
            if final_result is not ...:
                entry['final_result'] = final_result
            sent.append(entry)
            if on_progress is not None:
                on_progress(server, entry)

        server.progress = progress  # type: ignore[assignment]
        return server, sent

    def test_the_log_reads_once_and_in_order(self):
        assert M.h is not None
        shop = M.h.url('/shop/index.html')
        script = Script([
            {'current_state': {'evaluation_previous_goal': 'Unknown', 'memory': '', 'next_goal': 'Open the shop'},
             'action': [{'go_to_url': {'url': shop}}]},
            finish('The shop is open'),
        ])
        server, sent = self.server(script)
        M.run(server._run('t-order', {'user_prompt': 'Open the shop', 'context': {}}), timeout=120)
        self.assertEqual([e['status'] for e in sent], ['accepted', 'running', 'step', 'step', 'done'], sent)
        self.assertEqual([e['message'] for e in sent[:2]], ['Started', 'Working'], 'no plumbing text before step 1')
        descriptions = [a['description'] for e in sent if e['details'] for a in e['details']['actions']]
        self.assertEqual(descriptions[0], f'Open {shop.split("://", 1)[1]}')
        self.assertEqual(descriptions[-1], 'Done')
        # The answer once: in the final status, not also as the done step's result nor in a message.
        shown = [e['message'] for e in sent] + [a.get('result') for e in sent if e['details'] for a in e['details']['actions']]
        self.assertEqual([x for x in shown if x and 'The shop is open' in x], [], sent)
        self.assertEqual(sent[-1]['final_result'], 'The shop is open')

    def test_a_redirect_sent_after_a_step_reaches_the_model_at_its_next_step(self):
        got: list[bool] = []

        assert M.h is not None
        shop = M.h.url('/shop/index.html')

        def step(n: int) -> Any:
            def answer(seen: Any) -> dict:
                got.append(any(REDIRECT in m['text'] for m in seen.messages))
                if n == 1:
                    return {'current_state': {'evaluation_previous_goal': 'Unknown', 'memory': '', 'next_goal': 'Open the shop'},
                            'action': [{'go_to_url': {'url': shop}}]}
                return scroll(f'step {n}') if n < 4 else finish('ok')
            return answer

        def on_progress(server: Any, entry: dict) -> None:
            # The person reads step 1 in the panel and types a redirect at once.
            if entry['status'] == 'step' and entry['step'] == 1:
                server._on_control({'type': 'task_control', 'task_id': 't-redirect', 'command': 'redirect', 'text': REDIRECT})

        server, sent = self.server(Script([step(1), step(2), step(3), step(4)]), on_progress)
        M.run(server._run('t-redirect', {'user_prompt': 'Scroll the page', 'context': {}}), timeout=120)
        self.assertEqual(got[:2], [False, True], f'the model saw the redirect at steps {got}; log: {sent}')

    def test_a_stop_during_a_steps_action_reports_that_step_then_stopped(self):
        first = {'current_state': {'evaluation_previous_goal': 'Unknown', 'memory': '', 'next_goal': 'Wait for the page'},
                 'action': [{'wait': {'seconds': 2}}]}
        server, sent = self.server(Script([first, scroll('more'), finish('never')]))

        async def run_and_stop() -> None:
            task = asyncio.ensure_future(server._run('t-stop', {'user_prompt': 'Wait', 'context': {}}))
            server.tasks['t-stop'] = task
            while 't-stop' not in server.acting:  # step 1's action is running
                self.assertFalse(task.done(), sent)
                await asyncio.sleep(0.02)
            # The person pressed Stop (in the panel or the page's overlay) while step 1's action ran.
            server._on_control({'type': 'task_control', 'task_id': 't-stop', 'command': 'stop'})
            await asyncio.wait_for(asyncio.shield(task), 60)

        M.run(run_and_stop(), timeout=120)
        statuses = [e['status'] for e in sent]
        self.assertEqual(statuses[-1], 'stopped', sent)
        self.assertNotIn('done', statuses)
        self.assertEqual(statuses, ['accepted', 'running', 'step', 'stopped'], f'step 1 ran and is reported before stopped: {sent}')
        self.assertEqual(sent[2]['step'], 1)


if __name__ == '__main__':
    unittest.main()
