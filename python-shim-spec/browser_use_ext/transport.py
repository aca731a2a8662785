"""The wire client: one WebSocket to the bridge's /agent endpoint (schemas/v1, contracts G and H).

hello (+ client_nonce) -> [auth_challenge -> auth_response] -> hello_ack, then
action -> exactly one action_result (matched by action_id), application-level ping/pong, and
pushed messages (state_update, user_task_submission, task_control, error) to callbacks.
"""
from __future__ import annotations

import asyncio
import base64
import hashlib
import hmac
import itertools
import json
import logging
import os
import time
from typing import Any, Awaitable, Callable, Optional, Union

import websockets

from . import credentials
from .version import PROTOCOL_VERSION, __version__

logger = logging.getLogger(__name__)

Handler = Callable[[dict], Union[None, Awaitable[None]]]


class BridgeError(Exception):
    """A transport or protocol failure talking to the bridge. ``code`` is a schema error_code."""

    def __init__(self, message: str, code: str = 'COMMUNICATION_ERROR_WITH_TARGET', details: Optional[dict] = None) -> None:
        super().__init__(message)
        self.code = code
        self.details = details or {}


class ActionFailed(BridgeError):
    """An action_result with status "error"; ``result`` is the whole message."""

    def __init__(self, result: dict) -> None:
        info = result.get('error_info') or {}
        super().__init__(info.get('message') or 'the action failed', info.get('error_code') or 'OPERATION_FAILED_IN_TARGET', info.get('details'))
        self.result = result


def _hmac_hex(secret: str, msg: str) -> str:
    return hmac.new(secret.encode('utf-8'), msg.encode('utf-8'), hashlib.sha256).hexdigest()


