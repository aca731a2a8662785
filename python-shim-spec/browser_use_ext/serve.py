"""``python -m browser_use_ext serve``: runs tasks a person types in the extension's side panel with
the real browser_use Agent (the bridge relays the person's tasks to agents that accept them).

Connects to the bridge with capability ``accepts_tasks``; for each ``user_task_submission`` it runs an
Agent (browser_use's own, with an LLM chosen by flags or environment: llm.py) on an
ExtensionBrowser and streams ``task_progress``: accepted -> running -> step (each with the agent's
evaluation, goal and every action with its result) ... -> done | incomplete | failed | stopped (done only
when the agent's done action says it succeeded: see task_outcome). ``task_control``
stop ends the run at once; redirect injects the person's text as the agent's new task
(browser_use's ``add_new_task``). At start-up it checks that browser_use and the LLM are usable and
says what is missing. Ctrl+C stops running tasks, releases their tabs and exits within 2 s.

``--agent module:function`` replaces the Agent with a factory called with any of these keyword
arguments it declares: ``task`` (str), ``browser``, ``controller``, ``context`` (the submission's page
context dict), ``llm``, ``on_step`` (callable(step: int, message: str, details: dict | None)). It
returns an object with ``async run(max_steps=...)`` or an awaitable whose value is the final result.
"""
from __future__ import annotations

import argparse
import asyncio
import importlib
import inspect
import json
import logging
import os
import re
import signal
import sys
from typing import Any, Callable, Optional

from . import action_words, telemetry
from . import llm as llm_setup
from ._protocol_codes import ErrorCode
from .backoff import Backoff
from .browser import ExtensionBrowser
from .config import BrowserContextConfig, ExtensionBrowserConfig
from .controller import ExtensionController
from .task_redirects import RedirectInbox
from .transport import BridgeConnection, BridgeError

logger = logging.getLogger('browser_use_ext.serve')

CLIENT_NAME = 'browser-use-ext-python-serve'
SHUTDOWN_BUDGET_S = 1.5


def task_text(task: str, context: dict) -> str:
    """The person's words plus seed 004's context bundle, as the Agent's task."""
    parts = [task]
    if context.get('url'):
        parts.append(f"The person is looking at {context.get('url')} ({context.get('page_title') or 'untitled'}), tab "
                     f"{context.get('active_tab_id')}.")
    if context.get('selected_text'):
        parts.append(f"Text they selected: {context['selected_text']!r}.")
    el = context.get('element')
    if isinstance(el, dict):
        what = el.get('role') or el.get('tag')
        name = el.get('name') or el.get('text')
        parts.append(
            f'They asked about this element: {what}'
            + (f' "{name}"' if name else '')
            + (f' (selector {el["selector"]})' if el.get('selector') else '')
            + '.'
        )
    if context.get('viewport_summary'):
        parts.append('Elements visible on their screen:\n' + str(context['viewport_summary'])[:3000])
    return '\n'.join(parts)


def step_details(agent: Any) -> Optional[dict]:
    """browser_use 0.1.48's last history item as task_progress.step_details."""
    history = getattr(getattr(agent, 'state', None), 'history', None)
    items = getattr(history, 'history', None) or []
    if not items:
        return None
    item = items[-1]
    out: dict[str, Any] = {'url': getattr(getattr(item, 'state', None), 'url', None)}
    brain = getattr(getattr(item, 'model_output', None), 'current_state', None)
    for field in ('evaluation_previous_goal', 'memory', 'next_goal'):
        value = getattr(brain, field, None)
        if isinstance(value, str):
            out[field] = value[:5000]
    actions = []
    chosen = getattr(getattr(item, 'model_output', None), 'action', None) or []
    results = list(getattr(item, 'result', None) or [])
    elements = list(getattr(getattr(item, 'state', None), 'interacted_element', None) or [])
    nodes = _selector_map(agent)
    secrets = getattr(agent, 'sensitive_data', None)
    secrets = secrets if isinstance(secrets, dict) else None
    for i, action in enumerate(chosen[:50]):
        dumped = action.model_dump(exclude_unset=True) if hasattr(action, 'model_dump') else {}
        name, params = next(((k, v) for k, v in dumped.items() if v is not None), ('unknown', {}))
        r = results[i] if i < len(results) else None
        element = elements[i] if i < len(elements) else None
        label, sensitive = action_words.history_element_words(element, nodes.get(getattr(element, 'highlight_index', None)))
        entry: dict[str, Any] = {
            'name': str(name)[:100],
            'params': params if isinstance(params, dict) else {'value': params},
            'description': action_words.describe(str(name), params, label, sensitive, secrets),
        }
        if r is not None:
            entry['result'] = (str(r.extracted_content)[:5000] if getattr(r, 'extracted_content', None) else None)
            entry['error'] = (str(r.error)[:5000] if getattr(r, 'error', None) else None)
            if getattr(r, 'is_done', False):
                # The answer is the task's final_result, shown once with its outcome: not also here.
                entry['is_done'] = True
                entry['result'] = None
        actions.append(entry)
    # An error before any action ran (the LLM's answer did not parse, the page failed) is a result too.
    if not chosen and results and getattr(results[-1], 'error', None):
        actions.append({'name': 'step', 'params': {}, 'description': action_words.describe('step', {}), 'result': None,
                        'error': str(results[-1].error)[:5000]})
    out['actions'] = json.loads(json.dumps(actions, default=str))
    return out


