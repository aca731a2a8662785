"""Agent features of the installed real browser_use (0.1.48 or 0.1.40) through the shim, bridge and
extension in real Chromium: a custom ``@controller.action`` using ``browser.get_current_page()`` and
the Page facade, ``use_vision``, ``planner_llm``, ``validate_output``, ``sensitive_data``,
``allowed_domains``, ``max_failures``, ``rerun_history`` of a history the shim recorded,
pause/resume/stop, and ``Agent(browser_context=ExtensionBrowserContext(...))`` without ``browser``."""
import asyncio
import io
import json
import logging
import sys
import tempfile
import unittest
from pathlib import Path

from tests.real_agent_support import V40, LogCapture, RealAgentModule, actions_of, chat_openai, done, results_of
from tests.scripted_llm import Script, ScriptedChatModel, ScriptedOpenAIServer

M = RealAgentModule()
setUpModule, tearDownModule = M.hooks()
CLICK = 'click_element' if V40 else 'click_element_by_index'


async def run(agent, max_steps=10, before_close=None):
    """agent.run, then (optionally) a look at the page, then the context and browser close."""
    try:
        history = await agent.run(max_steps=max_steps)
        extra = await before_close(agent.browser_context) if before_close else None
        return history, extra
    finally:
        await agent.browser_context.close()
        if agent.browser is not None:
            await agent.browser.close()


async def field_value(ctx, selector):
    r = await ctx.call('get', {'selector': selector, 'what': 'value'})
    return ((r.get('outcome_details') or {}).get('result') or {}).get('value')


def make_agent(task, llm, *, browser_config=None, controller=None, **kw):
    from browser_use import Agent

    from browser_use_ext import ExtensionController
    return Agent(task, llm, browser=M.browser(**(browser_config or {})), controller=controller or ExtensionController(), **kw)


class CustomAction(unittest.TestCase):
    def test_a_registered_action_uses_get_current_page_and_the_page_facade(self):
        from browser_use.agent.views import ActionResult
        from pydantic import BaseModel

        from browser_use_ext import ExtensionController

        controller = ExtensionController()

        class Greeting(BaseModel):
            name: str

        @controller.action('Type a name into the name field and press the hello button', param_model=Greeting)
        async def greet(params: Greeting, browser):
            page = await browser.get_current_page()
            title = await page.title()
            field = await browser.get_locate_element_by_css_selector('#fullname')
            await field.fill(params.name)
            button = await browser.get_locate_element_by_css_selector('#hello')
            await button.click()
            out = await (await browser.get_locate_element_by_css_selector('#out')).inner_text()
            return ActionResult(extracted_content=f'{title} at {page.url}: {out}', include_in_memory=True)

        self.assertIn('greet', controller.registry.registry.actions)
        script = Script([[{'go_to_url': {'url': M.h.url('actions.html')}}], [{'greet': {'name': 'Grace'}}], done('greeted')])
        agent = make_agent('Greet Grace', ScriptedChatModel(script=script), controller=controller, use_vision=False)
        history, _ = M.run(run(agent))
        self.assertEqual(script.errors, [])
        self.assertTrue(history.is_done())
        self.assertEqual(actions_of(agent), ['go_to_url', 'greet', 'done'])
        self.assertEqual(results_of(agent)[1].extracted_content, f"Actions fixture at {M.h.url('actions.html')}: clicked Grace")
        # the model was offered the custom action with its description
        self.assertIn('Type a name into the name field', script.of_kind('agent')[0].raw)


class OutputModel(unittest.TestCase):
    def test_done_with_an_output_model_returns_its_json(self):
        """ExtensionController(output_model=...) builds the installed version's own done model: 0.1.48
        wraps the fields in data, 0.1.40 adds success beside them."""
        from pydantic import BaseModel

        from browser_use_ext import ExtensionController

        class Cheapest(BaseModel):
            name: str
            price: float
        fields = {'name': 'Mini Stapler', 'price': 3.99}
        answer = {**fields, 'success': True} if V40 else {'data': fields, 'success': True}
        script = Script([[{'done': answer}]])
        with ScriptedOpenAIServer(script) as server:
            agent = make_agent(
                'Name the cheapest stapler', chat_openai(server), controller=ExtensionController(output_model=Cheapest), use_vision=False
            )
            history, _ = M.run(run(agent))
        self.assertEqual(script.errors, [])
        self.assertTrue(history.is_done())
        self.assertEqual(Cheapest.model_validate_json(history.final_result()), Cheapest(**fields))


