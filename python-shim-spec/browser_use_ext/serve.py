"""``python -m browser_use_ext serve``: a task-accepting agent (contract H).

Connects with capability ``accepts_tasks``; for each ``user_task_submission`` the person sends from
the extension it builds an agent through a factory and runs it, streaming ``task_progress``
(accepted -> running -> step... -> done | failed | stopped) and honouring ``task_control`` stop
(and redirect, when the agent has ``add_new_task``).

The factory is ``module:function`` called with any of these keyword arguments it declares:
``task`` (str), ``browser`` (ExtensionBrowser), ``controller`` (ExtensionController), ``context``
(the submission's page context dict), ``on_step`` (callable(step: int, message: str)). It returns
an object with ``async run(max_steps=...)`` (browser_use's Agent) or an awaitable whose value is
the final result.
"""
from __future__ import annotations

import argparse
import asyncio
import importlib
import inspect
import logging
import os
import signal
from typing import Any, Callable, Optional

from .browser import ExtensionBrowser
from .config import ExtensionBrowserConfig
from .controller import ExtensionController
from .transport import BridgeConnection, BridgeError

logger = logging.getLogger('browser_use_ext.serve')


def llm_from_env() -> Any:
    """A LangChain chat model from the environment: BROWSER_USE_EXT_LLM=openai|anthropic|google
    (default: whichever of OPENAI_API_KEY / ANTHROPIC_API_KEY / GOOGLE_API_KEY is set), model from
    BROWSER_USE_EXT_MODEL."""
    provider = os.environ.get('BROWSER_USE_EXT_LLM') or (
        'openai' if os.environ.get('OPENAI_API_KEY') else 'anthropic' if os.environ.get('ANTHROPIC_API_KEY') else 'google' if os.environ.get('GOOGLE_API_KEY') else ''
    )
    model = os.environ.get('BROWSER_USE_EXT_MODEL')
    try:
        if provider == 'openai':
            from langchain_openai import ChatOpenAI  # type: ignore
            return ChatOpenAI(model=model or 'gpt-4o')
        if provider == 'anthropic':
            from langchain_anthropic import ChatAnthropic  # type: ignore
            return ChatAnthropic(model_name=model or 'claude-3-5-sonnet-latest')
        if provider == 'google':
            from langchain_google_genai import ChatGoogleGenerativeAI  # type: ignore
            return ChatGoogleGenerativeAI(model=model or 'gemini-2.0-flash')
    except ImportError as e:
        raise RuntimeError(f'The {provider} LLM needs its LangChain package: pip install langchain-{provider} ({e})') from e
    raise RuntimeError('No LLM configured: set OPENAI_API_KEY, ANTHROPIC_API_KEY or GOOGLE_API_KEY (and optionally BROWSER_USE_EXT_LLM / BROWSER_USE_EXT_MODEL), or pass --agent module:function.')


def default_agent_factory(task: str, browser: ExtensionBrowser, controller: ExtensionController, on_step: Callable[[int, str], None], context: dict) -> Any:
    """browser_use's Agent with an LLM from the environment."""
    try:
        from browser_use import Agent  # type: ignore
    except ImportError as e:
        raise RuntimeError('The default agent needs browser_use 0.1.48 (pip install "browser-use==0.1.48"), or pass --agent module:function.') from e

    def step_callback(state: Any, output: Any, n: int) -> None:
        goal = getattr(getattr(output, 'current_state', None), 'next_goal', '') if output is not None else ''
        on_step(n, goal or f'step {n} on {getattr(state, "url", "")}')

    where = f" The person is looking at {context.get('url')} ({context.get('page_title')})." if context.get('url') else ''
    selected = f" Selected text: {context['selected_text']!r}." if context.get('selected_text') else ''
    return Agent(task=task + where + selected, llm=llm_from_env(), browser=browser, controller=controller, register_new_step_callback=step_callback)


def load_factory(spec: Optional[str]) -> Callable[..., Any]:
    if not spec:
        return default_agent_factory
    module_name, _, attr = spec.partition(':')
    if not attr:
        raise SystemExit(f'--agent expects module:function, got {spec!r}')
    return getattr(importlib.import_module(module_name), attr)


def _call_with_supported(fn: Callable[..., Any], **kwargs: Any) -> Any:
    sig = inspect.signature(fn)
    if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in sig.parameters.values()):
        return fn(**kwargs)
    return fn(**{k: v for k, v in kwargs.items() if k in sig.parameters})


