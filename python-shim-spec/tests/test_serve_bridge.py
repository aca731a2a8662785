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
import tempfile
import threading
import unittest
from pathlib import Path
from unittest import mock

import websockets

from browser_use_ext.serve import TaskServer
from tests.harness import REPO_ROOT

EXTENSION_ORIGIN = 'chrome-extension://hlpljhaoajogiafnlkgfmcioikalboec'


def _hmac(secret, msg):
    return hmac.new(secret.encode(), msg.encode(), hashlib.sha256).hexdigest()


class Bridge:
    def __init__(self):
        self.dir = tempfile.TemporaryDirectory()
        self.proc = subprocess.Popen(
            ['node', '--import', 'tsx', 'bridge/cli/main.ts', 'bridge',
             '--port', '0', '--config-dir', self.dir.name, '--log-level', 'warn'],
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

    def close(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.proc.stdout.close()
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


if __name__ == '__main__':
    unittest.main()