class Vision(unittest.TestCase):
    def test_the_model_receives_a_screenshot_on_every_step(self):
        script = Script([[{'go_to_url': {'url': M.h.url('shop/index.html')}}],
                         [{'go_to_url': {'url': M.h.url('actions.html')}}], done('seen')])
        with ScriptedOpenAIServer(script) as server:
            agent = make_agent('Look at two pages', chat_openai(server), use_vision=True)
            history, _ = M.run(run(agent))
        self.assertTrue(history.is_done())
        steps = script.of_kind('agent')
        self.assertEqual(len(steps), 3)
        for i, seen in enumerate(steps):
            with self.subTest(step=i + 1):
                self.assertEqual(len(seen.last_images), 1, 'the state message carries one screenshot')
                self.assertTrue(seen.last_images[0].startswith('data:image/png;base64,'))
                self.assertGreater(len(seen.last_images[0]), 1000)
        # and the history keeps each step's screenshot, as browser_use does
        self.assertTrue(all(item.state.screenshot for item in agent.state.history.history))


class Planner(unittest.TestCase):
    def test_the_planner_runs_every_step_on_the_state_and_its_plan_reaches_the_agent(self):
        plans = []

        def planner(seen):
            plans.append(seen.last_text)
            return json.dumps(
                {
                    'state_analysis': f'plan {len(plans)}',
                    'progress_evaluation': '50%',
                    'challenges': [],
                    'next_steps': ['go on'],
                    'reasoning': 'scripted plan',
                }
            )

        script = Script([[{'go_to_url': {'url': M.h.url('shop/index.html')}}], done('planned')], planner=planner)
        with ScriptedOpenAIServer(script) as server:
            agent = make_agent('Plan and go', chat_openai(server), use_vision=False, planner_llm=chat_openai(server), planner_interval=1)
            history, _ = M.run(run(agent))
        self.assertTrue(history.is_done())
        self.assertEqual(len(script.of_kind('planner')), 2)
        self.assertIn(M.h.url('shop/index.html'), plans[1])  # the planner saw the page state
        self.assertIn('plan 1', script.of_kind('agent')[1].raw)  # the plan went into the agent's messages


class ValidateOutput(unittest.TestCase):
    def test_a_rejected_done_keeps_the_agent_going_until_the_validator_accepts(self):
        verdicts = [{'is_valid': False, 'reason': 'the cart page was not checked'}, {'is_valid': True, 'reason': 'fine'}]
        seen_by_validator = []

        def validator(seen):
            seen_by_validator.append(seen)
            return verdicts.pop(0)
        script = Script([[{'go_to_url': {'url': M.h.url('shop/index.html')}}], done('too early'),
                         [{'go_to_url': {'url': M.h.url('shop/cart.html')}}], done('checked the cart')], validator=validator)
        with ScriptedOpenAIServer(script) as server:
            agent = make_agent('Check the cart', chat_openai(server), use_vision=False, validate_output=True)
            history, _ = M.run(run(agent))
        self.assertEqual(script.errors, [])
        self.assertEqual(len(seen_by_validator), 2)
        self.assertIn(M.h.url('shop/index.html'), seen_by_validator[0].last_text)  # it validated against the live page
        self.assertIn('The output is not yet correct. the cart page was not checked.', script.of_kind('agent')[2].raw)
        self.assertTrue(history.is_done())
        self.assertEqual(history.final_result(), 'checked the cart')