def _selector_map(agent: Any) -> dict:
    """The selector map of the last state the agent took (index -> DOMElementNode), or {}."""
    try:
        session = getattr(getattr(agent, 'browser_context', None), 'session', None)
        selector_map = getattr(getattr(session, 'cached_state', None), 'selector_map', None)
        return selector_map if isinstance(selector_map, dict) else {}
    except Exception:
        return {}


def default_agent_factory(
    task: str,
    browser: ExtensionBrowser,
    controller: ExtensionController,
    context: dict,
    llm: Any,
    use_vision: bool = True,
    tool_calling_method: str = 'auto',
    memory: bool = False,
) -> Any:
    """browser_use's own Agent on the person's Chrome."""
    from browser_use import Agent  # type: ignore

    kwargs: dict[str, Any] = {
        'task': task_text(task, context),
        'llm': llm,
        'browser': browser,
        'controller': controller,
        'use_vision': use_vision,
        'tool_calling_method': tool_calling_method,
    }
    # 0.1.45+ summarises with mem0 by default, which embeds with OpenAI whatever the LLM is (it fails
    # without OPENAI_API_KEY); off unless --memory.
    if 'enable_memory' in inspect.signature(Agent.__init__).parameters:
        kwargs['enable_memory'] = memory
    return Agent(**kwargs)


def keep_signals_for_serve() -> None:
    """browser_use 0.1.48's Agent.run installs its own SIGINT handler (first Ctrl+C pauses and waits
    for Enter on stdin) and removes every handler when it returns; under serve, Ctrl+C must stop the
    tasks and exit, so the Agent's SignalHandler does nothing here."""
    try:
        import browser_use.utils as bu_utils  # type: ignore
    except Exception:
        return
    original = getattr(bu_utils, 'SignalHandler', None)
    if original is None or getattr(original, '_bux_serve', False):
        return

    class ServeOwnsSignals(original):  # type: ignore[misc, valid-type]
        _bux_serve = True

        def register(self) -> None:
            return None

        def unregister(self) -> None:
            return None

        def wait_for_resume(self) -> None:
            return None

        def reset(self) -> None:
            return None

    bu_utils.SignalHandler = ServeOwnsSignals


def load_factory(spec: Optional[str]) -> Optional[Callable[..., Any]]:
    if not spec:
        return None
    module_name, _, attr = spec.partition(':')
    if not attr:
        raise SystemExit(f'--agent expects module:function, got {spec!r}')
    return getattr(importlib.import_module(module_name), attr)


def _call_with_supported(fn: Callable[..., Any], **kwargs: Any) -> Any:
    sig = inspect.signature(fn)
    if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in sig.parameters.values()):
        return fn(**kwargs)
    return fn(**{k: v for k, v in kwargs.items() if k in sig.parameters})


def llm_model_name(llm: Any) -> Optional[str]:
    """The model a LangChain chat model drives (ChatOpenAI: model_name, ChatAnthropic and others: model), for the side panel."""
    for attr in ('model_name', 'model'):
        name = getattr(llm, attr, None)
        if isinstance(name, str) and name:
            return name
    return None