class TaskServer:
    def __init__(self, factory: Callable[..., Any], bridge_url: Optional[str] = None, agent_secret: Optional[str] = None, max_steps: int = 50) -> None:
        self.factory = factory
        self.bridge_url = bridge_url
        self.agent_secret = agent_secret
        self.max_steps = max_steps
        self.conn: Optional[BridgeConnection] = None
        self.tasks: dict[str, asyncio.Task] = {}
        self.agents: dict[str, Any] = {}

    async def connect(self) -> BridgeConnection:
        # Handlers first: the bridge may relay a waiting task right after hello_ack.
        conn = BridgeConnection(url=self.bridge_url, secret=self.agent_secret, capabilities=['accepts_tasks'], client_name='browser-use-ext-python-serve')
        conn.on('user_task_submission', self._on_task)
        conn.on('task_control', self._on_control)
        self.conn = conn
        await conn.open()
        return conn

    async def progress(self, task_id: str, status: str, message: str, step: Optional[int] = None, final_result: Any = ...) -> None:
        msg: dict[str, Any] = {'type': 'task_progress', 'task_id': task_id, 'status': status, 'message': message[:20000]}
        if step is not None:
            msg['step'] = step
        if final_result is not ...:
            msg['final_result'] = None if final_result is None else str(final_result)[:200000]
        if self.conn is not None:
            try:
                await self.conn.send(msg)
            except BridgeError as e:
                logger.warning('could not report progress of %s: %s', task_id, e)

    def _on_task(self, m: dict) -> None:
        task_id = str(m.get('task_id') or f'task-{len(self.tasks) + 1}')
        self.tasks[task_id] = asyncio.ensure_future(self._run(task_id, m))

    def _on_control(self, m: dict) -> None:
        task_id = str(m.get('task_id'))
        agent = self.agents.get(task_id)
        if m.get('command') == 'stop':
            if agent is not None and hasattr(agent, 'stop'):
                try:
                    agent.stop()
                except Exception:
                    pass
            t = self.tasks.get(task_id)
            if t is not None and not t.done():
                t.cancel()
            return
        if m.get('command') == 'redirect':
            if agent is not None and hasattr(agent, 'add_new_task'):
                agent.add_new_task(str(m.get('text', '')))
                asyncio.ensure_future(self.progress(task_id, 'running', f"Redirected: {m.get('text', '')}"))
            else:
                asyncio.ensure_future(self.progress(task_id, 'running', 'This agent cannot change its task while running; stop it and submit the new task.'))

    async def _run(self, task_id: str, m: dict) -> None:
        prompt = str(m.get('user_prompt', ''))
        context = dict(m.get('context') or {})
        await self.progress(task_id, 'accepted', f'Accepted: {prompt[:200]}')
        browser = ExtensionBrowser(ExtensionBrowserConfig(bridge_url=self.bridge_url, agent_secret=self.agent_secret))
        loop = asyncio.get_running_loop()

        step_sends: list[asyncio.Task] = []

        def on_step(n: int, message: str) -> None:
            # Called synchronously from the agent's step callback: send in the background, in order,
            # and flush before the final status so a step never arrives after "done".
            step_sends.append(loop.create_task(self.progress(task_id, 'step', message or f'step {n}', step=max(0, int(n)))))

        async def flush() -> None:
            if step_sends:
                await asyncio.gather(*step_sends, return_exceptions=True)

        try:
            made = _call_with_supported(self.factory, task=prompt, browser=browser, controller=ExtensionController(), context=context, on_step=on_step)
            if inspect.isawaitable(made) and not hasattr(made, 'run'):
                made = await made
            await self.progress(task_id, 'running', 'Running')
            if hasattr(made, 'run'):
                self.agents[task_id] = made
                result = await made.run(max_steps=self.max_steps)
                final = made.final_result() if hasattr(made, 'final_result') else (result.final_result() if hasattr(result, 'final_result') else result)
            else:
                final = made
            await flush()
            await self.progress(task_id, 'done', 'Done', final_result=final)
        except asyncio.CancelledError:
            await flush()
            await self.progress(task_id, 'stopped', 'Stopped by the person', final_result=None)
        except Exception as e:
            logger.exception('task %s failed', task_id)
            await flush()
            await self.progress(task_id, 'failed', f'{type(e).__name__}: {e}', final_result=None)
        finally:
            self.agents.pop(task_id, None)
            self.tasks.pop(task_id, None)
            await browser.close()

    async def serve_forever(self) -> None:
        delay = 1.0
        while True:
            try:
                conn = await self.connect()
                logger.info('connected to %s; waiting for tasks from the extension', conn.url)
                delay = 1.0
                assert conn.closed is not None
                await conn.closed.wait()
                logger.warning('bridge connection closed; reconnecting')
            except BridgeError as e:
                if e.code == 'UNAUTHORIZED':
                    raise
                logger.warning('%s; retrying in %.0f s', e, delay)
            await asyncio.sleep(delay)
            delay = min(30.0, delay * 2)


def main(argv: Optional[list[str]] = None) -> int:
    parser = argparse.ArgumentParser(prog='python -m browser_use_ext', description='browser-use-ext Python shim')
    sub = parser.add_subparsers(dest='command', required=True)
    s = sub.add_parser('serve', help='run tasks the person submits from the extension')
    s.add_argument('--bridge-url', default=None, help='ws://127.0.0.1:8765/agent (default: $BROWSER_USE_EXT_BRIDGE_URL or that)')
    s.add_argument('--agent', default=None, help='module:function agent factory (default: browser_use Agent with an LLM from the environment)')
    s.add_argument('--max-steps', type=int, default=50)
    s.add_argument('--log-level', default='INFO')
    args = parser.parse_args(argv)
    logging.basicConfig(level=args.log_level.upper(), format='%(asctime)s %(levelname)s %(name)s: %(message)s')
    server = TaskServer(load_factory(args.agent), bridge_url=args.bridge_url, max_steps=args.max_steps)

    async def run() -> None:
        task = asyncio.ensure_future(server.serve_forever())
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            try:
                loop.add_signal_handler(sig, task.cancel)
            except NotImplementedError:
                pass
        try:
            await task
        except asyncio.CancelledError:
            pass

    try:
        asyncio.run(run())
    except BridgeError as e:
        print(f'error: {e}')
        return 2
    return 0
