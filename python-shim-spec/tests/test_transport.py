"""The wire client against a scripted bridge (a websockets server in the test): the contract-G
handshake from both sides, action/result matching, pings, failures, and the serve loop's
task_progress / task_control handling (contract H)."""
import asyncio
import hashlib
import hmac
import json
import sys
import types
import unittest

import websockets

from tests import harness  # noqa: F401
from browser_use_ext.serve import TaskServer
from browser_use_ext.transport import BridgeConnection, BridgeError

SECRET = 'c2VjcmV0LXNlY3JldC1zZWNyZXQtc2VjcmV0LXNlY3JldA'


def hmac_hex(msg):
    return hmac.new(SECRET.encode(), msg.encode(), hashlib.sha256).hexdigest()


class FakeBridge:
    """Speaks the bridge side of contract G, then runs ``script(ws, hello)``."""

    def __init__(self, script=None, proof_ok=True, require_auth=True, reject_nonce=False):
        self.script = script
        self.proof_ok = proof_ok
        self.require_auth = require_auth
        self.reject_nonce = reject_nonce
        self.received = []
        self.hellos = []

    async def handler(self, ws, path=None):
        hello = json.loads(await ws.recv())
        self.hellos.append(hello)
        if self.reject_nonce and 'client_nonce' in hello:
            await ws.send(json.dumps({'type': 'error', 'in_reply_to': 'hello', 'error_info': {'error_code': 'INVALID_MESSAGE', 'message': 'must NOT have additional properties', 'details': {'instance_path': '/client_nonce'}, 'component_origin': 'bridge'}}))
            return
        if self.require_auth:
            nonce = 'bm9uY2Vub25jZW5vbmNlbm9uY2Vub25jZW5vbmNlMTI'
            proof = hmac_hex('bridge:' + hello['client_nonce']) if self.proof_ok else '0' * 64
            await ws.send(json.dumps({'type': 'auth_challenge', 'nonce': nonce, 'bridge_proof': proof}))
            resp = json.loads(await ws.recv())
            if resp.get('proof') != hmac_hex(f"agent:{nonce}:{hello['client_nonce']}"):
                await ws.send(json.dumps({'type': 'error', 'error_info': {'error_code': 'UNAUTHORIZED', 'message': 'bad proof', 'component_origin': 'bridge'}}))
                await ws.close(1008, 'unauthorized')
                return
        await ws.send(json.dumps({'type': 'hello_ack', 'protocol_version': 1, 'bridge': {'name': 'fake', 'version': '0'}, 'session_id': 's1', 'extension_connected': True, 'session_token': 'tok-1234567890abcdef'}))
        if self.script:
            await self.script(ws, hello, self)
        else:
            async for raw in ws:
                self.received.append(json.loads(raw))

    async def __aenter__(self):
        self.server = await websockets.serve(self.handler, '127.0.0.1', 0)
        port = self.server.sockets[0].getsockname()[1]
        self.url = f'ws://127.0.0.1:{port}/agent'
        return self

    async def __aexit__(self, *exc):
        self.server.close()
        await self.server.wait_closed()


class Handshake(unittest.IsolatedAsyncioTestCase):
    async def test_challenge_response_with_the_agent_secret(self):
        async with FakeBridge() as bridge:
            conn = await BridgeConnection.connect(url=bridge.url, secret=SECRET, ping_interval_s=0)
            self.assertTrue(conn.authenticated)
            self.assertEqual(conn.session_token, 'tok-1234567890abcdef')
            hello = bridge.hellos[0]
            self.assertEqual((hello['type'], hello['role'], hello['protocol_version']), ('hello', 'agent', 1))
            self.assertGreaterEqual(len(hello['client_nonce']), 22)
            await conn.close()

    async def test_a_server_that_cannot_prove_the_secret_is_refused(self):
        async with FakeBridge(proof_ok=False) as bridge:
            with self.assertRaises(BridgeError) as cm:
                await BridgeConnection.connect(url=bridge.url, secret=SECRET, ping_interval_s=0)
            self.assertEqual(cm.exception.code, 'UNAUTHORIZED')
            self.assertIn('could not prove', str(cm.exception))

    async def test_no_secret_configured_says_how_to_set_it(self):
        async with FakeBridge() as bridge:
            import os
            from unittest import mock
            with mock.patch.dict(os.environ, {'BROWSER_USE_EXT_AGENT_SECRET': '', 'BROWSER_USE_EXT_CONFIG_DIR': '/nonexistent'}):
                with self.assertRaises(BridgeError) as cm:
                    await BridgeConnection.connect(url=bridge.url, ping_interval_s=0)
            self.assertIn('BROWSER_USE_EXT_AGENT_SECRET', str(cm.exception))

    async def test_bridge_without_auth_and_old_bridge_rejecting_client_nonce(self):
        async with FakeBridge(require_auth=False) as bridge:
            conn = await BridgeConnection.connect(url=bridge.url, secret=SECRET, ping_interval_s=0)
            self.assertFalse(conn.authenticated)
            await conn.close()
        async with FakeBridge(require_auth=False, reject_nonce=True) as bridge:
            conn = await BridgeConnection.connect(url=bridge.url, secret=SECRET, ping_interval_s=0)
            self.assertNotIn('client_nonce', bridge.hellos[-1])
            await conn.close()

    async def test_unreachable_bridge_names_the_fix(self):
        with self.assertRaises(BridgeError) as cm:
            await BridgeConnection.connect(url='ws://127.0.0.1:9/agent', secret=SECRET, ping_interval_s=0, connect_timeout_s=3)
        self.assertIn('npm start', str(cm.exception))