class SensitiveData(unittest.TestCase):
    SECRET = 'hunter2-Zq9-never-show-me'

    def test_the_secret_reaches_the_field_but_never_the_model_results_or_logs(self):
        capture = LogCapture()
        loggers = [logging.getLogger(n) for n in ('', 'browser_use', 'browser_use_ext')]
        levels = [lg.level for lg in loggers]
        for lg in loggers:  # debug too: nothing may log the secret at any level
            lg.addHandler(capture)
            lg.setLevel(logging.DEBUG)
        try:
            script = Script([
                [{'go_to_url': {'url': M.h.url('actions.html')}}],
                lambda s: [{'input_text': {'index': s.index_of('fullname'), 'text': '<secret>password</secret>'}}],
                lambda s: [{CLICK: {'index': s.index_of('Say hello')}}],  # the page then shows the secret in #out
                done('typed it'),
            ])
            with ScriptedOpenAIServer(script) as server:
                agent = make_agent(
                    'Log in',
                    chat_openai(server),
                    browser_config={'allowed_domains': ['127.0.0.1']},
                    use_vision=False,
                    sensitive_data={'password': self.SECRET},
                )
                history, (value, out) = M.run(
                    run(
                        agent,
                        before_close=lambda ctx: asyncio.gather(
                            field_value(ctx, '#fullname'), ctx.call('get', {'selector': '#out', 'what': 'text'})
                        ),
                    )
                )
        finally:
            for lg, level in zip(loggers, levels):
                lg.removeHandler(capture)
                lg.setLevel(level)
        self.assertEqual(script.errors, [])
        self.assertTrue(history.is_done())
        self.assertEqual(value, self.SECRET)  # the real value was typed
        self.assertEqual(out['outcome_details']['result']['value'], f'clicked {self.SECRET}')
        self.assertRegex(results_of(agent)[1].extracted_content, r'^⌨️  Input sensitive data into index \d+$')
        for seen in script.requests:
            self.assertNotIn(self.SECRET, seen.raw, f'{seen.kind} request carried the secret')
        # the page text the model saw shows the placeholder instead
        self.assertIn('clicked <secret>password</secret>', script.of_kind('agent')[3].last_text)
        self.assertNotIn(self.SECRET, json.dumps(history.model_dump(), default=str))
        for r in results_of(agent):
            self.assertNotIn(self.SECRET, str(r.extracted_content) + str(r.error))
        for line in capture.lines:
            self.assertNotIn(self.SECRET, line)
        self.assertGreater(len(capture.lines), 10)


class AllowedDomains(unittest.TestCase):
    def test_navigation_outside_the_allowed_domains_is_refused_and_the_page_stays(self):
        port = M.h.fixtures_url.rsplit(':', 1)[1].split('/')[0]
        outside = f'http://localhost:{port}/other.html'
        script = Script([
            [{'go_to_url': {'url': M.h.url('actions.html')}}],
            [{'go_to_url': {'url': outside}}],
            [{'open_tab': {'url': outside}}],
            [{'go_to_url': {'url': M.h.url('elsewhere.html')}}],
            lambda s: [{CLICK: {'index': s.index_of('Same page on localhost')}}],  # a link to the other host
            done('stayed'),
        ])
        with ScriptedOpenAIServer(script) as server:
            agent = make_agent(
                'Try to leave', chat_openai(server), browser_config={'allowed_domains': ['127.0.0.1']}, use_vision=False, max_failures=5
            )
            history, url = M.run(run(agent, before_close=lambda ctx: ctx.get_current_page()))
        self.assertTrue(history.is_done())
        steps = script.of_kind('agent')
        for seen in steps[2:4]:
            self.assertIn(f"Current url: {M.h.url('actions.html')}", seen.last_text)  # never left the allowed page
        for seen in steps[1:]:
            self.assertNotIn('The other page', seen.last_text)
        # the click that landed on localhost went back to the page it came from
        self.assertIn(f"Current url: {M.h.url('elsewhere.html')}", steps[5].last_text)
        self.assertNotIn(outside, [t.url for t in agent.state.history.history[-1].state.tabs])
        if not V40:  # 0.1.40 drops failed steps when google-api-core is missing (see test_real_agent_actions)
            self.assertIn('Navigation to non-allowed URL: ' + outside, steps[2].raw)  # the model was told why
            self.assertIn('non-allowed URL: ' + outside, steps[3].raw)
            self.assertIn('Navigation to non-allowed URL: ' + outside, steps[5].raw)

    def test_the_check_is_browser_use_own(self):
        from browser_use_ext import BrowserContextConfig, ExtensionBrowser
        ctx = ExtensionBrowser().__class__  # noqa: F841  (no connection needed for the check)
        from browser_use_ext.context import ExtensionBrowserContext

        c = ExtensionBrowserContext(
            browser=ExtensionBrowser(), config=BrowserContextConfig(allowed_domains=['example.com', '*.trusted.org'])
        )
        cases = {
            'https://example.com/x': True,
            'https://sub.example.com/x': V40,  # 0.1.40 allows subdomains; 0.1.48 only the exact host
            'https://user:pw@example.com:8443/': not V40,  # 0.1.40 reads the netloc up to the first ':' ('user')
            'https://example.com.evil.net/': False,
            'https://trusted.org/': not V40,  # 0.1.48 glob: *.trusted.org also matches the bare domain
            'https://a.trusted.org/': not V40,
            'about:blank': not V40,
            'chrome://settings': not V40,
            'data:text/html,hi': False,
            'file:///etc/passwd': False,
        }
        for url, allowed in cases.items():
            with self.subTest(url=url):
                self.assertEqual(c._is_url_allowed(url), allowed)