class BridgeConnection:
    """Async client of the bridge. Use ``await BridgeConnection.connect(...)`` or ``async with``."""

    def __init__(
        self,
        url: Optional[str] = None,
        secret: Optional[str] = None,
        capabilities: Optional[list[str]] = None,
        client_name: str = 'browser-use-ext-python',
        default_timeout_ms: int = 15_000,
        connect_timeout_s: float = 10.0,
        ping_interval_s: float = 20.0,
        session_token: Optional[str] = None,
        max_tabs: Optional[int] = None,
    ) -> None:
        self.url = credentials.bridge_url(url)
        self.secret = credentials.agent_secret(secret)
        self.capabilities = capabilities or []
        self.client_name = client_name
        self.default_timeout_ms = default_timeout_ms
        self.connect_timeout_s = connect_timeout_s
        self.ping_interval_s = ping_interval_s
        self.hello_ack: Optional[dict] = None
        # Names this agent session on the bridge; presenting it again after a reconnect keeps the
        # session's leased tabs (hello.session_token, hello_ack.session_token).
        self.session_token = session_token
        self.max_tabs = max_tabs  # hello.max_tabs: the session's tab limit (bridge default 10)
        self.authenticated = False
        self._ws: Any = None
        self._reader: Optional[asyncio.Task] = None
        self._pinger: Optional[asyncio.Task] = None
        self._waiters: dict[str, asyncio.Future] = {}
        self._seq = itertools.count(1)
        self._handlers: dict[str, list[Handler]] = {}
        self.closed: Optional[asyncio.Event] = None  # created inside the running loop by open()
        self.last_pong_rtt_ms: Optional[float] = None

    @classmethod
    async def connect(cls, *args: Any, **kwargs: Any) -> 'BridgeConnection':
        conn = cls(*args, **kwargs)
        await conn.open()
        return conn

    async def __aenter__(self) -> 'BridgeConnection':
        await self.open()
        return self

    async def __aexit__(self, *exc: Any) -> None:
        await self.close()

    def on(self, message_type: str, handler: Handler) -> None:
        """Calls handler(message) for each pushed message of that type (state_update, user_task_submission, task_control, error)."""
        self._handlers.setdefault(message_type, []).append(handler)

    @property
    def is_open(self) -> bool:
        return self._ws is not None and not self._ws.closed

    async def open(self) -> dict:
        self.closed = asyncio.Event()
        try:
            return await asyncio.wait_for(self._handshake(with_nonce=True), self.connect_timeout_s)
        except asyncio.TimeoutError:
            await self._drop()
            raise BridgeError(f'no hello_ack from {self.url} within {self.connect_timeout_s} s; is the bridge running (npm start)?', 'TIMEOUT') from None

    async def _handshake(self, with_nonce: bool) -> dict:
        try:
            self._ws = await websockets.connect(self.url, max_size=None, ping_interval=None, open_timeout=self.connect_timeout_s)
        except (OSError, websockets.exceptions.WebSocketException) as e:
            raise BridgeError(f'cannot connect to the bridge at {self.url}: {e}. Is it running (npm start)? Set BROWSER_USE_EXT_BRIDGE_URL if it listens elsewhere.') from e
        client_nonce = base64.b64encode(os.urandom(32)).decode('ascii')
        hello: dict[str, Any] = {
            'type': 'hello',
            'role': 'agent',
            'protocol_version': PROTOCOL_VERSION,
            'client': {'name': self.client_name, 'version': __version__},
            'capabilities': self.capabilities,
        }
        if with_nonce:
            hello['client_nonce'] = client_nonce
        if self.session_token:
            hello['session_token'] = self.session_token
        if self.max_tabs:
            hello['max_tabs'] = self.max_tabs
        await self._ws.send(json.dumps(hello))
        while True:
            try:
                raw = await self._ws.recv()
            except websockets.exceptions.ConnectionClosed as e:
                raise BridgeError(f'the bridge closed the connection during the handshake ({e.code} {e.reason}). If it requires authentication, set BROWSER_USE_EXT_AGENT_SECRET (see `npm start` output or secrets.json).', 'UNAUTHORIZED' if e.code == 1008 else 'COMMUNICATION_ERROR_WITH_TARGET') from e
            m = json.loads(raw)
            t = m.get('type')
            if t == 'auth_challenge':
                if not self.secret:
                    await self._drop()
                    raise BridgeError(f'the bridge at {self.url} requires authentication but no agent secret is configured: set BROWSER_USE_EXT_AGENT_SECRET or pass agent_secret=..., or make sure {credentials.config_dir() / "secrets.json"} is readable.', 'UNAUTHORIZED')
                if not with_nonce:  # cannot happen with a secret, kept for clarity
                    raise BridgeError('auth_challenge without a client_nonce in hello', 'UNAUTHORIZED')
                expected = _hmac_hex(self.secret, 'bridge:' + client_nonce)
                if not hmac.compare_digest(expected, str(m.get('bridge_proof', ''))):
                    await self._drop()
                    raise BridgeError(f'the server at {self.url} could not prove it knows the agent secret; it is not your bridge or the secret is out of date. Check BROWSER_USE_EXT_AGENT_SECRET / secrets.json.', 'UNAUTHORIZED')
                proof = _hmac_hex(self.secret, f"agent:{m.get('nonce', '')}:{client_nonce}")
                await self._ws.send(json.dumps({'type': 'auth_response', 'proof': proof}))
                self.authenticated = True
                continue
            if t == 'hello_ack':
                self.hello_ack = m
                self.session_token = m.get('session_token') or self.session_token
                break
            if t == 'error':
                info = m.get('error_info') or {}
                path = str((info.get('details') or {}).get('instance_path', '')) + ' ' + info.get('message', '')
                if with_nonce and info.get('error_code') == 'INVALID_MESSAGE' and 'client_nonce' in path:
                    # A bridge from before the auth handshake (contract G): retry the plain hello.
                    await self._drop()
                    return await self._handshake(with_nonce=False)
                await self._drop()
                raise BridgeError(info.get('message', 'the bridge refused the hello'), info.get('error_code', 'UNAUTHORIZED'), info.get('details'))
            if t == 'ping':
                await self._ws.send(json.dumps({'type': 'pong', 'sent_at': m.get('sent_at', 0)}))
        self._reader = asyncio.ensure_future(self._read_loop())
        if self.ping_interval_s > 0:
            self._pinger = asyncio.ensure_future(self._ping_loop())
        return self.hello_ack

    async def _drop(self) -> None:
        if self._ws is not None:
            try:
                await self._ws.close()
            except Exception:
                pass

    async def close(self) -> None:
        for task in (self._pinger,):
            if task:
                task.cancel()
        if self._ws is not None:
            await self._ws.close(1000, 'agent closing')
        if self._reader:
            try:
                await asyncio.wait_for(self._reader, 5)
            except (asyncio.TimeoutError, asyncio.CancelledError, Exception):
                pass

    async def send(self, message: dict) -> None:
        if not self.is_open:
            raise BridgeError('not connected to the bridge (the connection closed); create a new ExtensionBrowser context', 'COMMUNICATION_ERROR_WITH_TARGET')
        await self._ws.send(json.dumps(message))

    async def call(self, action: str, params: Optional[dict] = None, tab_id: Optional[int] = None, timeout_ms: Optional[int] = None, settle: Optional[dict] = None) -> dict:
        """Sends one action and returns its action_result message (status success or error). settle: the action's settle rule."""
        action_id = f'py{next(self._seq)}-{int(time.time() * 1000):x}'
        msg: dict[str, Any] = {'type': 'action', 'action_id': action_id, 'action': action, 'params': params or {}}
        if tab_id is not None:
            msg['tab_id'] = tab_id
        if timeout_ms is not None:
            msg['timeout_ms'] = timeout_ms
        if settle is not None:
            msg['settle'] = settle
        fut: asyncio.Future = asyncio.get_running_loop().create_future()
        self._waiters[action_id] = fut
        try:
            await self.send(msg)
            budget = (timeout_ms or self.default_timeout_ms) / 1000 + 5
            try:
                return await asyncio.wait_for(fut, budget)
            except asyncio.TimeoutError:
                raise BridgeError(f'action "{action}" ({action_id}) got no answer within {budget:.0f} s', 'TIMEOUT') from None
        finally:
            self._waiters.pop(action_id, None)

    async def call_ok(self, action: str, params: Optional[dict] = None, tab_id: Optional[int] = None, timeout_ms: Optional[int] = None) -> dict:
        """Like call() but raises ActionFailed for status "error"."""
        r = await self.call(action, params, tab_id, timeout_ms)
        if r.get('status') != 'success':
            raise ActionFailed(r)
        return r

    async def _ping_loop(self) -> None:
        try:
            while self.is_open:
                await asyncio.sleep(self.ping_interval_s)
                await self.send({'type': 'ping', 'sent_at': time.time() * 1000})
        except (asyncio.CancelledError, BridgeError, websockets.exceptions.ConnectionClosed):
            return

    async def _read_loop(self) -> None:
        code, reason = 1006, ''
        try:
            async for raw in self._ws:
                try:
                    m = json.loads(raw)
                except ValueError:
                    logger.warning('bridge sent a frame that is not JSON; ignored')
                    continue
                await self._dispatch(m)
        except websockets.exceptions.ConnectionClosed as e:
            code, reason = e.code, e.reason
        finally:
            if self._ws is not None and self._ws.close_code is not None:
                code, reason = self._ws.close_code, self._ws.close_reason or reason
            for action_id, fut in list(self._waiters.items()):
                if not fut.done():
                    fut.set_exception(BridgeError(f'connection to the bridge closed ({code} {reason}) before action {action_id} was answered', 'EXTENSION_DISCONNECTED'))
            self._waiters.clear()
            if self._pinger:
                self._pinger.cancel()
            if self.closed is not None:
                self.closed.set()

    async def _dispatch(self, m: dict) -> None:
        t = m.get('type')
        if t == 'action_result':
            fut = self._waiters.get(str(m.get('original_action_id')))
            if fut and not fut.done():
                fut.set_result(m)
            return
        if t == 'ping':
            try:
                await self.send({'type': 'pong', 'sent_at': m.get('sent_at', 0)})
            except BridgeError:
                pass
            return
        if t == 'pong':
            self.last_pong_rtt_ms = max(0.0, time.time() * 1000 - float(m.get('sent_at', 0)))
            return
        if t == 'error':
            in_reply = m.get('in_reply_to')
            fut = self._waiters.get(str(in_reply)) if in_reply else None
            if fut and not fut.done():
                info = m.get('error_info') or {}
                fut.set_result({'type': 'action_result', 'original_action_id': in_reply, 'status': 'error', 'error_info': info})
                return
            logger.warning('bridge error: %s', (m.get('error_info') or {}).get('message'))
        for handler in self._handlers.get(str(t), []):
            try:
                r = handler(m)
                if asyncio.iscoroutine(r):
                    asyncio.ensure_future(r)
            except Exception:
                logger.exception('handler for %s failed', t)
