"""How serve reports a finished task, decided from browser_use's REAL history classes (run in the
0.1.48 and the 0.1.40 venvs): done only when the agent's done action says it succeeded; a done with
success false or a run that used all its steps is "incomplete" with the agent's own words; a run that
ended on errors in a row is "failed". The panel badges done in green, so a run that ended "I cannot
find the form fields" must never be reported done."""
import asyncio
import unittest
from types import SimpleNamespace

from browser_use.agent.views import ActionResult, AgentHistory, AgentHistoryList  # type: ignore  # noqa: E402
from browser_use.browser.views import BrowserStateHistory  # type: ignore  # noqa: E402

from browser_use_ext.serve import TaskServer, task_outcome
from tests.harness import SHIM_DIR  # noqa: F401  (puts the shim on sys.path)


def history(*results: list) -> AgentHistoryList:
    state = BrowserStateHistory(url='http://shop.test/', title='Shop', tabs=[], interacted_element=[], screenshot=None)
    return AgentHistoryList(history=[AgentHistory(model_output=None, result=list(r), state=state, metadata=None) for r in results])


def agent(h: AgentHistoryList, n_steps: int = 3, failures: int = 0) -> SimpleNamespace:
    return SimpleNamespace(state=SimpleNamespace(history=h, n_steps=n_steps, consecutive_failures=failures),
                           settings=SimpleNamespace(max_failures=3))


class TaskOutcome(unittest.TestCase):
    def test_done_with_success_true_is_done(self):
        h = history([ActionResult(extracted_content='Clicked', include_in_memory=True)],
                    [ActionResult(is_done=True, success=True, extracted_content='Added the Mini Stapler')])
        self.assertEqual(task_outcome(agent(h), h, 12), ('done', 'Done', 'Added the Mini Stapler'))

    def test_done_with_success_false_is_not_completed_with_the_agents_words(self):
        h = history([ActionResult(is_done=True, success=False, extracted_content='I cannot find the form fields')])
        status, message, final = task_outcome(agent(h), h, 12)
        self.assertEqual(status, 'incomplete')
        self.assertEqual(final, 'I cannot find the form fields')
        self.assertIn('Not completed', message)
        self.assertNotIn('I cannot find the form fields', message, 'the answer is shown once, as final_result')

    def test_a_run_out_of_steps_is_not_completed(self):
        # 0.1.48 appends this item when the loop runs out; 0.1.40 appends nothing: both are not done.
        h = history([ActionResult(extracted_content='Scrolled', include_in_memory=True)],
                    [ActionResult(error='Failed to complete task in maximum steps', include_in_memory=True)])
        status, message, final = task_outcome(agent(h, n_steps=13), h, 12)
        self.assertEqual(status, 'incomplete')
        self.assertIn('all its 12 steps', message)
        self.assertIsNone(final)

    def test_errors_in_a_row_are_failed_with_the_last_error(self):
        h = history([ActionResult(error='Traceback...\nValueError: the page did not load', include_in_memory=True)])
        status, message, _ = task_outcome(agent(h, failures=3), h, 12)
        self.assertEqual(status, 'failed')
        self.assertIn('ValueError: the page did not load', message)

    def test_the_history_is_read_from_the_agent_when_run_returns_something_else(self):
        h = history([ActionResult(is_done=True, success=False, extracted_content='No such product')])
        self.assertEqual(task_outcome(agent(h), None, 12)[0], 'incomplete')


class TaskSessionName(unittest.TestCase):
    def test_the_tasks_session_says_what_it_runs_in_words(self):
        from browser_use_ext.serve import task_session_name

        self.assertEqual(task_session_name('Find a stapler'), 'browser-use-ext serve, running "Find a stapler"')
        long = task_session_name('Go to the shop, find the cheapest stapler and add it to the cart please')
        self.assertLessEqual(len(long), 100)
        self.assertTrue(long.endswith('…"'), long)


class StepReports(unittest.TestCase):
    def test_a_step_the_stop_interrupted_is_not_reported_again(self):
        """browser_use 0.1.48 calls on_step_end after a step that Stop interrupted (it added no history
        item): serve must not report the previous step a second time."""
        sent: list[dict] = []
        server = TaskServer(factory=None)

        async def progress(task_id, status, message, step=None, final_result=..., details=None):
            sent.append({'status': status, 'step': step})

        server.progress = progress  # type: ignore[assignment]
        one = history([ActionResult(extracted_content='Typed', include_in_memory=True)])

        class FakeAgent:
            def __init__(self):
                self.state = SimpleNamespace(history=one, n_steps=1, consecutive_failures=0)
                self.settings = SimpleNamespace(max_failures=3)

            async def run(self, max_steps, on_step_end=None):
                self.state.n_steps = 2
                await on_step_end(self)  # step 1
                await on_step_end(self)  # the interrupted step 2: nothing new in the history
                self.state.history.history.append(self.state.history.history[0])
                self.state.n_steps = 3
                await on_step_end(self)  # step 2
                return self.state.history

        server.factory = lambda **kw: FakeAgent()

        class NoBrowser:
            def __init__(self, *a, **k):
                pass

            async def close(self):
                pass

        import browser_use_ext.serve as serve_mod

        original = serve_mod.TaskBrowser
        serve_mod.TaskBrowser = NoBrowser  # type: ignore[misc, assignment]
        try:
            asyncio.run(server._run('t1', {'user_prompt': 'type it', 'context': {}}))
        finally:
            serve_mod.TaskBrowser = original  # type: ignore[misc]
        self.assertEqual([s['step'] for s in sent if s['status'] == 'step'], [1, 2])
        self.assertEqual(sent[-1]['status'], 'incomplete')


if __name__ == '__main__':
    unittest.main()
