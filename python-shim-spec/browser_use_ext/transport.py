"""The wire client: one WebSocket to the bridge's /agent endpoint (schemas/v1: the authenticated handshake, then actions).

hello (+ client_nonce) -> [auth_challenge -> auth_response] -> hello_ack, then
action -> exactly one action_result (matched by action_id), application-level ping/pong, and
pushed messages (state_update, user_task_submission, task_control, error) to callbacks.

Outages (bridge restarts, network blips): after the first successful open() the connection is kept up for good.
When the socket drops (bridge restart, network blip) it reconnects with capped backoff (0.1 s
doubling to 2 s) and presents the same session_token, so the bridge resumes the session and its
leased tabs. A call made during the outage waits for the reconnect, bounded by its own timeout; a
call that was in flight is re-sent with the same action_id (the bridge answers a known id with the
recorded result) when the session was resumed, or when running it twice has the effect of once
(REPEATABLE_ACTIONS). While the extension
is away (it reconnects after a bridge restart too) a NO_EXTENSION_CONNECTED answer is retried
within the call's timeout, if the extension had been connected before. Only close() ends it.
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
from typing import Any, Awaitable, Callable, Iterator, Optional, Union

from . import credentials, wscompat
from ._protocol_codes import CLOSE_CODES, CloseCode, ErrorCode
from .backoff import Backoff
from .version import PROTOCOL_VERSION, __version__

logger = logging.getLogger(__name__)

Handler = Callable[[dict], Union[None, Awaitable[None]]]


class BridgeError(Exception):
    """A transport or protocol failure talking to the bridge. ``code`` is a schema error_code."""

    def __init__(self, message: str, code: str = ErrorCode.COMMUNICATION_ERROR_WITH_TARGET, details: Optional[dict] = None) -> None:
        super().__init__(message)
        self.code = code
        self.details = details or {}


class ActionFailed(BridgeError):
    """An action_result with status "error"; ``result`` is the whole message."""

    def __init__(self, result: dict) -> None:
        info = result.get('error_info') or {}
        super().__init__(
            info.get('message') or 'the action failed', info.get('error_code') or ErrorCode.OPERATION_FAILED_IN_TARGET, info.get('details')
        )
        self.result = result


# Actions that only read.
READ_ONLY_ACTIONS = frozenset({
    'get_state', 'screenshot', 'get', 'is', 'list_tabs', 'extract_content', 'get_dropdown_options',
    'wait', 'wait_for', 'wait_for_navigation', 'wait_for_network_idle', 'get_cookies',
})
# Actions whose end state is the same when they run twice (fill the same value, check, go to the
# same URL, ...): re-sending one whose answer was lost in an outage cannot act twice in effect.
# Not here: click, double_click, press, type, send_keys, drag_and_drop, scroll (relative), tabs
# opened/closed, history moves, reload, evaluate.
REPEATABLE_ACTIONS = READ_ONLY_ACTIONS | frozenset({
    'fill', 'clear', 'check', 'uncheck', 'select_option', 'focus', 'hover', 'scroll_into_view',
    'scroll_to', 'scroll_to_text', 'navigate', 'search', 'switch_tab',
})
# After the protocol's close codes (CloseCode, schemas/v1/defs/close_code.json) the client does not
# reconnect by itself (a refused secret only on the handshake: see _reconnect_loop).
# RFC 6455 "policy violation": what a bridge without the protocol's own codes closes a refused hello with.
CLOSE_POLICY_VIOLATION = 1008


def _close_error_code(code: Optional[int], refused: tuple = (CloseCode.SECRET_REFUSED,)) -> str:
    """The error code a close code becomes for callers."""
    if code in refused:
        return ErrorCode.UNAUTHORIZED
    return ErrorCode.VERSION_MISMATCH if code == CloseCode.VERSION_MISMATCH else ErrorCode.COMMUNICATION_ERROR_WITH_TARGET
# Seconds the bridge gets beyond an action's timeout_ms to answer TIMEOUT itself.
ANSWER_GRACE_S = 5.0
# What to check when the bridge refused the agent secret, also after reading it again (pairing is
# for the extension: an agent's secret comes from the environment or the bridge's secrets.json).
REFUSED_HINT = "Check BROWSER_USE_EXT_AGENT_SECRET or the bridge's secrets.json (run `browser-use-ext bridge --print-pairing`)."


class _SecretMismatch(BridgeError):
    """The handshake failed on the secret (not on the network): worth reading the secret once more.
    ``hint``: whether the final message still needs REFUSED_HINT."""

    def __init__(self, message: str, hint: bool = True) -> None:
        super().__init__(message, ErrorCode.UNAUTHORIZED)
        self.hint = hint


def agent_url(url: str) -> str:
    """The bridge's agent endpoint for any URL of it: http(s) becomes ws(s), an empty path /agent
    (`--bridge-url ws://127.0.0.1:8765` and `http://127.0.0.1:8765` reach the same bridge)."""
    for plain, ws in (('http://', 'ws://'), ('https://', 'wss://')):
        if url.startswith(plain):
            url = ws + url[len(plain):]
    scheme, sep, rest = url.partition('://')
    if sep and '/' not in rest:
        url = f'{scheme}://{rest}/agent'
    elif sep and rest.endswith('/') and rest.count('/') == 1:
        url = f'{scheme}://{rest}agent'
    return url


def browser_line(asked: Optional[str], chosen: Optional[dict], known: list) -> str:
    """One line: the browser this session works in, or why it has none and which browsers are connected."""
    connected = [str(b.get('name')) for b in known if isinstance(b, dict) and b.get('connected') and b.get('name')]
    names = ', '.join(f'"{n}"' for n in connected) or 'none'
    if chosen:
        brand = f" ({chosen['brand']})" if chosen.get('brand') else ''
        how = 'as asked' if asked else 'the one used last' if len(connected) > 1 else 'the only one connected'
        return f'browser-use-ext: working in the browser "{chosen.get("name")}"{brand}, {how}. Connected: {names}.'
    if asked:
        return (f'browser-use-ext: no browser named "{asked}" is connected to the bridge. Connected: {names}. Name one of them '
                f'(browser_name= or BROWSER_USE_EXT_BROWSER), or open the browser named "{asked}" with the extension.')
    return 'browser-use-ext: no browser is connected to the bridge yet; this session works in the first one that connects.'


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
        client_model: Optional[str] = None,
        default_timeout_ms: int = 15_000,
        connect_timeout_s: float = 10.0,
        ping_interval_s: float = 20.0,
        session_token: Optional[str] = None,
        max_tabs: Optional[int] = None,
        browser_name: Optional[str] = None,
        reconnect: bool = True,
        task_id: Optional[str] = None,
        backoff_initial_s: float = 0.1,
        backoff_max_s: float = 2.0,
    ) -> None:
        self.url = agent_url(credentials.bridge_url(url))
        # Read again once when the bridge refuses it (a new secrets.json after a re-pair): the
        # explicit argument, else BROWSER_USE_EXT_AGENT_SECRET, else the secrets file (credentials.py).
        self._explicit_secret = secret
        self.secret = credentials.agent_secret(secret)
        self.capabilities = capabilities or []
        self.client_name = client_name
        # The language model the agent drives (hello.client.model): the side panel names the agent with it.
        self.client_model = client_model[:100] if client_model else None
        self.default_timeout_ms = default_timeout_ms
        self.connect_timeout_s = connect_timeout_s
        self.ping_interval_s = ping_interval_s
        self.hello_ack: Optional[dict] = None
        # Names this agent session on the bridge; presenting it again after a reconnect keeps the
        # session's leased tabs (hello.session_token, hello_ack.session_token).
        self.session_token = session_token
        self.max_tabs = max_tabs  # hello.max_tabs: the session's tab limit (bridge default 10)
        # hello.browser_name: the browser (Chrome profile, Edge, ...) this session works in, by the name its
        # side panel shows; else BROWSER_USE_EXT_BROWSER; None lets the bridge choose (the one used last).
        self.browser_name = credentials.browser_name(browser_name)
        # hello.task_id: set only by serve, for the session its Agent carries a person's task out on, so
        # the bridge links it to serve's own session (the person sees one agent with its task, not two).
        self.task_id = task_id[:128] if task_id else None
        # hello_ack.browser, then extension_status.browser: the browser the bridge chose (None while none is).
        self.browser: Optional[dict] = None
        self._told_browser: Optional[str] = None
        self.reconnect = reconnect
        self.backoff_initial_s = backoff_initial_s
        self.backoff_max_s = backoff_max_s
        self.authenticated = False
        self._ws: Any = None
        self._reader: Optional[asyncio.Task] = None
        self._pinger: Optional[asyncio.Task] = None
        self._reconnector: Optional[asyncio.Task] = None
        self._waiters: dict[str, asyncio.Future] = {}
        # action_id -> [message, sent on the current socket]; what to re-send after a reconnect.
        self._inflight: dict[str, list] = {}
        self._ready_waiters: list[asyncio.Future] = []
        self._seq = itertools.count(1)
        self._handlers: dict[str, list[Handler]] = {}
        self._connected = False
        self._closing = False
        self._down_since: Optional[float] = None
        self.closed: Optional[asyncio.Event] = None  # created inside the running loop by open(); set when closed for good
        self.last_pong_rtt_ms: Optional[float] = None
        self.reconnects = 0  # successful reconnects after the first open()
        # Set when the bridge ended the connection for good (a CloseCode, or a bridge of another
        # protocol version on reconnect): the error to give callers instead of connecting again.
        self.ended: Optional[BridgeError] = None
        self.last_resumed: Optional[bool] = None  # hello_ack.resumed of the latest reconnect
        # persistence_status.durable: False while the bridge cannot save sessions and action ids, so
        # this session would not survive a bridge restart.
        self.durable = True
        # The extension behind the bridge: hello_ack.extension_connected and extension_status.
        self.extension_connected: Optional[bool] = None
        self._extension_seen = False
        self._extension_up: Optional[asyncio.Event] = None

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
        """Calls handler(message) for each pushed message of that type (state_update, user_task_submission,
        task_control, error, extension_status), and ``reconnected`` ({'type': 'reconnected', 'resumed',
        'outage_ms'}) after the client reconnected by itself."""
        self._handlers.setdefault(message_type, []).append(handler)

    @property
    def is_open(self) -> bool:
        """True from a successful open() until close() (or, with reconnect=False, until the socket
        drops). During an outage it stays True: calls wait for the reconnect."""
        return self.closed is not None and not self.closed.is_set() and not self._closing

    @property
    def connected(self) -> bool:
        """True while a socket to the bridge is up and past its handshake."""
        return self._connected

    async def open(self) -> dict:
        self.closed = asyncio.Event()
        self._extension_up = asyncio.Event()
        self._closing = False
        try:
            ack = await asyncio.wait_for(self._handshake_rereading(), self.connect_timeout_s)
        except asyncio.TimeoutError:
            await self._drop()
            self.closed.set()
            raise BridgeError(
                f'no hello_ack from {self.url} within {self.connect_timeout_s} s; is the bridge running (browser-use-ext bridge)?',
                ErrorCode.TIMEOUT,
            ) from None
        except BaseException:
            self.closed.set()
            raise
        self._up()
        if self.ping_interval_s > 0:
            self._pinger = asyncio.ensure_future(self._ping_loop())
        return ack

    async def _handshake_rereading(self) -> dict:
        """The handshake; when the bridge refuses the secret, the secret is read again ONCE (it may have
        been rotated) and, if it changed, tried. Refused again, or unchanged: one BridgeError
        (UNAUTHORIZED) that says what to check, and no retry loop (waiting cannot fix a secret)."""
        try:
            return await self._handshake(with_nonce=True)
        except _SecretMismatch as first:
            refused: _SecretMismatch = first
        await self._drop()
        fresh = credentials.agent_secret(self._explicit_secret)
        if fresh and fresh != self.secret:
            self.secret = fresh
            try:
                return await self._handshake(with_nonce=True)
            except _SecretMismatch as again:
                refused = again
            await self._drop()
        raise BridgeError(f'{refused} {REFUSED_HINT}' if refused.hint else str(refused), ErrorCode.UNAUTHORIZED) from None

    async def _handshake(self, with_nonce: bool) -> dict:
        try:
            self._ws = await wscompat.connect(self.url, max_size=None, ping_interval=None, open_timeout=self.connect_timeout_s)
        except (OSError, wscompat.WebSocketException) as e:
            raise BridgeError(f'cannot connect to the bridge at {self.url}: {e}. Is it running (browser-use-ext bridge)? Set '
                              'BROWSER_USE_EXT_BRIDGE_URL if it listens elsewhere.') from e
        client_nonce = base64.b64encode(os.urandom(32)).decode('ascii')
        hello: dict[str, Any] = {
            'type': 'hello',
            'role': 'agent',
            'protocol_version': PROTOCOL_VERSION,
            'client': {'name': self.client_name, 'version': __version__,
                       **({'model': self.client_model} if self.client_model else {})},
            'capabilities': self.capabilities,
        }
        if with_nonce:
            hello['client_nonce'] = client_nonce
        if self.session_token:
            hello['session_token'] = self.session_token
        if self.max_tabs:
            hello['max_tabs'] = self.max_tabs
        if self.browser_name:
            hello['browser_name'] = self.browser_name
        if self.task_id:
            hello['task_id'] = self.task_id
        try:
            await self._ws.send(json.dumps(hello))
        except wscompat.ConnectionClosed as e:
            raise BridgeError(f'the bridge at {self.url} closed the connection before the hello ({e}); retrying is safe') from e
        while True:
            try:
                raw = await self._ws.recv()
            except wscompat.ConnectionClosed as e:
                code, reason = wscompat.close_info(self._ws)
                kind = _close_error_code(code, refused=(CLOSE_POLICY_VIOLATION, CloseCode.SECRET_REFUSED))
                if kind == ErrorCode.UNAUTHORIZED:
                    raise _SecretMismatch(f'The bridge at {self.url} refused this agent\'s secret ({code} {reason}).') from e
                raise BridgeError(f'the bridge closed the connection during the handshake ({code} {reason}); retrying is safe', kind) from e
            m = json.loads(raw)
            t = m.get('type')
            if t == 'auth_challenge':
                if not self.secret:
                    await self._drop()
                    raise _SecretMismatch(f'the bridge at {self.url} requires authentication but no agent secret is configured: set '
                                          'BROWSER_USE_EXT_AGENT_SECRET or pass agent_secret=..., or make sure '
                                          f'{credentials.config_dir() / "secrets.json"} is readable.', hint=False)
                if not with_nonce:  # cannot happen with a secret, kept for clarity
                    raise BridgeError('auth_challenge without a client_nonce in hello', ErrorCode.UNAUTHORIZED)
                expected = _hmac_hex(self.secret, 'bridge:' + client_nonce)
                if not hmac.compare_digest(expected, str(m.get('bridge_proof', ''))):
                    # SECRET_REFUSED: the bridge logs that our secret differs from its own.
                    try:
                        await self._ws.close(CloseCode.SECRET_REFUSED, 'pairing secret mismatch')
                    except Exception:
                        pass
                    raise _SecretMismatch(
                        f'The bridge at {self.url} refused this agent\'s secret: it could not prove it knows the same secret '
                        '(the secret is wrong or outdated, or it is not your bridge).'
                    )
                proof = _hmac_hex(self.secret, f"agent:{m.get('nonce', '')}:{client_nonce}")
                await self._ws.send(json.dumps({'type': 'auth_response', 'proof': proof}))
                self.authenticated = True
                continue
            if t == 'hello_ack':
                self.hello_ack = m
                self.session_token = m.get('session_token') or self.session_token
                self._set_extension(m.get('extension_connected'))
                self._note_browser(m)
                return m
            if t == 'error':
                info = m.get('error_info') or {}
                path = str((info.get('details') or {}).get('instance_path', '')) + ' ' + info.get('message', '')
                if with_nonce and info.get('error_code') == ErrorCode.INVALID_MESSAGE and 'client_nonce' in path:
                    # A bridge from before the authenticated handshake rejects client_nonce: retry the plain hello.
                    await self._drop()
                    return await self._handshake(with_nonce=False)
                await self._drop()
                if info.get('error_code', ErrorCode.UNAUTHORIZED) == ErrorCode.UNAUTHORIZED and m.get('in_reply_to') != 'hello':
                    raise _SecretMismatch(f'The bridge at {self.url} refused this agent\'s secret.')
                raise BridgeError(
                    info.get('message', 'the bridge refused the hello'), info.get('error_code', ErrorCode.UNAUTHORIZED), info.get('details')
                )
            if t == 'ping':
                await self._ws.send(json.dumps({'type': 'pong', 'sent_at': m.get('sent_at', 0)}))

    def _note_browser(self, ack: dict) -> None:
        """Keeps hello_ack.browser and logs once which browser this session works in, or, when the bridge
        has none by the name asked for, the connected ones (each action would fail BROWSER_NOT_CONNECTED)."""
        chosen = ack.get('browser')
        if isinstance(chosen, dict):
            self.browser = chosen
        elif not ack.get('resumed'):
            self.browser = None
        known = ack.get('browsers')
        if not isinstance(known, list):
            return  # a bridge from before several browsers: it serves one and names none
        line = browser_line(self.browser_name, self.browser, known)
        if line != self._told_browser:
            self._told_browser = line
            (logger.info if self.browser or not self.browser_name else logger.warning)(line)

    def _up(self) -> None:
        """The handshake on a new socket is done: start reading and wake the calls that waited."""
        self._connected = True
        self._down_since = None
        self._reader = asyncio.ensure_future(self._read_loop(self._ws))
        waiters, self._ready_waiters = self._ready_waiters, []
        for fut in waiters:
            if not fut.done():
                fut.set_result(None)

    def _set_extension(self, connected: Any) -> None:
        if not isinstance(connected, bool):
            return
        self.extension_connected = connected
        if self._extension_up is None:
            return
        if connected:
            self._extension_seen = True
            self._extension_up.set()
        else:
            self._extension_up.clear()

    async def _drop(self) -> None:
        if self._ws is not None:
            try:
                await self._ws.close()
            except Exception:
                pass

    async def close(self) -> None:
        self._closing = True
        for task in (self._pinger, self._reconnector):
            if task:
                task.cancel()
        if self._ws is not None:
            try:
                await self._ws.close(1000, 'agent closing')
            except Exception:
                pass
        if self._reader:
            try:
                await asyncio.wait_for(self._reader, 5)
            except (asyncio.TimeoutError, asyncio.CancelledError, Exception):
                pass
        self._connected = False
        self._fail_all(BridgeError('the connection to the bridge was closed by this client (close() was called); create a new '
                                   'ExtensionBrowser context', ErrorCode.COMMUNICATION_ERROR_WITH_TARGET))
        if self.closed is not None:
            self.closed.set()

    def _fail_all(self, error: BridgeError) -> None:
        for fut in [*self._waiters.values(), *self._ready_waiters]:
            if not fut.done():
                # A fresh exception per waiter, without the traceback of the task that found the failure.
                fut.set_exception(BridgeError(str(error), error.code, error.details))
        self._ready_waiters = []

    def _outage_s(self) -> float:
        return 0.0 if self._down_since is None else time.monotonic() - self._down_since

    async def _ready(self, deadline: float, what: str) -> None:
        """Waits (until the monotonic ``deadline``) for a connected socket; raises BridgeError when closed for good or out of time."""
        if not self.is_open:
            raise BridgeError(
                'not connected to the bridge (the connection was closed); create a new ExtensionBrowser context',
                ErrorCode.COMMUNICATION_ERROR_WITH_TARGET,
            )
        if self._connected:
            return
        fut: asyncio.Future = asyncio.get_running_loop().create_future()
        self._ready_waiters.append(fut)
        try:
            await asyncio.wait_for(fut, max(0.0, deadline - time.monotonic()))
        except asyncio.TimeoutError:
            raise BridgeError(f'{what}: the bridge at {self.url} has been unreachable for {self._outage_s():.1f} s (reconnecting every '
                              f'{self.backoff_max_s:g} s at most). Is it running (browser-use-ext bridge)?', ErrorCode.TIMEOUT) from None
        finally:
            if fut in self._ready_waiters:
                self._ready_waiters.remove(fut)

    async def send(self, message: dict, timeout_s: Optional[float] = None) -> None:
        """Sends one message; during an outage waits for the reconnect (default: default_timeout_ms)."""
        deadline = time.monotonic() + (self.default_timeout_ms / 1000 if timeout_s is None else timeout_s)
        while True:
            await self._ready(deadline, f'sending {message.get("type")}')
            try:
                await self._ws.send(json.dumps(message))
                return
            except wscompat.ConnectionClosed:
                self._connected = False  # the reader loop notices too and starts the reconnect
                if not self.reconnect:
                    raise BridgeError(
                        'not connected to the bridge (the connection closed); create a new ExtensionBrowser context',
                        ErrorCode.COMMUNICATION_ERROR_WITH_TARGET,
                    ) from None
                await asyncio.sleep(0)

    async def call(
        self,
        action: str,
        params: Optional[dict] = None,
        tab_id: Optional[int] = None,
        timeout_ms: Optional[int] = None,
        settle: Optional[dict] = None,
        state_since: Optional[str] = None,
    ) -> dict:
        """Sends one action and returns its action_result message (status success or error). settle: the action's settle rule;
        state_since: the state after the action as a state_delta against this state_id (README "Deltas").

        Bounded by ``timeout_ms`` (or default_timeout_ms) plus ANSWER_GRACE_S, outages included."""
        budget = (timeout_ms or self.default_timeout_ms) / 1000 + ANSWER_GRACE_S
        deadline = time.monotonic() + budget
        extension_waited = False
        while True:
            r = await self._call_once(action, params, tab_id, timeout_ms, deadline, budget, settle, state_since)
            code = (r.get('error_info') or {}).get('error_code') if r.get('status') != 'success' else None
            retry = code == ErrorCode.NO_EXTENSION_CONNECTED and self._extension_seen
            retry = retry or (code == ErrorCode.EXTENSION_DISCONNECTED and action in REPEATABLE_ACTIONS)
            if not retry or not self.is_open or time.monotonic() >= deadline - ANSWER_GRACE_S:
                if extension_waited and code == ErrorCode.NO_EXTENSION_CONNECTED:
                    r.setdefault('error_info', {})['message'] = (
                        f'{(r.get("error_info") or {}).get("message", "")} (waited {budget - ANSWER_GRACE_S:.0f} s for it to come back)'
                    )
                return r
            # The extension is away for a moment (bridge restart, service-worker restart): wait for
            # extension_status connected, or poll (a restarted bridge may not announce it), then retry.
            extension_waited = True
            assert self._extension_up is not None
            self._extension_up.clear()
            try:
                await asyncio.wait_for(self._extension_up.wait(), min(0.5, max(0.0, deadline - ANSWER_GRACE_S - time.monotonic())))
            except asyncio.TimeoutError:
                pass

    async def _call_once(
        self,
        action: str,
        params: Optional[dict],
        tab_id: Optional[int],
        timeout_ms: Optional[int],
        deadline: float,
        budget: float,
        settle: Optional[dict] = None,
        state_since: Optional[str] = None,
    ) -> dict:
        await self._ready(deadline, f'action "{action}"')
        if action not in REPEATABLE_ACTIONS:
            # An action that must not run twice goes out only on a socket known to be open: let the
            # loop take in a close that already arrived (e.g. while the caller blocked the loop), so
            # the action is sent after the reconnect rather than lost in the outage with an unknown outcome.
            for _ in range(3):
                await asyncio.sleep(0)
            while not wscompat.is_open(self._ws):
                self._connected = False
                await self._ready(deadline, f'action "{action}"')
        action_id = f'py{next(self._seq)}-{int(time.time() * 1000):x}'
        msg: dict[str, Any] = {'type': 'action', 'action_id': action_id, 'action': action, 'params': params or {}}
        if tab_id is not None:
            msg['tab_id'] = tab_id
        # After an outage, only what is left of the caller's budget, so the bridge times out first.
        left_ms = int((deadline - ANSWER_GRACE_S - time.monotonic()) * 1000)
        if timeout_ms is not None:
            msg['timeout_ms'] = max(1, min(int(timeout_ms), left_ms))
        elif left_ms < self.default_timeout_ms - 500:
            msg['timeout_ms'] = max(1, left_ms)
        if settle is not None:
            msg['settle'] = settle
        if state_since is not None:
            msg['state_since'] = state_since
        fut: asyncio.Future = asyncio.get_running_loop().create_future()
        self._waiters[action_id] = fut
        entry = [msg, False]
        self._inflight[action_id] = entry
        try:
            try:
                await self._ws.send(json.dumps(msg))
                entry[1] = True
            except wscompat.ConnectionClosed:
                if not self.reconnect:
                    raise BridgeError(
                        'not connected to the bridge (the connection closed); create a new ExtensionBrowser context',
                        ErrorCode.COMMUNICATION_ERROR_WITH_TARGET,
                    ) from None
                self._connected = False  # not sent: the reconnect sends it
            try:
                return await asyncio.wait_for(fut, max(0.0, deadline - time.monotonic()))
            except asyncio.TimeoutError:
                outage = (
                    f'; the bridge has been unreachable for {self._outage_s():.1f} s, is it running (browser-use-ext bridge)?'
                    if not self._connected
                    else ''
                )
                raise BridgeError(
                    f'action "{action}" ({action_id}) got no answer within {budget:.0f} s{outage}', ErrorCode.TIMEOUT
                ) from None
        finally:
            self._waiters.pop(action_id, None)
            self._inflight.pop(action_id, None)

    async def call_ok(
        self, action: str, params: Optional[dict] = None, tab_id: Optional[int] = None, timeout_ms: Optional[int] = None
    ) -> dict:
        """Like call() but raises ActionFailed for status "error"."""
        r = await self.call(action, params, tab_id, timeout_ms)
        if r.get('status') != 'success':
            raise ActionFailed(r)
        return r

    async def _ping_loop(self) -> None:
        try:
            while self.is_open:
                await asyncio.sleep(self.ping_interval_s)
                if self._connected:
                    try:
                        await self._ws.send(json.dumps({'type': 'ping', 'sent_at': time.time() * 1000}))
                    except wscompat.ConnectionClosed:
                        pass
        except asyncio.CancelledError:
            return

    async def _read_loop(self, ws: Any) -> None:
        try:
            async for raw in ws:
                try:
                    m = json.loads(raw)
                except ValueError:
                    logger.warning('bridge sent a frame that is not JSON; ignored')
                    continue
                await self._dispatch(m)
        except wscompat.ConnectionClosed:
            pass
        except Exception:  # a bug in dispatch must not leave calls hanging
            logger.exception('reading from the bridge failed')
        finally:
            if ws is self._ws:
                self._on_socket_closed(ws)

    def _on_socket_closed(self, ws: Any) -> None:
        code, reason = wscompat.close_info(ws)
        self._connected = False
        # 4001 on an established connection: the bridge no longer takes our secret. The reconnect
        # reads it again once and ends the connection for good if that does not help.
        final = code in CLOSE_CODES and code != CloseCode.SECRET_REFUSED and not self._closing
        if self._closing or not self.reconnect or self.closed is None or final:
            if code == CloseCode.DISCONNECTED_BY_PERSON:
                why = (
                    f'the person disconnected this agent in the extension ({reason}); '
                    'connect again with a new ExtensionBrowser context if they allow it'
                )
            else:
                why = f'connection to the bridge closed ({code} {reason})'
            if final:
                logger.warning('%s; not reconnecting', why)
            for action_id, fut in list(self._waiters.items()):
                if not fut.done():
                    fut.set_exception(
                        BridgeError(
                            f'{why} before action {action_id} was answered',
                            ErrorCode.EXTENSION_DISCONNECTED if not final else ErrorCode.COMMUNICATION_ERROR_WITH_TARGET,
                        )
                    )
            self._waiters.clear()
            self._fail_all(BridgeError(why, ErrorCode.COMMUNICATION_ERROR_WITH_TARGET))
            if final:
                self.ended = BridgeError(why, _close_error_code(code))
            self._closing = self._closing or final
            if self._pinger:
                self._pinger.cancel()
            if self.closed is not None:
                self.closed.set()
            return
        self._down_since = time.monotonic()
        logger.warning(
            'lost the connection to the bridge at %s (%s %s); reconnecting (calls wait, bounded by their timeouts)', self.url, code, reason
        )
        if self._reconnector is None or self._reconnector.done():
            self._reconnector = asyncio.ensure_future(self._reconnect_loop())

    def _backoff_delays(self) -> Iterator[float]:
        """0.1, 0.2, 0.4, ... capped at backoff_max_s: quick for a blip, at most one try per cap after."""
        return iter(Backoff(self.backoff_initial_s, self.backoff_max_s))

    async def _reconnect_loop(self) -> None:
        delays = self._backoff_delays()
        while not self._closing:
            await asyncio.sleep(next(delays))
            try:
                ack = await asyncio.wait_for(self._handshake_rereading(), self.connect_timeout_s)
            except asyncio.CancelledError:
                raise
            except (BridgeError, asyncio.TimeoutError, OSError, ValueError) as e:
                await self._drop()
                if isinstance(e, BridgeError) and e.code in (ErrorCode.VERSION_MISMATCH, ErrorCode.UNAUTHORIZED):
                    # A bridge of another protocol version came back, or it refused the secret (also
                    # after reading it again): waiting cannot fix either. The caller reports e.
                    logger.debug('not reconnecting to %s: %s', self.url, e)
                    self._closing = True
                    self.ended = e
                    self._fail_all(e)
                    if self._pinger:
                        self._pinger.cancel()
                    if self.closed is not None:
                        self.closed.set()
                    return
                continue
            outage_ms = int(self._outage_s() * 1000)
            resumed = bool(ack.get('resumed'))
            self.reconnects += 1
            self.last_resumed = resumed
            logger.info('reconnected to the bridge after %d ms (session %s)', outage_ms, 'resumed' if resumed else 'new: the bridge '
                                                                                                                   'did not know it')
            await self._resend_inflight(resumed)
            self._up()
            self._emit_local({'type': 'reconnected', 'resumed': resumed, 'outage_ms': outage_ms})
            return

    async def _resend_inflight(self, resumed: bool) -> None:
        for action_id, entry in list(self._inflight.items()):
            msg, sent = entry
            fut = self._waiters.get(action_id)
            if fut is None or fut.done():
                continue
            if sent and not resumed and msg.get('action') not in REPEATABLE_ACTIONS:
                # The bridge lost the session (and so the record of this action) while it ran:
                # running it again could act twice, so the caller hears that the outcome is unknown.
                fut.set_exception(BridgeError(f'the bridge restarted while action "{msg.get("action")}" ({action_id}) was running and '
                                              'did not keep the session, so whether it ran is unknown; take a new state before acting '
                                              'again', ErrorCode.EXTENSION_DISCONNECTED))
                continue
            try:
                await self._ws.send(json.dumps(msg))  # same action_id: a resumed session answers it once
                entry[1] = True
            except wscompat.ConnectionClosed:
                return  # dropped again: the reader loop starts another reconnect

    def _emit_local(self, m: dict) -> None:
        for handler in self._handlers.get(str(m.get('type')), []):
            try:
                r = handler(m)
                if asyncio.iscoroutine(r):
                    asyncio.ensure_future(r)
            except Exception:
                logger.exception('handler for %s failed', m.get('type'))

    async def _dispatch(self, m: dict) -> None:
        t = m.get('type')
        if t == 'action_result':
            fut = self._waiters.get(str(m.get('original_action_id')))
            if fut and not fut.done():
                fut.set_result(m)
            return
        if t == 'ping':
            try:
                await self._ws.send(json.dumps({'type': 'pong', 'sent_at': m.get('sent_at', 0)}))
            except wscompat.ConnectionClosed:
                pass
            return
        if t == 'pong':
            self.last_pong_rtt_ms = max(0.0, time.time() * 1000 - float(m.get('sent_at', 0)))
            return
        if t == 'extension_status':
            self._set_extension(m.get('connected'))
            said = m.get('browser')
            if isinstance(said, dict):
                if self.browser is None and m.get('connected'):
                    # A session that had no browser yet works in the first one that connected.
                    logger.info('browser-use-ext: working in the browser "%s", the first one that connected.', said.get('name'))
                self.browser = said
        if t == 'persistence_status':
            # The bridge could not save sessions and action ids (a full disk, a read-only config dir):
            # a bridge restart now would end this session and its leases. Said once per change.
            self.durable = m.get('durable') is not False
            if self.durable:
                logger.info('bridge: %s', m.get('message'))
            else:
                logger.warning('bridge: %s', m.get('message'))
        if t == 'error':
            in_reply = m.get('in_reply_to')
            fut = self._waiters.get(str(in_reply)) if in_reply else None
            if fut and not fut.done():
                info = m.get('error_info') or {}
                fut.set_result({'type': 'action_result', 'original_action_id': in_reply, 'status': 'error', 'error_info': info})
                return
            logger.warning('bridge error: %s', (m.get('error_info') or {}).get('message'))
        self._emit_local(m)