def task_session_name(prompt: str) -> str:
    """hello.client.name of the session a task's Agent drives the tabs with. serve itself is one session
    (it takes the person's tasks); each task's ExtensionBrowser is another, holding the task's tabs. The
    side panel, the tab group and the overlay name an agent by its client name, so the task's session
    says in words what it is: the task it runs for serve (the person's first words, clipped)."""
    words = ' '.join(prompt.split())
    short = words if len(words) <= 40 else words[:39].rstrip() + '…'
    return f'browser-use-ext serve, running "{short}"'[:100]


class TaskBrowser(ExtensionBrowser):
    """An ExtensionBrowser whose bridge sessions carry the task's name (task_session_name), and whose
    first session starts on ``start_tab_id``: one get_state on that tab leases it and makes it the
    session's current tab, so the Agent's first state (which names no tab) is of the page the person
    was looking at. If that tab cannot be had (closed meanwhile, held by another agent) the session
    starts as any other, on the browser's active tab, and the log says why."""

    def __init__(
        self,
        config: ExtensionBrowserConfig,
        client_name: str,
        start_tab_id: Optional[int] = None,
        task_id: Optional[str] = None,
        client_model: Optional[str] = None,
    ) -> None:
        super().__init__(config)
        self.client_name = client_name
        self.start_tab_id = start_tab_id
        # The task this browser carries out (hello.task_id): the bridge shows its session under serve's.
        self.task_id = task_id
        self.client_model = client_model

    async def _connect(self, capabilities: Optional[list[str]] = None, session_token: Optional[str] = None) -> BridgeConnection:
        conn = await BridgeConnection.connect(
            session_token=session_token,
            url=self.config.bridge_url,
            secret=self.config.agent_secret,
            capabilities=capabilities or [],
            client_name=self.client_name,
            default_timeout_ms=self.config.action_timeout_ms,
            max_tabs=self.config.max_tabs,
            browser_name=self.config.browser_name,
            task_id=self.task_id,
            client_model=self.client_model,
        )
        self._connections.append(conn)
        tab, self.start_tab_id = self.start_tab_id, None
        if tab is not None:
            try:
                r = await conn.call('get_state', {'include_screenshot': False, 'highlight_elements': False}, tab_id=tab)
            except BridgeError as e:
                r = {'status': 'error', 'error_info': {'message': str(e)}}
            if r.get('status') != 'success':
                logger.warning('could not start on the tab the person was looking at (%s): %s; using the active tab', tab,
                               (r.get('error_info') or {}).get('message'))
        return conn


