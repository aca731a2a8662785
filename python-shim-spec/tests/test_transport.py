"""The wire client against a scripted bridge (a websockets server in the test): the hello /
auth_challenge handshake (each side proves it holds the agent secret, schemas/v1) from both sides,
action/result matching, pings, failures, and the serve loop's task messages (task_progress out,
task_control in)."""
import asyncio
import hashlib
import hmac
import itertools
import json
import unittest
from unittest import mock

import websockets

from browser_use_ext.serve import TaskServer
from browser_use_ext.transport import BridgeConnection, BridgeError
from tests import harness  # noqa: F401

SECRET = 'c2VjcmV0LXNlY3JldC1zZWNyZXQtc2VjcmV0LXNlY3JldA'


def hmac_hex(msg):
    return hmac.new(SECRET.encode(), msg.encode(), hashlib.sha256).hexdigest()


class FakeBridge:
    """Speaks the bridge side of the hello / auth_challenge handshake, then runs ``script(ws, hello)``."""

    def __init__(self, script=None, proof_ok=True, require_auth=True, reject_nonce=False, ack_extra=None):
        self.script = script
        self.ack_extra = ack_extra or {}  # more hello_ack fields (browser, browsers)
        self.proof_ok = proof_ok
        self.require_auth = require_auth
        self.reject_nonce = reject_nonce
        self.received = []
        self.hellos = []

    async def handler(self, ws, path=None):
        hello = json.loads(await ws.recv())
        self.hellos.append(hello)
        if self.reject_nonce and 'client_nonce' in hello:
            await ws.send(
                json.dumps(
                    {
                        'type': 'error',
                        'in_reply_to': 'hello',
                        'error_info': {
                            'error_code': 'INVALID_MESSAGE',
                            'message': 'must NOT have additional properties',
                            'details': {'instance_path': '/client_nonce'},
                            'component_origin': 'bridge',
                        },
                    }
                )
            )
            return
        if self.require_auth:
            nonce = 'bm9uY2Vub25jZW5vbmNlbm9uY2Vub25jZW5vbmNlMTI'
            proof = hmac_hex('bridge:' + hello['client_nonce']) if self.proof_ok else '0' * 64
            await ws.send(json.dumps({'type': 'auth_challenge', 'nonce': nonce, 'bridge_proof': proof}))
            resp = json.loads(await ws.recv())
            if resp.get('proof') != hmac_hex(f"agent:{nonce}:{hello['client_nonce']}"):
                await ws.send(
                    json.dumps(
                        {
                            'type': 'error',
                            'error_info': {'error_code': 'UNAUTHORIZED', 'message': 'bad proof', 'component_origin': 'bridge'},
                        }
                    )
                )
                await ws.close(1008, 'unauthorized')
                return
        await ws.send(
            json.dumps(
                {
                    'type': 'hello_ack',
                    'protocol_version': 1,
                    'bridge': {'name': 'fake', 'version': '0'},
                    'session_id': 's1',
                    'extension_connected': True,
                    'session_token': 'tok-1234567890abcdef',
                    **self.ack_extra,
                }
            )
        )
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
        self.assertIn('browser-use-ext bridge', str(cm.exception))