class Calls(unittest.IsolatedAsyncioTestCase):
    async def test_results_are_matched_by_action_id_and_pings_answered(self):
        async def script(ws, hello, bridge):
            a1 = json.loads(await ws.recv())
            a2 = json.loads(await ws.recv())
            await ws.send(json.dumps({'type': 'ping', 'sent_at': 5}))
            pong = json.loads(await ws.recv())
            bridge.received.append(pong)
            for a in (a2, a1):  # answer out of order
                await ws.send(json.dumps({'type': 'action_result', 'original_action_id': a['action_id'], 'status': 'success', 'outcome_details': {'message': a['action'], 'result': {'url': a['params'].get('url', '')}}}))
            a3 = json.loads(await ws.recv())
            await ws.send(json.dumps({'type': 'error', 'in_reply_to': a3['action_id'], 'error_info': {'error_code': 'INVALID_MESSAGE', 'message': 'params/url: must be string', 'component_origin': 'bridge'}}))
            a4 = json.loads(await ws.recv())
            bridge.received.append(a4)
            await ws.close(1001, 'going away')

        async with FakeBridge(script=script) as bridge:
            conn = await BridgeConnection.connect(url=bridge.url, secret=SECRET, ping_interval_s=0)
            r1, r2 = await asyncio.gather(conn.call('navigate', {'url': 'http://a/'}, tab_id=3), conn.call('reload', {}))
            self.assertEqual(r1['outcome_details']['result']['url'], 'http://a/')
            self.assertEqual(r2['outcome_details']['message'], 'reload')
            self.assertEqual(bridge.received[0], {'type': 'pong', 'sent_at': 5})
            r3 = await conn.call('navigate', {'url': 5})
            self.assertEqual((r3['status'], r3['error_info']['error_code']), ('error', 'INVALID_MESSAGE'))
            with self.assertRaises(BridgeError) as cm:
                await conn.call('get_state', {})
            self.assertEqual(cm.exception.code, 'EXTENSION_DISCONNECTED')


class Serve(unittest.IsolatedAsyncioTestCase):
    async def test_tasks_stream_progress_and_stop(self):
        events = []

        async def script(ws, hello, bridge):
            bridge.received.append(hello)
            await ws.send(json.dumps({'type': 'user_task_submission', 'task_id': 't1', 'user_prompt': 'say hi', 'timestamp': '2026-01-01T00:00:00Z', 'context': {'url': 'http://x/', 'page_title': 'X', 'active_tab_id': 1}}))
            while True:
                m = json.loads(await ws.recv())
                events.append(m)
                if m['task_id'] == 't1' and m['status'] in ('done', 'failed'):
                    break
            await ws.send(json.dumps({'type': 'user_task_submission', 'task_id': 't2', 'user_prompt': 'wait forever', 'timestamp': '2026-01-01T00:00:00Z', 'context': {'url': 'http://x/', 'page_title': 'X', 'active_tab_id': 1}}))
            while True:
                m = json.loads(await ws.recv())
                events.append(m)
                if m['status'] == 'running':
                    await ws.send(json.dumps({'type': 'task_control', 'task_id': 't2', 'command': 'stop'}))
                if m['status'] in ('stopped', 'done', 'failed'):
                    break

        class FakeAgent:
            stopped = False

            def __init__(self, task, on_step):
                self.task, self.on_step = task, on_step

            async def run(self, max_steps):
                for n in (1, 2):
                    self.on_step(n, f'working on {self.task} ({n})')
                    await asyncio.sleep(0.01)
                if self.task == 'wait forever':
                    await asyncio.sleep(60)
                return self

            def final_result(self):
                return 'hi'

            def stop(self):
                FakeAgent.stopped = True

        def factory(task, on_step, context):
            return FakeAgent(task, on_step)

        async with FakeBridge(script=script) as bridge:
            server = TaskServer(factory, bridge_url=bridge.url, agent_secret=SECRET)
            await server.connect()
            self.assertEqual(bridge.hellos[0]['capabilities'], ['accepts_tasks'])
            for _ in range(300):
                if events and events[-1]['task_id'] == 't2' and events[-1]['status'] == 'stopped':
                    break
                await asyncio.sleep(0.02)
            await server.conn.close()
        t1 = [(e['status'], e.get('step'), e.get('final_result')) for e in events if e['task_id'] == 't1']
        self.assertEqual(t1[0][0], 'accepted')
        self.assertIn(('step', 1, None), t1)
        self.assertIn(('step', 2, None), t1)
        self.assertEqual(t1[-1], ('done', None, 'hi'))
        t2 = [e['status'] for e in events if e['task_id'] == 't2']
        self.assertEqual(t2[-1], 'stopped')
        self.assertTrue(FakeAgent.stopped)
        for e in events:
            self.assertEqual(set(e) - {'type', 'task_id', 'status', 'message', 'step', 'final_result'}, set())


if __name__ == '__main__':
    unittest.main()