class TaskServer:
    def __init__(
        self,
        factory: Optional[Callable[..., Any]] = None,
        bridge_url: Optional[str] = None,
        agent_secret: Optional[str] = None,
        browser_name: Optional[str] = None,
        max_steps: int = 50,
        llm: Any = None,
        use_vision: bool = True,
        tool_calling_method: str = 'auto',
        memory: bool = False,
    ) -> None:
        self.factory = factory or default_agent_factory
        self.bridge_url = bridge_url
        self.agent_secret = agent_secret
        # The browser whose side panel's tasks this server runs (None: BROWSER_USE_EXT_BROWSER, else the bridge's choice).
        self.browser_name = browser_name
        self.max_steps = max_steps
        self.llm = llm
        self.use_vision = use_vision
        self.tool_calling_method = tool_calling_method
        self.memory = memory
        self.conn: Optional[BridgeConnection] = None
        self.tasks: dict[str, asyncio.Task] = {}
        self.agents: dict[str, Any] = {}
        # Tasks the person stopped: browser_use turns a cancelled step into InterruptedError and
        # returns normally, so the outcome is decided by this, not by how run() ended.
        self.stop_requested: set[str] = set()
        # Redirects wait for the model's next request (task_redirects.py), per task.
        self.redirects: dict[str, RedirectInbox] = {}
        # Tasks whose agent is carrying out its step's actions right now: a Stop then lets the action
        # end (browser_use runs no further one), so the step that ran is reported before "stopped".
        self.acting: set[str] = set()
        self.stopping = False

    async def connect(self) -> BridgeConnection:
        # Handlers first: the bridge may relay a waiting task right after hello_ack.
        conn = BridgeConnection(url=self.bridge_url, secret=self.agent_secret, capabilities=['accepts_tasks'], client_name=CLIENT_NAME,
                                client_model=llm_model_name(self.llm), browser_name=self.browser_name)
        conn.on('user_task_submission', self._on_task)
        conn.on('task_control', self._on_control)
        self.conn = conn
        await conn.open()
        return conn

    def browser_for(self, context: dict, prompt: str, task_id: Optional[str] = None) -> 'ExtensionBrowser':
        """The task's own browser (its own bridge session, named for the task), starting on the tab the
        person was looking at when they submitted the task (the context bundle's active_tab_id), not
        on whatever tab is active when the Agent takes its first state."""
        # The task runs in the browser whose panel it was typed in: the one this server's session works in.
        bound = (self.conn.browser or {}).get('name') if self.conn else None
        config = ExtensionBrowserConfig(bridge_url=self.bridge_url, agent_secret=self.agent_secret, browser_name=bound or self.browser_name)
        if not self.use_vision:
            config.new_context_config = BrowserContextConfig(include_screenshot=False)
        tab = context.get('active_tab_id')
        start = tab if isinstance(tab, int) and not isinstance(tab, bool) and tab > 0 else None
        return TaskBrowser(config, task_session_name(prompt), start_tab_id=start, task_id=task_id, client_model=llm_model_name(self.llm))

    async def progress(
        self, task_id: str, status: str, message: str, step: Optional[int] = None, final_result: Any = ..., details: Optional[dict] = None
    ) -> None:
        msg: dict[str, Any] = {'type': 'task_progress', 'task_id': task_id, 'status': status, 'message': message[:20000]}
        if step is not None:
            msg['step'] = step
        if details:
            msg['step_details'] = details
        if final_result is not ...:
            msg['final_result'] = None if final_result is None else str(final_result)[:200000]
        if self.conn is not None:
            try:
                await self.conn.send(msg)
            except BridgeError as e:
                logger.warning('could not report progress of %s: %s', task_id, e)
            except Exception as e:  # the socket closed under us (shutdown)
                logger.debug('progress of %s not sent: %s', task_id, e)

    def _on_task(self, m: dict) -> None:
        task_id = str(m.get('task_id') or f'task-{len(self.tasks) + 1}')
        if self.stopping:
            asyncio.ensure_future(
                self.progress(task_id, 'failed', 'The agent is shutting down; submit the task again once it runs.', final_result=None)
            )
            return
        self.tasks[task_id] = asyncio.ensure_future(self._run(task_id, m))

    def _on_control(self, m: dict) -> None:
        task_id = str(m.get('task_id'))
        agent = self.agents.get(task_id)
        if m.get('command') == 'stop':
            logger.info('stop requested for %s', task_id)
            self.stop_requested.add(task_id)
            stopped = False
            if agent is not None and hasattr(agent, 'stop'):
                try:
                    agent.stop()
                    stopped = True
                except Exception:
                    pass
            t = self.tasks.get(task_id)
            # Between actions (getting the state, waiting for the model) the task ends at once; during an
            # action browser_use's own stop flag ends it once that action is done (it starts no other).
            if t is not None and not t.done() and not (stopped and task_id in self.acting):
                t.cancel()
            return
        if m.get('command') == 'redirect':
            text = str(m.get('text', ''))
            inbox = self.redirects.get(task_id)
            if inbox is not None or (agent is not None and hasattr(agent, 'add_new_task')):
                if inbox is not None:
                    inbox.push(text)
                else:
                    agent.add_new_task(text)
                logger.info('task %s redirected: %s', task_id, text)
                asyncio.ensure_future(self.progress(task_id, 'running', f'Redirected: {text} (the agent takes it at its next step)'))
            else:
                asyncio.ensure_future(self.progress(task_id, 'running', 'This agent cannot change its task while running; stop it and '
                                                                        'submit the new task.'))

    async def _run(self, task_id: str, m: dict) -> None:
        prompt = str(m.get('user_prompt', ''))
        context = dict(m.get('context') or {})
        logger.info('task %s: %s', task_id, prompt[:200])
        keep_signals_for_serve()
        # The person's log reads as a conversation: their task is already there, so these say only that it began.
        await self.progress(task_id, 'accepted', 'Started')
        browser = self.browser_for(context, prompt, task_id)
        loop = asyncio.get_running_loop()
        step_sends: list[asyncio.Task] = []

        def on_step(n: int, message: str, details: Optional[dict] = None) -> None:
            # May be called synchronously from an agent callback: send in the background, in order,
            # and flush before the final status so a step never arrives after "done".
            step_sends.append(
                loop.create_task(self.progress(task_id, 'step', message or f'step {n}', step=max(0, int(n)), details=details))
            )

        async def flush() -> None:
            if step_sends:
                await asyncio.gather(*step_sends, return_exceptions=True)

        reported = {'items': 0}

        async def on_step_end(agent: Any) -> None:
            # A step that added nothing to the history (browser_use 0.1.48 returns from a step the
            # person's Stop interrupted, and still calls this hook) is no new step: reporting it would
            # repeat the previous one under its number.
            items = len(getattr(getattr(getattr(agent, 'state', None), 'history', None), 'history', None) or [])
            if items <= reported['items']:
                return
            reported['items'] = items
            details = step_details(agent)
            n = max(0, int(getattr(getattr(agent, 'state', None), 'n_steps', 1)) - 1)
            goal = (details or {}).get('next_goal') or f'step {n}'
            on_step(n, goal, details)

        try:
            made = _call_with_supported(
                self.factory,
                task=prompt,
                browser=browser,
                controller=ExtensionController(),
                context=context,
                on_step=on_step,
                llm=self.llm,
                use_vision=self.use_vision,
                tool_calling_method=self.tool_calling_method,
                memory=self.memory,
            )
            if inspect.isawaitable(made) and not hasattr(made, 'run'):
                made = await made
            await self.progress(task_id, 'running', 'Working')
            if hasattr(made, 'run'):
                self.agents[task_id] = made
                inbox = RedirectInbox()
                if inbox.attach(made):
                    self.redirects[task_id] = inbox
                self._watch_actions(task_id, made)
                run_kwargs: dict[str, Any] = {'max_steps': self.max_steps}
                params = inspect.signature(made.run).parameters
                if 'on_step_end' in params:
                    run_kwargs['on_step_end'] = on_step_end
                result = await made.run(**run_kwargs)
                status, message, final = task_outcome(made, result, self.max_steps)
            else:
                status, message, final = 'done', 'Done', made
            await flush()
            if task_id in self.stop_requested:
                await self.progress(task_id, 'stopped', 'Stopped.' if not self.stopping else 'Stopped: the agent process is shutting '
                                                                                             'down.', final_result=None)
            else:
                await self.progress(task_id, status, message, final_result=final)
        except asyncio.CancelledError:
            await flush()
            await self.progress(
                task_id, 'stopped', 'Stopped.' if not self.stopping else 'Stopped: the agent process is shutting down.', final_result=None
            )
        except Exception as e:
            await flush()
            if task_id in self.stop_requested:
                await self.progress(task_id, 'stopped', 'Stopped.', final_result=None)
            else:
                logger.exception('task %s failed', task_id)
                await self.progress(task_id, 'failed', f'{type(e).__name__}: {e}', final_result=None)
        finally:
            self.stop_requested.discard(task_id)
            self.redirects.pop(task_id, None)
            self.acting.discard(task_id)
            self.agents.pop(task_id, None)
            self.tasks.pop(task_id, None)
            # A normal close ends the task's bridge session: its tabs are free at once.
            await browser.close()

    def _watch_actions(self, task_id: str, agent: Any) -> None:
        """Marks the task as acting while browser_use's multi_act runs (see self.acting)."""
        original = getattr(agent, 'multi_act', None)
        if not callable(original) or not inspect.iscoroutinefunction(original):
            return

        async def multi_act(*args: Any, **kwargs: Any) -> Any:
            self.acting.add(task_id)
            try:
                return await original(*args, **kwargs)
            finally:
                self.acting.discard(task_id)

        try:
            agent.multi_act = multi_act
        except Exception:
            pass

    async def serve_forever(self) -> None:
        backoff = Backoff(1.0, 30.0)
        while not self.stopping:
            try:
                conn = await self.connect()
                logger.info('connected to %s; waiting for tasks from the extension side panel', conn.url)
                backoff.reset()
                assert conn.closed is not None
                await conn.closed.wait()
                if self.stopping:
                    return
                if conn.ended is not None and conn.ended.code in (ErrorCode.UNAUTHORIZED, ErrorCode.VERSION_MISMATCH):
                    # The bridge refused the secret (also after reading it again) or speaks another
                    # version: waiting cannot fix it; main() prints the one line that says what to do.
                    raise conn.ended
                logger.warning('bridge connection closed; reconnecting')
            except BridgeError as e:
                if e.code in (ErrorCode.UNAUTHORIZED, ErrorCode.VERSION_MISMATCH):
                    raise
                logger.warning('%s; retrying in %.0f s', e, backoff.next_s)
            await backoff.sleep()

    async def shutdown(self) -> None:
        """Ctrl+C: stop every task (each reports stopped and closes its bridge session, freeing its
        tabs), then close the control connection; all within SHUTDOWN_BUDGET_S."""
        self.stopping = True
        self.stop_requested.update(self.tasks.keys())
        running = list(self.tasks.values())
        for agent in list(self.agents.values()):
            try:
                agent.stop()
            except Exception:
                pass
        for t in running:
            t.cancel()
        if running:
            await asyncio.wait(running, timeout=SHUTDOWN_BUDGET_S)
        if self.conn is not None:
            try:
                await asyncio.wait_for(self.conn.close(), 0.4)
            except Exception:
                pass