class Calls(unittest.IsolatedAsyncioTestCase):
    async def test_results_are_matched_by_action_id_and_pings_answered(self):
        async def script(ws, hello, bridge):
            a1 = json.loads(await ws.recv())
            a2 = json.loads(await ws.recv())
            await ws.send(json.dumps({'type': 'ping', 'sent_at': 5}))
            pong = json.loads(await ws.recv())
            bridge.received.append(pong)
            for a in (a2, a1):  # answer out of order
                await ws.send(
                    json.dumps(
                        {
                            'type': 'action_result',
                            'original_action_id': a['action_id'],
                            'status': 'success',
                            'outcome_details': {'message': a['action'], 'result': {'url': a['params'].get('url', '')}},
                        }
                    )
                )
            a3 = json.loads(await ws.recv())
            await ws.send(
                json.dumps(
                    {
                        'type': 'error',
                        'in_reply_to': a3['action_id'],
                        'error_info': {
                            'error_code': 'INVALID_MESSAGE',
                            'message': 'params/url: must be string',
                            'component_origin': 'bridge',
                        },
                    }
                )
            )
            a4 = json.loads(await ws.recv())
            bridge.received.append(a4)
            await ws.close(1001, 'going away')

        async with FakeBridge(script=script) as bridge:
            # reconnect=False: the socket's end is the end (the reconnecting default is tested below).
            conn = await BridgeConnection.connect(url=bridge.url, secret=SECRET, ping_interval_s=0, reconnect=False)
            r1, r2 = await asyncio.gather(conn.call('navigate', {'url': 'http://a/'}, tab_id=3), conn.call('reload', {}))
            self.assertEqual(r1['outcome_details']['result']['url'], 'http://a/')
            self.assertEqual(r2['outcome_details']['message'], 'reload')
            self.assertEqual(bridge.received[0], {'type': 'pong', 'sent_at': 5})
            r3 = await conn.call('navigate', {'url': 5})
            self.assertEqual((r3['status'], r3['error_info']['error_code']), ('error', 'INVALID_MESSAGE'))
            with self.assertRaises(BridgeError) as cm:
                await conn.call('get_state', {})
            self.assertEqual(cm.exception.code, 'EXTENSION_DISCONNECTED')
            self.assertFalse(conn.is_open)


class SessionBridge:
    """A bridge that can go away and come back on the same port, with per-connection scripts.

    ``scripts[n](ws, hello)`` runs on the n-th agent connection after its hello_ack; hello_ack says
    resumed when the hello presents the bridge's session token and ``keep_sessions`` is on (as a
    bridge that persists sessions across a restart does)."""

    TOKEN = 'tok-session-0000000000000000'

    def __init__(self, scripts, keep_sessions=True, extension_connected=True):
        self.scripts = list(scripts)
        self.keep_sessions = keep_sessions
        self.extension_connected = extension_connected
        self.refuse = False
        self.hellos = []
        self.port = 0
        self.server = None

    async def handler(self, ws, path=None):
        hello = json.loads(await ws.recv())
        n = len(self.hellos)
        self.hellos.append(hello)
        nonce = 'bm9uY2Vub25jZW5vbmNlbm9uY2Vub25jZW5vbmNlMTI'
        await ws.send(json.dumps({'type': 'auth_challenge', 'nonce': nonce, 'bridge_proof': hmac_hex('bridge:' + hello['client_nonce'])}))
        resp = json.loads(await ws.recv())
        if self.refuse or resp.get('proof') != hmac_hex(f"agent:{nonce}:{hello['client_nonce']}"):
            await ws.send(
                json.dumps(
                    {'type': 'error', 'error_info': {'error_code': 'UNAUTHORIZED', 'message': 'bad proof', 'component_origin': 'bridge'}}
                )
            )
            await ws.close(1008, 'unauthorized')
            return
        resumed = self.keep_sessions and hello.get('session_token') == self.TOKEN
        await ws.send(
            json.dumps(
                {
                    'type': 'hello_ack',
                    'protocol_version': 1,
                    'bridge': {'name': 'fake', 'version': '0'},
                    'session_id': 's1',
                    'extension_connected': self.extension_connected,
                    'session_token': self.TOKEN,
                    'resumed': resumed,
                }
            )
        )
        script = self.scripts[n] if n < len(self.scripts) else None
        if script:
            await script(ws, hello)
        else:
            async for _ in ws:
                pass

    async def start(self):
        self.server = await websockets.serve(self.handler, '127.0.0.1', self.port)
        self.port = self.server.sockets[0].getsockname()[1]
        self.url = f'ws://127.0.0.1:{self.port}/agent'
        return self

    async def stop(self):
        """Like a bridge process exiting: the listener and every connection go away."""
        self.server.close()
        await self.server.wait_closed()


async def recv(ws):
    return json.loads(await ws.recv())


def ok(action, result=None):
    return json.dumps({'type': 'action_result', 'original_action_id': action['action_id'], 'status': 'success',
                       'outcome_details': {'message': action['action'], 'result': result or {}}})