class MaxFailures(unittest.TestCase):
    def test_consecutive_failures_stop_the_agent(self):
        if V40:
            # 0.1.40's _handle_step_error imports google.api_core for any non-ValueError; without it the
            # failed step vanishes uncounted. A reply the model gets wrong (an unknown action) is counted.
            failing = {'current_state': {'evaluation_previous_goal': '', 'memory': '', 'next_goal': 'x'}, 'action': 'not a list'}
        else:
            failing = [{CLICK: {'index': 99999}}]  # "Element with index 99999 does not exist"
        script = Script([[{'go_to_url': {'url': M.h.url('actions.html')}}], failing, failing, failing, done('never reached')])
        with ScriptedOpenAIServer(script) as server:
            agent = make_agent('Fail', chat_openai(server), use_vision=False, max_failures=2, retry_delay=0)
            history, _ = M.run(run(agent))
        self.assertFalse(history.is_done())
        self.assertEqual(agent.state.consecutive_failures, 2)
        self.assertEqual(len(script.of_kind('agent')), 3)  # go_to_url, then two failures, then the stop
        errors = [e for e in history.errors() if e]
        self.assertEqual(len(errors), 2)
        if not V40:
            self.assertIn('Element with index 99999 does not exist', errors[0])


class RerunHistory(unittest.TestCase):
    def test_a_history_the_shim_recorded_replays_on_a_fresh_agent(self):
        from browser_use.agent.views import AgentHistoryList
        base = M.h.url('shop/')
        script = Script([
            [{'go_to_url': {'url': base + 'index.html'}}],
            lambda s: [{'input_text': {'index': s.index_of('Search products'), 'text': 'pen'}}],
            lambda s: [{CLICK: {'index': s.index_of('re:>Search ?/>')}}],
            done('searched'),
        ])
        with tempfile.TemporaryDirectory() as d, ScriptedOpenAIServer(script) as server:
            path = Path(d) / 'history.json'
            agent = make_agent('Search pens', chat_openai(server), use_vision=False)
            history, _ = M.run(run(agent))
            self.assertTrue(history.is_done())
            history.save_to_file(path)
            # each interacted element was recorded with its xpath and css selector
            clicked = [
                item.state.interacted_element[0]
                for item in history.history
                if item.model_output and CLICK in item.model_output.action[0].model_dump(exclude_unset=True)
            ]
            self.assertEqual(clicked[0].tag_name, 'button')

            replay_script = Script([])  # the replay must not ask the model anything
            agent2 = make_agent('Search pens', chat_openai(server), use_vision=False)
            loaded = AgentHistoryList.load_from_file(path, agent2.AgentOutput)

            async def replay():
                try:
                    await agent2.browser_context.get_session()
                    page = await agent2.browser_context.get_current_page()
                    await page.goto(M.h.url('other.html'))  # somewhere else first
                    results = await agent2.rerun_history(loaded, max_retries=2, delay_between_actions=0.2)
                    state = await agent2.browser_context.get_state()
                    return results, state.url
                finally:
                    await agent2.browser_context.close()
                    await agent2.browser.close()
            results, url = M.run(replay())
        self.assertEqual(replay_script.requests, [])
        self.assertEqual([r.error for r in results], [None] * len(results))
        contents = [r.extracted_content for r in results]
        self.assertEqual(contents[0], f'🔗  Navigated to {base}index.html')
        self.assertRegex(contents[1], r'^⌨️  Input pen into index \d+$')
        self.assertRegex(contents[2], r'^🖱️  Clicked button with index \d+: Search$')
        self.assertEqual(contents[3], 'searched')
        self.assertEqual(url, f'{base}results.html?q=pen')