def _final_of(agent: Any, result: Any) -> Any:
    for source in (result, agent):
        fn = getattr(source, 'final_result', None)
        if callable(fn):
            try:
                return fn()
            except Exception:
                continue
    return result if isinstance(result, str) else None


def _call(obj: Any, name: str) -> Any:
    fn = getattr(obj, name, None)
    if not callable(fn):
        return None
    try:
        return fn()
    except Exception:
        return None


def _last_error(history: Any) -> Optional[str]:
    for item in reversed(list(getattr(history, 'history', None) or [])):
        for r in reversed(list(getattr(item, 'result', None) or [])):
            if getattr(r, 'error', None):
                return str(r.error).strip().splitlines()[-1][:2000]
    return None


def task_outcome(agent: Any, result: Any, max_steps: int) -> tuple[str, str, Any]:
    """(status, message, final_result) of a finished run, from browser_use's history (0.1.40 and 0.1.48
    alike: AgentHistoryList.is_done() and is_successful(), the done action's ``success`` as the last
    result's flag). done only when the agent said it reached the goal; a done with success false
    ("I cannot find the form fields") or a run that used all its steps is incomplete, with the
    agent's own last words; a run that ended on repeated errors is failed."""
    final = _final_of(agent, result)
    history = result if callable(getattr(result, 'is_done', None)) else getattr(getattr(agent, 'state', None), 'history', None)
    if not callable(getattr(history, 'is_done', None)):
        # A factory's own agent that returns its answer, not a history: it has no way to say otherwise.
        return 'done', 'Done', final
    if _call(history, 'is_done'):
        success = _call(history, 'is_successful')
        if success is False:
            # The agent's own words are the final_result, shown once beside this status.
            return 'incomplete', 'Not completed: the agent says it did not reach the goal.', final
        # True, or a done action without a success flag (a custom controller's): the agent ended with done.
        return 'done', 'Done', final
    # Not done: browser_use's run ends so after max_steps, or after max_failures errors in a row.
    failures = getattr(getattr(agent, 'state', None), 'consecutive_failures', 0)
    max_failures = getattr(getattr(agent, 'settings', None), 'max_failures', None)
    if isinstance(failures, int) and isinstance(max_failures, int) and failures >= max_failures:
        error = _last_error(history)
        return 'failed', f'The agent stopped after {failures} errors in a row{f": {error}" if error else "."}'[:20000], final
    return ('incomplete', f'Not completed: the agent used all its {max_steps} steps without finishing. Give it a smaller task, or '
                          'more steps (serve --max-steps).', final)


