"""`serve` through the real bridge (bridge/cli/main.ts, no browser needed): a stand-in extension
connection (the hello / auth_challenge handshake with the extension secret) submits tasks; the Python
TaskServer, which finds the agent secret in the bridge's secrets.json via BROWSER_USE_EXT_CONFIG_DIR,
runs them through an agent factory; task_progress comes back relayed, and task_control stop ends a
run (the task messages of schemas/v1)."""
import asyncio
import base64
import hashlib
import hmac
import json
import os
import re
import subprocess
import sys
import tempfile
import threading
import unittest
from pathlib import Path
from unittest import mock

import websockets

from browser_use_ext.serve import TaskServer
from browser_use_ext.transport import REFUSED_HINT, BridgeError
from tests.harness import REPO_ROOT, SHIM_DIR

EXTENSION_ORIGIN = 'chrome-extension://hlpljhaoajogiafnlkgfmcioikalboec'


def _hmac(secret, msg):
    return hmac.new(secret.encode(), msg.encode(), hashlib.sha256).hexdigest()


class Bridge:
    def __init__(self):
        self.dir = tempfile.TemporaryDirectory()
        self._start('0')

    def _start(self, port):
        self.proc = subprocess.Popen(
            ['node', '--import', 'tsx', 'bridge/cli/main.ts', 'bridge',
             '--port', port, '--config-dir', self.dir.name, '--log-level', 'warn'],
            cwd=str(REPO_ROOT),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )
        lines = []

        def read():
            for line in self.proc.stdout:
                lines.append(line)
                if 'agent endpoint' in line:
                    return
        t = threading.Thread(target=read, daemon=True)
        t.start()
        t.join(60)
        text = ''.join(lines)
        m = re.search(r'agent endpoint:\s+(\S+)', text)
        if not m:
            self.close()
            raise RuntimeError('the bridge did not start: ' + text[-1000:])
        self.agent_url = m.group(1)
        self.extension_url = re.search(r'extension endpoint:\s+(\S+)', text).group(1)
        self.secrets = json.loads((Path(self.dir.name) / 'secrets.json').read_text())

    def stop(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.proc.stdout.close()

    def restart(self, rotate=False):
        """Stops the bridge and starts it again on the same port and config dir; rotate: with new
        secrets (secrets.json deleted, as a person revokes them: the bridge makes new ones)."""
        port = re.search(r':(\d+)/agent$', self.agent_url).group(1)
        self.stop()
        if rotate:
            (Path(self.dir.name) / 'secrets.json').unlink()
        self._start(port)

    def close(self):
        self.stop()
        self.dir.cleanup()


async def extension_connect(bridge):
    ws = await websockets.connect(bridge.extension_url, origin=EXTENSION_ORIGIN, max_size=None)
    nonce = base64.b64encode(os.urandom(32)).decode()
    await ws.send(
        json.dumps(
            {
                'type': 'hello',
                'role': 'extension',
                'protocol_version': 1,
                'client': {'name': 'test-extension', 'version': '0'},
                'capabilities': [],
                'client_nonce': nonce,
            }
        )
    )
    secret = bridge.secrets['extension_secret']
    while True:
        m = json.loads(await ws.recv())
        if m['type'] == 'auth_challenge':
            assert m['bridge_proof'] == _hmac(secret, 'bridge:' + nonce)
            await ws.send(json.dumps({'type': 'auth_response', 'proof': _hmac(secret, f"extension:{m['nonce']}:{nonce}")}))
        elif m['type'] == 'hello_ack':
            return ws
        elif m['type'] == 'error':
            raise RuntimeError(m['error_info']['message'])


async def next_message(ws, pred, timeout=20):
    async def loop():
        while True:
            m = json.loads(await ws.recv())
            if pred(m):
                return m
    return await asyncio.wait_for(loop(), timeout)


class ServeThroughTheBridge(unittest.IsolatedAsyncioTestCase):
    @classmethod
    def setUpClass(cls):
        cls.bridge = Bridge()

    @classmethod
    def tearDownClass(cls):
        cls.bridge.close()

    async def test_tasks_from_the_extension_run_report_progress_and_stop(self):
        started = asyncio.Event()

        class Agent:
            def __init__(self, task, on_step, context):
                self.task, self.on_step, self.context = task, on_step, context

            async def run(self, max_steps):
                self.on_step(1, f"looking at {self.context['url']}")
                if self.task.startswith('forever'):
                    started.set()
                    await asyncio.sleep(120)
                return self

            def final_result(self):
                return f'did: {self.task}'

        def factory(task, on_step, context):
            return Agent(task, on_step, context)

        ext = await extension_connect(self.bridge)
        with mock.patch.dict(os.environ, {'BROWSER_USE_EXT_CONFIG_DIR': self.bridge.dir.name, 'BROWSER_USE_EXT_AGENT_SECRET': ''}):
            server = TaskServer(factory, bridge_url=self.bridge.agent_url)
            conn = await server.connect()  # agent secret read from secrets.json
        self.assertTrue(conn.authenticated)
        try:
            submission = {'type': 'user_task_submission', 'user_prompt': 'buy staplers', 'timestamp': '2026-01-01T00:00:00Z',
                          'context': {'url': 'https://shop.example/', 'page_title': 'Shop', 'selected_text': None, 'active_tab_id': 1}}
            await ext.send(json.dumps(submission))
            progress = []
            done = await next_message(
                ext, lambda m: m['type'] == 'task_progress' and (progress.append(m) or m['status'] in ('done', 'failed'))
            )
            self.assertEqual([m['status'] for m in progress], ['accepted', 'running', 'step', 'done'])
            self.assertEqual(progress[2]['message'], 'looking at https://shop.example/')
            self.assertEqual(done['final_result'], 'did: buy staplers')
            self.assertTrue(done['task_id'])  # assigned by the bridge

            await ext.send(json.dumps({**submission, 'user_prompt': 'forever task'}))
            running = await next_message(ext, lambda m: m['type'] == 'task_progress' and m['status'] == 'running')
            await asyncio.wait_for(started.wait(), 10)
            await ext.send(json.dumps({'type': 'task_control', 'task_id': running['task_id'], 'command': 'stop'}))
            stopped = await next_message(ext, lambda m: m['type'] == 'task_progress' and m['status'] in ('stopped', 'done', 'failed'))
            self.assertEqual((stopped['status'], stopped['task_id']), ('stopped', running['task_id']))
        finally:
            await conn.close()
            await ext.close()

    async def test_the_tasks_session_is_shown_under_serve_and_ends_with_the_task(self):
        """The session a task's Agent drives the tabs with sends hello.task_id: the bridge lists it under
        serve's own session (parent_session_id), so the person sees one agent, and ends it with the task."""
        opened = asyncio.Event()
        finish = asyncio.Event()

        class Agent:
            def __init__(self, browser):
                self.browser = browser

            async def run(self, max_steps):
                await self.browser._connect()  # what the Agent's first get_state does
                opened.set()
                await asyncio.wait_for(finish.wait(), 30)
                return self

            def final_result(self):
                return 'ok'

        ext = await extension_connect(self.bridge)
        secret = self.bridge.secrets['agent_secret']
        server = TaskServer(lambda browser: Agent(browser), bridge_url=self.bridge.agent_url, agent_secret=secret)
        conn = await server.connect()
        try:
            serve_id = conn.hello_ack['session_id']
            await ext.send(json.dumps({'type': 'user_task_submission', 'user_prompt': 'find a stapler', 'timestamp': '2026-01-01T00:00:00Z',
                                       'context': {'url': 'https://shop.example/', 'page_title': 'Shop', 'selected_text': None,
                                                   'active_tab_id': 0}}))  # no tab to start on: no get_state to answer
            await asyncio.wait_for(opened.wait(), 20)

            def task_session(m):
                return next((s for s in m.get('sessions', []) if s['client']['name'].startswith('browser-use-ext serve, running')), None)

            listed = await next_message(ext, lambda m: m['type'] == 'agent_sessions' and task_session(m) is not None)
            self.assertEqual(task_session(listed).get('parent_session_id'), serve_id)
            finish.set()
            await next_message(ext, lambda m: m['type'] == 'task_progress' and m['status'] == 'done')
            await next_message(ext, lambda m: m['type'] == 'agent_sessions' and task_session(m) is None)
        finally:
            finish.set()
            await conn.close()
            await ext.close()


async def wait_until(pred, timeout=30, what='the condition'):
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not pred():
        if loop.time() > end:
            raise AssertionError(f'timed out waiting for {what}')
        await asyncio.sleep(0.05)


async def answer_actions(ws, actions, progress, active_tab=7):
    """A stand-in extension: answers get_state on the tab it was sent to (the browser's active tab
    when none: active_tab) and list_tabs; records the actions and keeps the task_progress messages."""
    async for raw in ws:
        m = json.loads(raw)
        if m['type'] == 'task_progress':
            progress.append(m)
            continue
        if m['type'] != 'action':
            continue
        actions.append(m)
        tab = m.get('tab_id', active_tab)
        result = {'type': 'action_result', 'original_action_id': m['action_id'], 'action': m['action'], 'status': 'success',
                  'outcome_details': {'message': 'ok', 'navigation_occurred': False}, 'new_simplified_state': None,
                  'error_info': None}
        if m['action'] == 'list_tabs':
            result['outcome_details']['result'] = {'tabs': [
                {'tab_id': active_tab, 'url': 'https://other.example/', 'title': 'Other', 'active': True, 'index': 0, 'window_id': 1},
                {'tab_id': 4242, 'url': 'https://shop.example/', 'title': 'Shop', 'active': False, 'index': 1, 'window_id': 1},
            ]}
        else:
            result['tab_id'] = tab
        await ws.send(json.dumps(result))


SUBMISSION = {'type': 'user_task_submission', 'user_prompt': 'what is this page?', 'timestamp': '2026-01-01T00:00:00Z',
              'context': {'url': 'https://shop.example/', 'page_title': 'Shop', 'selected_text': None, 'active_tab_id': 4242}}


class ServeRecoversAndStartsOnTheTab(unittest.IsolatedAsyncioTestCase):
    """Each test has its own bridge: they change its secrets."""

    async def asyncSetUp(self):
        self.bridge = await asyncio.get_running_loop().run_in_executor(None, Bridge)

    async def asyncTearDown(self):
        self.bridge.close()

    async def restart(self, rotate):
        await asyncio.get_running_loop().run_in_executor(None, self.bridge.restart, rotate)

    async def test_the_agent_starts_on_the_tab_the_person_was_looking_at(self):
        class Agent:
            def __init__(self, browser):
                self.browser = browser

            async def run(self, max_steps):
                # The Agent's first state names no tab, as browser_use's does.
                ctx = await self.browser.new_context()
                r = await ctx.call('get_state', {})
                return f"state of tab {r.get('tab_id')}"

        ext = await extension_connect(self.bridge)
        actions, progress = [], []
        reader = asyncio.ensure_future(answer_actions(ext, actions, progress))
        with mock.patch.dict(os.environ, {'BROWSER_USE_EXT_CONFIG_DIR': self.bridge.dir.name, 'BROWSER_USE_EXT_AGENT_SECRET': ''}):
            server = TaskServer(lambda browser: Agent(browser), bridge_url=self.bridge.agent_url)
            conn = await server.connect()
            try:
                await ext.send(json.dumps(SUBMISSION))
                await wait_until(lambda: any(m['status'] in ('done', 'failed') for m in progress), what='the task to end')
            finally:
                await conn.close()
                reader.cancel()
                await ext.close()
        end = next(m for m in progress if m['status'] in ('done', 'failed'))
        self.assertEqual(end['status'], 'done', end)
        states = [m for m in actions if m['action'] == 'get_state']
        # The tab of the context bundle, not the browser's active tab (7) at the time of the first state.
        self.assertEqual([m.get('tab_id') for m in states], [4242, 4242], actions)
        self.assertIn('state of tab 4242', str(end.get('final_result')))

    async def test_serve_reads_a_rotated_secret_again_and_comes_back(self):
        def factory(task):
            return f'did: {task}'

        with mock.patch.dict(os.environ, {'BROWSER_USE_EXT_CONFIG_DIR': self.bridge.dir.name, 'BROWSER_USE_EXT_AGENT_SECRET': ''}):
            server = TaskServer(factory, bridge_url=self.bridge.agent_url)
            serving = asyncio.ensure_future(server.serve_forever())
            try:
                await wait_until(lambda: server.conn is not None and server.conn.connected, what='serve to connect')
                first = server.conn
                old = first.secret
                await self.restart(rotate=True)
                self.assertNotEqual(self.bridge.secrets['agent_secret'], old)
                await wait_until(lambda: first.reconnects >= 1 or serving.done(), what='serve to come back with the new secret')
                self.assertFalse(serving.done())
                self.assertIsNone(first.ended)
                self.assertEqual(first.secret, self.bridge.secrets['agent_secret'])
                # The same serve runs a task from the extension, paired again with the new secret.
                ext = await extension_connect(self.bridge)
                try:
                    await ext.send(json.dumps(SUBMISSION))
                    done = await next_message(ext, lambda m: m['type'] == 'task_progress' and m['status'] in ('done', 'failed'))
                    self.assertEqual((done['status'], done['final_result']), ('done', 'did: what is this page?'))
                finally:
                    await ext.close()
            finally:
                await server.shutdown()
                serving.cancel()
                await asyncio.gather(serving, return_exceptions=True)

    async def test_a_secret_still_refused_after_a_re_read_stops_serve_with_one_line(self):
        old = self.bridge.secrets['agent_secret']
        # The secret comes from the environment, which the rotation does not change.
        with mock.patch.dict(os.environ, {'BROWSER_USE_EXT_CONFIG_DIR': self.bridge.dir.name, 'BROWSER_USE_EXT_AGENT_SECRET': old}):
            server = TaskServer(lambda task: task, bridge_url=self.bridge.agent_url)
            serving = asyncio.ensure_future(server.serve_forever())
            try:
                await wait_until(lambda: server.conn is not None and server.conn.connected, what='serve to connect')
                await self.restart(rotate=True)
                loop = asyncio.get_running_loop()
                t0 = loop.time()
                with self.assertRaises(BridgeError) as cm:
                    await asyncio.wait_for(serving, 20)  # before: it retried the old secret every 12 s, forever
                self.assertLess(loop.time() - t0, 15)
            finally:
                await server.shutdown()
        self.assertEqual(cm.exception.code, 'UNAUTHORIZED')
        self.assertIn(REFUSED_HINT, str(cm.exception))
        self.assertNotIn('\n', str(cm.exception))

    async def test_serve_started_with_a_wrong_secret_exits_with_one_line(self):
        env = {**os.environ, 'BROWSER_USE_EXT_AGENT_SECRET': 'x' * 43, 'BROWSER_USE_EXT_CONFIG_DIR': self.bridge.dir.name,
               'PYTHONPATH': str(SHIM_DIR)}
        r = await asyncio.get_running_loop().run_in_executor(None, lambda: subprocess.run(
            [sys.executable, '-m', 'browser_use_ext', 'serve', '--agent', 'json:dumps', '--bridge-url', self.bridge.agent_url,
             '--log-level', 'warn'], capture_output=True, text=True, timeout=60, env=env, cwd=tempfile.gettempdir()))
        self.assertEqual(r.returncode, 2, r.stderr)
        lines = r.stderr.strip().splitlines()
        self.assertEqual(len(lines), 1, r.stderr)
        self.assertTrue(lines[0].startswith('error: The bridge at '), lines[0])
        self.assertIn(REFUSED_HINT, lines[0])


if __name__ == '__main__':
    unittest.main()