class Tabs(unittest.TestCase):
    def test_tabs_lists_every_tab_but_another_sessions_tab_cannot_be_taken(self):
        """TabInfo lists all tabs of the browser, as browser_use does for its context; acting on a tab
        another agent session leases fails clearly (TAB_NOT_LEASED) and leaves the agent where it was;
        a tab nobody leases is leased on switch."""
        from browser_use_ext import ExtensionController
        a, b = M.browser(include_screenshot=False), M.browser(include_screenshot=False)
        controller = ExtensionController()

        async def go():
            ca, cb = await a.new_context(), await b.new_context()
            try:
                await ca.create_new_tab(M.h.url('other.html'))  # session A's tab
                await cb.create_new_tab(M.h.url('actions.html'))  # session B's tab
                tabs = await cb.get_tabs_info()
                theirs = next(t.page_id for t in tabs if t.url == M.h.url('other.html'))
                with self.assertRaises(RuntimeError) as cm:
                    await controller.registry.execute_action('switch_tab', {'page_id': theirs}, browser=cb)
                still = (await cb.get_current_page()).url
                await ca.close()  # A's session ends: its tab is nobody's now...
                await a.close()
                for attempt in range(10):  # the bridge ends A's session when it sees the close: allow it a moment
                    try:
                        r = await controller.registry.execute_action('switch_tab', {'page_id': theirs}, browser=cb)  # ...and B may take it
                        break
                    except RuntimeError:
                        if attempt == 9:
                            raise
                        await asyncio.sleep(0.2)
                now = (await cb.get_state()).url
                return [t.url for t in tabs], str(cm.exception), still, r.extracted_content, now
            finally:
                # Both sessions end however the test went (closing twice is harmless): a session A
                # left connected would keep holding the active tab, and every later agent of this
                # module would fail on it instead of on its own check.
                for closing in (ca, a, cb, b):
                    await closing.close()
        urls, error, still, switched, now = M.run(go())
        self.assertIn(M.h.url('other.html'), urls)
        self.assertIn(M.h.url('actions.html'), urls)
        self.assertRegex(error, r'^Error executing action switch_tab: Could not switch to tab \d+: .*another agent session')
        self.assertEqual(still, M.h.url('actions.html'))
        self.assertRegex(switched, r'^🔄  Switched to tab \d+$')
        self.assertEqual(now, M.h.url('other.html'))


class PauseResumeStop(unittest.TestCase):
    def test_pause_resume_and_stop_with_only_a_browser_context(self):
        """Agent(browser_context=ExtensionBrowserContext(...)) without browser=: resume() (0.1.48 calls
        browser._init() there) must not start Playwright; pause waits, resume continues, stop ends."""
        from browser_use import Agent

        from browser_use_ext import ExtensionBrowser, ExtensionBrowserContext, ExtensionController
        browser = M.browser()
        ctx = ExtensionBrowserContext(browser=browser, config=browser.config.new_context_config)
        events = []
        script = Script([[{'go_to_url': {'url': M.h.url('shop/index.html')}}],
                         [{'go_to_url': {'url': M.h.url('actions.html')}}],
                         [{'go_to_url': {'url': M.h.url('other.html')}}],
                         [{'go_to_url': {'url': M.h.url('shop/cart.html')}}],
                         done('not reached: stopped before')])
        with ScriptedOpenAIServer(script) as server:
            holder = {}

            async def on_step(state, model_output, n):
                # async: 0.1.40 awaits the callback. n is n_steps, which the versions count differently.
                agent = holder['agent']
                events.append(state.url)
                if len(events) == 2:
                    agent.pause()  # the model answered step 2; its action must not run
                    asyncio.get_event_loop().call_later(0.5, agent.resume)
                if len(events) == 4:
                    agent.stop()

            agent = Agent(
                'Pause and stop',
                chat_openai(server),
                browser_context=ctx,
                controller=ExtensionController(),
                use_vision=False,
                register_new_step_callback=on_step,
            )
            holder['agent'] = agent
            self.assertIs(agent.browser, browser)
            self.assertIsInstance(agent.browser, ExtensionBrowser)
            saved_stdin = sys.stdin
            sys.stdin = io.StringIO('\n')  # 0.1.48 waits for [Enter] on stdin while paused; this is the person pressing it
            try:
                async def go():
                    try:
                        return await agent.run(max_steps=10)
                    finally:
                        await ctx.close()
                        await browser.close()
                history = M.run(go())
            finally:
                sys.stdin = saved_stdin
        self.assertIsNone(browser.playwright)
        self.assertIsNone(browser.playwright_browser)
        self.assertTrue(agent.state.stopped)
        self.assertFalse(history.is_done())
        results = [r.error or r.extracted_content for r in results_of(agent)]
        # step 1 ran; step 2 was paused after the model answered (its action never ran, and the model
        # is told so next time); after resume step 3 ran; step 4 was stopped before acting
        self.assertEqual(results, [f"🔗  Navigated to {M.h.url('shop/index.html')}", f"🔗  Navigated to {M.h.url('other.html')}"])
        self.assertEqual(len(events), 4)
        self.assertIn('The agent was paused', script.of_kind('agent')[2].raw)  # wording differs by version
        self.assertNotIn(M.h.url('actions.html'), events[1:])  # step 2's navigation never ran


if __name__ == '__main__':
    unittest.main()