def preflight(args: argparse.Namespace) -> Any:
    """What `serve` needs, checked before connecting; prints what is missing and exits 2."""
    if args.agent:
        return None
    try:
        import browser_use  # type: ignore  # noqa: F401
        from browser_use import Agent  # type: ignore  # noqa: F401
    except ImportError as e:
        raise SystemExit(f'error: serve runs browser_use\'s Agent, and browser_use is not importable ({e}). Install it: pip install '
                         '"browser-use==0.1.48" (0.1.40 to 0.1.48 work), or pass --agent module:function.') from e
    version = getattr(sys.modules.get('browser_use'), '__version__', None)
    if version is None:
        try:
            from importlib.metadata import version as dist_version
            version = dist_version('browser-use')
        except Exception:
            version = '?'
    logger.info('browser_use %s: ok', version)
    try:
        choice = llm_setup.choose(args.llm, args.model, args.base_url, args.api_key)
        model = llm_setup.build(choice)
        if not args.skip_llm_check:
            asyncio.run(llm_setup.check(model, choice))
            logger.info('LLM %s: ok (it answered)', choice.describe())
        else:
            logger.info('LLM %s: not checked (--skip-llm-check)', choice.describe())
    except llm_setup.LLMSetupError as e:
        raise SystemExit(f'error: {e}') from e
    return model