class Reconnect(unittest.IsolatedAsyncioTestCase):
    """A bridge restart is invisible to the caller: the client reconnects forever with capped backoff, resumes its session, and a
    call in flight or made during the outage is answered instead of failing (bounded by its timeout)."""

    async def asyncTearDown(self):
        if getattr(self, 'conn', None):
            await self.conn.close()
        if getattr(self, 'bridge', None) and self.bridge.server:
            await self.bridge.stop()

    async def connect(self, bridge, **kw):
        self.bridge = bridge
        await bridge.start()
        self.conn = await BridgeConnection.connect(url=bridge.url, secret=SECRET, ping_interval_s=0, **kw)
        return self.conn

    async def test_an_action_in_flight_is_resent_with_the_same_id_and_answered_once_the_session_resumes(self):
        first = []

        async def drop_mid_action(ws, hello):
            first.append(await recv(ws))
            await ws.close(1012, 'bridge restarting')

        async def answer(ws, hello):
            a = await recv(ws)
            first.append(a)
            await ws.send(ok(a, {'clicked': True}))
            async for raw in ws:
                await ws.send(ok(json.loads(raw)))

        conn = await self.connect(SessionBridge([drop_mid_action, answer]))
        r = await conn.call('click', {'target': {'element_id': 'e1'}}, tab_id=4)
        self.assertEqual((r['status'], r['outcome_details']['result']), ('success', {'clicked': True}))
        self.assertEqual(first[0]['action_id'], first[1]['action_id'])  # the same id: the bridge can answer it once
        self.assertEqual(self.bridge.hellos[1]['session_token'], SessionBridge.TOKEN)
        self.assertEqual((conn.reconnects, conn.last_resumed), (1, True))
        self.assertEqual((await conn.call('reload', {}))['status'], 'success')

    async def test_without_the_session_only_repeatable_actions_are_resent_and_a_lost_click_says_its_outcome_is_unknown(self):
        async def drop_mid_actions(ws, hello):
            for _ in range(3):
                await recv(ws)
            await ws.close(1012, 'bridge restarting')

        async def answer(ws, hello):
            async for raw in ws:
                await ws.send(ok(json.loads(raw), {'n': 1}))

        conn = await self.connect(SessionBridge([drop_mid_actions, answer], keep_sessions=False))
        click = asyncio.ensure_future(conn.call('click', {'target': {'element_id': 'e1'}}))
        state = asyncio.ensure_future(conn.call('get_state', {}))
        fill = asyncio.ensure_future(conn.call('fill', {'element_id': 'e2', 'value': 'x'}))  # a second fill changes nothing
        r = await state
        self.assertEqual(r['status'], 'success')
        self.assertEqual((await fill)['status'], 'success')
        with self.assertRaises(BridgeError) as cm:
            await click
        self.assertEqual(cm.exception.code, 'EXTENSION_DISCONNECTED')
        self.assertIn('whether it ran is unknown', str(cm.exception))
        self.assertIs(conn.last_resumed, False)

    async def test_a_call_made_while_the_bridge_is_down_waits_for_it_and_succeeds(self):
        async def answer(ws, hello):
            async for raw in ws:
                await ws.send(ok(json.loads(raw), {'url': 'http://a/'}))

        events = []
        conn = await self.connect(SessionBridge([None, answer]))
        conn.on('reconnected', events.append)
        await self.bridge.stop()
        for _ in range(100):
            if not conn.connected:
                break
            await asyncio.sleep(0.01)
        self.assertFalse(conn.connected)
        self.assertTrue(conn.is_open)  # still usable: calls wait
        call = asyncio.ensure_future(conn.call('navigate', {'url': 'http://a/'}, timeout_ms=10_000))
        await asyncio.sleep(1.0)
        self.assertFalse(call.done())
        await self.bridge.start()  # same port, as a restarted bridge
        r = await asyncio.wait_for(call, 10)
        self.assertEqual(r['outcome_details']['result'], {'url': 'http://a/'})
        self.assertEqual(r['status'], 'success')
        self.assertEqual(len(events), 1)
        self.assertTrue(events[0]['resumed'])
        self.assertGreaterEqual(events[0]['outage_ms'], 1000)

    async def test_the_wait_is_bounded_by_the_calls_own_timeout(self):
        from browser_use_ext import transport
        conn = await self.connect(SessionBridge([]))
        await self.bridge.stop()
        self.bridge.server = None
        loop = asyncio.get_running_loop()
        with mock.patch.object(transport, 'ANSWER_GRACE_S', 0.2):
            t0 = loop.time()
            with self.assertRaises(BridgeError) as cm:
                await conn.call('get_state', {}, timeout_ms=500)
            elapsed = loop.time() - t0
        self.assertEqual(cm.exception.code, 'TIMEOUT')
        self.assertIn('unreachable', str(cm.exception))
        self.assertIn('browser-use-ext bridge', str(cm.exception))
        self.assertGreater(elapsed, 0.6)
        self.assertLess(elapsed, 2.0)

    async def test_backoff_doubles_from_0_1_s_and_is_capped_at_2_s(self):
        conn = await self.connect(SessionBridge([]))
        self.assertEqual(list(itertools.islice(conn._backoff_delays(), 7)), [0.1, 0.2, 0.4, 0.8, 1.6, 2.0, 2.0])
        # After a 5 s outage the client is back within the cap (uncapped doubling would wait 3.2 s more).
        await self.bridge.stop()
        await asyncio.sleep(5.0)
        loop = asyncio.get_running_loop()
        await self.bridge.start()
        t0 = loop.time()
        r = asyncio.ensure_future(conn.call('list_tabs', {}, timeout_ms=1000))
        while not conn.connected:
            await asyncio.sleep(0.02)
        self.assertLess(loop.time() - t0, 2.5)
        r.cancel()

    async def test_no_extension_connected_is_retried_while_the_extension_comes_back(self):
        async def extension_blips(ws, hello):
            a = await recv(ws)
            await ws.send(json.dumps({'type': 'extension_status', 'connected': False, 'message': 'gone'}))
            await ws.send(
                json.dumps(
                    {
                        'type': 'action_result',
                        'original_action_id': a['action_id'],
                        'status': 'error',
                        'error_info': {
                            'error_code': 'NO_EXTENSION_CONNECTED',
                            'message': 'No browser extension is connected',
                            'component_origin': 'bridge',
                        },
                    }
                )
            )
            await asyncio.sleep(0.3)
            await ws.send(json.dumps({'type': 'extension_status', 'connected': True, 'away_ms': 300, 'message': 'back'}))
            b = await recv(ws)
            self.assertNotEqual(a['action_id'], b['action_id'])  # a new id: the bridge recorded the first answer
            await ws.send(ok(b))
            async for _ in ws:
                pass

        conn = await self.connect(SessionBridge([extension_blips]))
        r = await conn.call('get_state', {})
        self.assertEqual(r['status'], 'success')
        self.assertTrue(conn.extension_connected)

    async def test_a_bridge_that_cannot_save_sessions_is_said_once_and_its_recovery_too(self):
        async def disk_full(ws, hello):
            await ws.send(json.dumps({'type': 'persistence_status', 'durable': False, 'message': 'cannot save (ENOSPC)'}))
            a = await recv(ws)
            await ws.send(ok(a))
            b = await recv(ws)
            await ws.send(json.dumps({'type': 'persistence_status', 'durable': True, 'message': 'saving again'}))
            await ws.send(ok(b))
            async for _ in ws:
                pass

        conn = await self.connect(SessionBridge([disk_full]))
        with self.assertLogs('browser_use_ext', level='INFO') as logs:
            await conn.call('get_state', {})
            self.assertFalse(conn.durable)
            await conn.call('get_state', {})
            self.assertTrue(conn.durable)
        self.assertTrue(any('WARNING' in line and 'ENOSPC' in line for line in logs.output), logs.output)
        self.assertTrue(any('INFO' in line and 'saving again' in line for line in logs.output), logs.output)

    async def test_no_extension_connected_surfaces_at_once_when_the_extension_was_never_there(self):
        async def no_extension(ws, hello):
            async for raw in ws:
                a = json.loads(raw)
                await ws.send(
                    json.dumps(
                        {
                            'type': 'action_result',
                            'original_action_id': a['action_id'],
                            'status': 'error',
                            'error_info': {
                                'error_code': 'NO_EXTENSION_CONNECTED',
                                'message': 'No browser extension is connected',
                                'component_origin': 'bridge',
                            },
                        }
                    )
                )

        conn = await self.connect(SessionBridge([no_extension], extension_connected=False))
        loop = asyncio.get_running_loop()
        t0 = loop.time()
        r = await conn.call('get_state', {})
        self.assertEqual(r['error_info']['error_code'], 'NO_EXTENSION_CONNECTED')
        self.assertLess(loop.time() - t0, 1.0)

    async def test_a_refused_secret_on_reconnect_fails_waiting_calls_at_once(self):
        conn = await self.connect(SessionBridge([]))
        await self.bridge.stop()
        self.bridge.refuse = True
        await self.bridge.start()
        loop = asyncio.get_running_loop()
        t0 = loop.time()
        with self.assertRaises(BridgeError) as cm:
            await conn.call('get_state', {}, timeout_ms=20_000)
        self.assertEqual(cm.exception.code, 'UNAUTHORIZED')
        self.assertLess(loop.time() - t0, 5.0)

    async def test_a_person_disconnect_4003_is_final_no_reconnect(self):
        async def disconnect_by_person(ws, hello):
            await recv(ws)
            await ws.close(4003, 'disconnected by the person in the extension side panel')

        conn = await self.connect(SessionBridge([disconnect_by_person]))
        with self.assertRaises(BridgeError) as cm:
            await conn.call('click', {'target': {'element_id': 'e1'}})
        self.assertIn('the person disconnected this agent', str(cm.exception))
        self.assertFalse(conn.is_open)
        self.assertIsNotNone(conn.ended)
        await asyncio.sleep(0.5)
        self.assertEqual(len(self.bridge.hellos), 1)  # never connected again
        with self.assertRaises(BridgeError):
            await conn.call('get_state', {})

    async def test_a_bridge_of_another_protocol_version_on_reconnect_ends_the_connection(self):
        conn = await self.connect(SessionBridge([]))
        await self.bridge.stop()

        async def version_mismatch(ws, path=None):
            await ws.recv()
            await ws.close(4002, 'protocol_version 1 is not supported: upgrade the agent')
        self.bridge.handler = version_mismatch
        await self.bridge.start()
        with self.assertRaises(BridgeError) as cm:
            await conn.call('get_state', {}, timeout_ms=20_000)
        self.assertEqual(cm.exception.code, 'VERSION_MISMATCH')
        self.assertFalse(conn.is_open)
        self.assertEqual(conn.ended.code, 'VERSION_MISMATCH')

    async def test_close_during_an_outage_ends_waiting_calls(self):
        conn = await self.connect(SessionBridge([]))
        await self.bridge.stop()
        self.bridge.server = None
        call = asyncio.ensure_future(conn.call('get_state', {}))
        await asyncio.sleep(0.3)
        await conn.close()
        with self.assertRaises(BridgeError) as cm:
            await asyncio.wait_for(call, 2)
        self.assertIn('close()', str(cm.exception))
        self.assertFalse(conn.is_open)
        self.conn = None


class Serve(unittest.IsolatedAsyncioTestCase):
    async def test_tasks_stream_progress_and_stop(self):
        events = []

        async def script(ws, hello, bridge):
            bridge.received.append(hello)
            await ws.send(
                json.dumps(
                    {
                        'type': 'user_task_submission',
                        'task_id': 't1',
                        'user_prompt': 'say hi',
                        'timestamp': '2026-01-01T00:00:00Z',
                        'context': {'url': 'http://x/', 'page_title': 'X', 'active_tab_id': 1},
                    }
                )
            )
            while True:
                m = json.loads(await ws.recv())
                events.append(m)
                if m['task_id'] == 't1' and m['status'] in ('done', 'failed'):
                    break
            await ws.send(
                json.dumps(
                    {
                        'type': 'user_task_submission',
                        'task_id': 't2',
                        'user_prompt': 'wait forever',
                        'timestamp': '2026-01-01T00:00:00Z',
                        'context': {'url': 'http://x/', 'page_title': 'X', 'active_tab_id': 1},
                    }
                )
            )
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