# The options every `browser-use-ext` command shares, in the same words, order and column as the npm
# CLI's help (bridge/cli/shared-options.ts; test/integration/cli-help.spec.ts checks they are identical).
HELP_COLUMN = 28
SHARED_ROWS = (
    ('--bridge-url <url>', "the bridge's address (default $BROWSER_USE_EXT_BRIDGE_URL, else ws://127.0.0.1:8765)"),
    ('--config-dir <dir>', 'where secrets.json lives (default $BROWSER_USE_EXT_CONFIG_DIR, else ~/.config/browser-use-ext)'),
    ('--log-level <lvl>', 'silent | error | warn | info | debug (default info)'),
    ('-h, --help', 'show this help (the version: browser-use-ext --version)'),
)
LOG_LEVELS = {'silent': logging.CRITICAL + 10, 'error': logging.ERROR, 'warn': logging.WARNING, 'warning': logging.WARNING,
              'info': logging.INFO, 'debug': logging.DEBUG, 'critical': logging.CRITICAL}
COMMAND = 'browser-use-ext serve'


def _help_row(flags: str, text: str) -> str:
    head = '  ' + flags
    return f'{head}\n{" " * HELP_COLUMN}{text}' if len(head) + 2 > HELP_COLUMN else head.ljust(HELP_COLUMN) + text


SERVE_ROWS = (
    ('--llm <provider>', 'openai | anthropic | google | ollama (default $BROWSER_USE_EXT_LLM, else the first of OPENAI_API_KEY, '
                         'ANTHROPIC_API_KEY, GOOGLE_API_KEY, OLLAMA_HOST that is set)'),
    ('--model <name>', 'model (default $BROWSER_USE_EXT_MODEL, else gpt-4o / claude-3-5-sonnet-latest / gemini-2.0-flash / qwen2.5:7b)'),
    ('--base-url <url>', 'OpenAI-compatible server (http://host:port/v1) or Ollama URL (default $BROWSER_USE_EXT_LLM_BASE_URL, '
                         '$OPENAI_BASE_URL, $OLLAMA_HOST)'),
    ('--api-key <key>', "API key (default $BROWSER_USE_EXT_LLM_API_KEY or the provider's usual variable)"),
    ('--no-vision', 'do not send screenshots to the LLM (text-only models, faster)'),
    ('--tool-calling-method <m>', 'auto | function_calling | json_mode | raw | tools: how browser_use asks for actions (default auto)'),
    ('--memory', 'browser_use 0.1.45+ procedural memory (mem0; needs OPENAI_API_KEY for its embeddings)'),
    ('--skip-llm-check', 'do not ask the LLM a test question at start-up'),
    ('--telemetry', "send browser_use's anonymous usage telemetry (off unless this or ANONYMIZED_TELEMETRY=true)"),
    ('--agent <module:function>', "an agent factory instead of browser_use's Agent"),
    ('--max-steps <n>', 'steps per task at most (default 50)'),
    # The same row as the npm CLI's --browser (bridge/cli/shared-options.ts BROWSER_OPTION).
    ('--browser <name>', 'the browser to work in, by the name its side panel shows '
                         '(default $BROWSER_USE_EXT_BROWSER, else the one used last)'),
)


def serve_help() -> str:
    return (
        'Usage: python -m browser_use_ext serve [options]\n'
        f'       {COMMAND} [options]   (the npm CLI runs the line above)\n\n'
        "Runs the tasks a person types in the browser-use-ext side panel with browser_use's Agent, starting on\n"
        'the tab they were looking at, and reports each step to the panel.\n\n'
        'Options:\n'
        + '\n'.join(_help_row(f, t) for f, t in (*SERVE_ROWS, *SHARED_ROWS))
        + '\n\nThe agent secret comes from $BROWSER_USE_EXT_AGENT_SECRET, else the bridge\'s secrets.json in the config dir.\n'
    )


class _Help(argparse.Action):
    def __init__(self, option_strings: list[str], dest: str = argparse.SUPPRESS, default: Any = argparse.SUPPRESS, help: Any = None):
        super().__init__(option_strings=option_strings, dest=dest, default=default, nargs=0, help=help)

    def __call__(self, parser: argparse.ArgumentParser, namespace: Any, values: Any, option_string: Optional[str] = None) -> None:
        sys.stdout.write(serve_help())
        parser.exit(0)


class _OneLineParser(argparse.ArgumentParser):
    """A refused argument is one line that names it and --help (exit 2), as in every browser-use-ext command."""

    def error(self, message: str) -> Any:  # type: ignore[override]
        m = re.match(r'unrecognized arguments: (.*)', message)
        line = f'unknown option {m.group(1)}' if m else message
        self.exit(2, f'{COMMAND}: {line}; see {COMMAND} --help\n')


def build_parser() -> argparse.ArgumentParser:
    parser = _OneLineParser(prog='python -m browser_use_ext', description='browser-use-ext Python shim')
    sub = parser.add_subparsers(dest='command', required=True, parser_class=_OneLineParser)
    s = sub.add_parser('serve', add_help=False, help="run the tasks a person types in the extension side panel with browser_use's Agent")
    s.add_argument('-h', '--help', action=_Help)
    s.add_argument('--bridge-url', default=None)
    s.add_argument('--config-dir', default=None)
    s.add_argument('--log-level', default='info', type=str.lower, choices=sorted(LOG_LEVELS))
    s.add_argument('--llm', choices=llm_setup.PROVIDERS, default=None)
    s.add_argument('--model', default=None)
    s.add_argument('--base-url', default=None)
    s.add_argument('--api-key', default=None)
    s.add_argument('--no-vision', action='store_true')
    s.add_argument('--tool-calling-method', default='auto', choices=['auto', 'function_calling', 'json_mode', 'raw', 'tools'])
    s.add_argument('--memory', action='store_true')
    s.add_argument('--skip-llm-check', action='store_true')
    s.add_argument('--telemetry', action='store_true')
    s.add_argument('--agent', default=None)
    s.add_argument('--max-steps', type=int, default=50)
    s.add_argument('--browser', default=None)
    return parser


def console_main() -> int:
    """The `browser-use-ext-serve` console script: `serve` is implied."""
    argv = sys.argv[1:]
    return main(argv if argv[:1] == ['serve'] else ['serve', *argv])


def main(argv: Optional[list[str]] = None) -> int:
    args = build_parser().parse_args(argv)
    logging.basicConfig(level=LOG_LEVELS[args.log_level], format='%(asctime)s %(levelname)s %(name)s: %(message)s')
    if args.config_dir:
        # Where the agent secret is read from, also when it is read again after a refusal (credentials.py).
        os.environ['BROWSER_USE_EXT_CONFIG_DIR'] = args.config_dir
    # Before preflight: it makes browser_use's first objects, which read the choice.
    logger.info(telemetry.decide(args.telemetry))
    model = preflight(args)
    server = TaskServer(
        load_factory(args.agent),
        bridge_url=args.bridge_url,
        browser_name=args.browser,
        max_steps=args.max_steps,
        llm=model,
        use_vision=not args.no_vision,
        tool_calling_method=args.tool_calling_method,
        memory=args.memory,
    )

    async def run() -> None:
        loop = asyncio.get_running_loop()
        main_task = asyncio.ensure_future(server.serve_forever())
        stop = asyncio.Event()
        for sig in (signal.SIGINT, signal.SIGTERM):
            try:
                loop.add_signal_handler(sig, stop.set)
            except NotImplementedError:
                pass
        waiter = asyncio.ensure_future(stop.wait())
        await asyncio.wait([main_task, waiter], return_when=asyncio.FIRST_COMPLETED)
        if main_task.done():
            waiter.cancel()
            main_task.result()  # raises BridgeError (refused secret, version mismatch)
            return
        logger.info('stopping: ending running tasks and releasing their tabs')
        await server.shutdown()
        main_task.cancel()
        await asyncio.gather(main_task, return_exceptions=True)

    try:
        asyncio.run(run())
    except BridgeError as e:
        print(f'error: {e}', file=sys.stderr)
        return 2
    if server.stopping:
        # Tasks are stopped, their sessions closed (tabs freed) and the person told. What is left are
        # the Agent's background threads (telemetry, HTTP connection pools, an LLM call running in an
        # executor) that would hold the interpreter for seconds: leave now, as Ctrl+C promises.
        logging.shutdown()
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(0)
    return 0
