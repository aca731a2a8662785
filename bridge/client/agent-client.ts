// Typed agent-side client of the bridge, used by tests, benchmarks and TypeScript users.
// - Handshake: hello with a fresh client_nonce, checks the bridge's proof, answers the
//   challenge. The agent secret comes from options, else env BROWSER_USE_EXT_AGENT_SECRET, else
//   the install's secrets file (bridge/common/secrets.ts).
// - `call()` sends an action and resolves with its action_result (success or error: a failed action
//   is an answer, not an exception); `cdp()` sends one DevTools command (cdp_command) and resolves with
//   its cdp_result, the same way. Transport failures reject with BridgeClientError.
// - Reconnection: when the socket drops unexpectedly the client reconnects for as long as it is not
//   closed (backoff 100 ms doubling to 2 s, with jitter), presents its session_token (same session,
//   same tabs, also after a bridge restart: the bridge persists sessions) and re-sends unanswered
//   actions with the same action_id; the bridge answers those from its record (kept on disk across
//   its restarts) instead of running them twice. A caller sees an outage only as a longer wait inside
//   its own call timeout. When the bridge did not resume the session (it lost it), an action that was
//   already sent and is not a read is answered EXTENSION_DISCONNECTED (outcome unknown), not re-sent.
//   An action is sent at most MAX_SENDS times: one whose connection keeps dropping before its answer
//   (a bridge that refuses it, say) is answered instead of being re-sent in a loop.
// - Size: a frame over the bridge's limit (bridge/common/message-limits.ts) is never sent; its call
//   is answered MESSAGE_TOO_LARGE at once (the bridge would close the connection with 1009, and a
//   re-send after the reconnect would only repeat that).
// - A refused secret (close 4001, an UNAUTHORIZED answer to the proof, or a bridge that cannot prove
//   it knows our secret): the secret may have been rotated (a new secrets.json after a re-pair), so
//   the client reads it again ONCE (env, else the secrets file) and, when it changed, tries with it.
//   When that fails too it stops for good with one line that says what to check ('ended' event):
//   retrying the same secret cannot help.
// - Transport: a WebSocket to `url`, or for an agent inside the bridge's process (the CDP endpoint) an
//   in-process link (agent-transport.ts) with the same handshake and the same checks at the relay.
// - persistence_status: the bridge says whether it can save sessions and action ids to disk; the
//   client keeps it in `durable` and emits 'persistence_status' (a process warning when nobody listens).
// - Browser: one bridge serves every browser the person uses (Chrome profiles, Edge, Brave...); the
//   `browser` option names the one this session works in (hello.browser_name). `browser` is the one the
//   bridge chose (hello_ack.browser, later extension_status.browser when it binds to the first browser
//   that connects); a name no connected browser has is answered per action with BROWSER_NOT_CONNECTED,
//   whose message lists the connected names.
import crypto from 'node:crypto';
import { EventEmitter } from 'node:events';

import type {
  ActionMessage,
  ActionResultMessage,
  BrowserInfo,
  CdpCommandMessage,
  CdpResultMessage,
  ErrorInfo,
  GetStateParams,
  HelloAckMessage,
  PersistenceStatusMessage,
  ProtocolMessage,
  SettleOptions,
  TaskProgressMessage,
} from '../../schemas/generated/protocol';
import { type ActionName, type ActionParams, PROTOCOL_VERSION } from '../../schemas/generated/registry';
import { errorResult } from '../../schemas/lib/action-result';
import { Backoff } from '../../schemas/lib/backoff';
import { CLOSE_CODES } from '../../schemas/lib/close-codes';
import { READ_ONLY_ACTIONS } from '../../schemas/lib/read-only-actions';
import { StateDeltaError } from '../../schemas/lib/state-delta';
import { checkMessage, errorInfo } from '../../schemas/lib/wire';
import { bridgeProof, clientProof, proofsEqual } from '../common/auth';
import type { LinkEnd } from '../common/in-process-link';
import { BRIDGE_FRAME_MAX_BYTES, CDP_MESSAGE_MAX_BYTES, exceeds, mib } from '../common/message-limits';
import { AGENT_SECRET_ENV, readAgentSecret, SECRETS_FILE } from '../common/secrets';
import { BRIDGE_VERSION } from '../common/version';
import { type AgentTransport, CLOSED, type Dial, inProcessDial, OPEN, webSocketDial } from './agent-transport';
import { decodeFromBridge } from './decode-from-bridge';
import { keepResultText } from './result-text';
import { StateTracker } from './state-tracker';

export class BridgeClientError extends Error {
  override name = 'BridgeClientError';
  constructor(
    message: string,
    public code: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/**
 * The bridge's close codes after which a client must not come back by itself, as the error every
 * later call gets (schemas/v1/defs/close_code.json); null for any other close.
 */
export function finalClose(code: number, reason: string): BridgeClientError | null {
  const said = reason ? ` (${reason})` : '';
  switch (code) {
    case CLOSE_CODES.disconnectedByPerson:
      return new BridgeClientError(
        `The person disconnected this agent in the browser's side panel${said}. It stays disconnected: start the agent again when the person wants it back.`,
        'NOT_PERMITTED',
      );
    case CLOSE_CODES.secretRefused:
      return secretRefused();
    case CLOSE_CODES.versionMismatch:
      return new BridgeClientError(
        `The bridge speaks another protocol version${said}. Update the older side, then start the agent again.`,
        'VERSION_MISMATCH',
      );
    default:
      return null;
  }
}

/**
 * The one line an agent ends with when the bridge refused its secret (also after reading it again):
 * pairing is for the extension, so it names what an agent can check.
 */
export function secretRefused(url?: string, what?: string): BridgeClientError {
  return new BridgeClientError(
    `${what ?? `The bridge${url ? ` at ${url}` : ''} refused this agent's secret.`} Check ${AGENT_SECRET_ENV} or the bridge's ${SECRETS_FILE} (run \`browser-use-ext bridge --print-pairing\`), then start the agent again.`,
    'UNAUTHORIZED',
  );
}

/** A handshake failure that means "wrong secret" (not "bridge down"): worth one re-read of the secret. */
class SecretMismatch extends BridgeClientError {
  override name = 'SecretMismatch';
  /** What the final one line says first (default: the bridge refused the secret). */
  constructor(
    message: string,
    code: string,
    readonly what?: string,
  ) {
    super(message, code);
  }
}

export interface AgentClientOptions {
  /** ws://127.0.0.1:PORT/agent (also what messages name when `inProcess` is given). */
  url: string;
  /**
   * An agent inside the bridge's own process: a new in-process link to the relay per connection
   * (BridgeServer.connectInProcessAgent), instead of a WebSocket to `url`. Same handshake and checks.
   */
  inProcess?: () => LinkEnd;
  /** The agent secret. Omitted: env BROWSER_USE_EXT_AGENT_SECRET, else the install's secrets.json. */
  secret?: string;
  clientName?: string;
  /** The language model the agent drives (hello.client.model): the side panel names the agent with it. */
  model?: string;
  capabilities?: string[];
  /** Tab limit for this session (hello.max_tabs). */
  maxTabs?: number;
  /**
   * The browser to work in, by the name its side panel shows (hello.browser_name, case-insensitive).
   * Omitted: the only connected browser, or with several the one the person used last.
   */
  browser?: string;
  /**
   * The task this session carries out for another session of the same agent (hello.task_id): the
   * bridge shows it under that session and ends it with the task. For a per-task session only.
   */
  taskId?: string;
  /** Slack the client adds on top of the bridge's own timeout (which answers TIMEOUT). */
  callTimeoutMs?: number;
  connectTimeoutMs?: number;
  /** Reconnect after an unexpected drop (default true), for as long as the client is not closed. */
  reconnect?: boolean;
  /** Longest pause between reconnect attempts (default 2000 ms). */
  reconnectMaxDelayMs?: number;
}

export interface CallOptions {
  tabId?: number;
  /** Forwarded as timeout_ms: the bridge answers TIMEOUT after it. */
  timeoutMs?: number;
  actionId?: string;
  /** Settle rule for this action (the action message's settle field). */
  settle?: SettleOptions;
  /**
   * The state after the action as a delta against this client's last state of the tab (the action
   * message's state_since); the result comes back with the whole state rebuilt in new_simplified_state.
   */
  deltaState?: boolean;
}

/** One DevTools command for a tab this session attached with cdp_attach (a cdp_command message). */
export interface CdpCommand {
  tabId: number;
  /** Domain.method, e.g. Runtime.evaluate. */
  method: string;
  params?: Record<string, unknown>;
  /** A child session Chrome created inside the tab (an out-of-process frame, a worker); omitted: the tab itself. */
  sessionId?: string;
  /** Forwarded as timeout_ms: the bridge answers TIMEOUT after it. */
  timeoutMs?: number;
}

/** Sends of one action at most (the first and two re-sends after reconnects). */
const MAX_SENDS = 3;

interface WaiterBase {
  /** It reached a bridge at least once (so it may have run). */
  sent: boolean;
  /** How many times it was sent (MAX_SENDS at most). */
  sends: number;
  reject: (e: Error) => void;
  timer: ReturnType<typeof setTimeout>;
  /**
   * Created at send time so a failure points at the caller (puppeteer's CallbackRegistry); or made
   * only when needed (cdpText: the CDP endpoint's relay, whose client sees a CDP error, never this stack).
   */
  error: BridgeClientError | (() => BridgeClientError);
}

/** The waiter's error, made now if it was left for when it is needed. */
function errorOf(w: { error: BridgeClientError | (() => BridgeClientError) }): BridgeClientError {
  if (typeof w.error === 'function') w.error = w.error();
  return w.error;
}

/** A request waiting for its answer: an action for its action_result, a CDP command for its cdp_result. */
type Waiter = WaiterBase &
  (
    | { kind: 'action'; message: ActionMessage; resolve: (r: ActionResultMessage) => void }
    | {
        kind: 'cdp';
        message: CdpCommandMessage;
        resolve: (r: CdpResultMessage) => void;
        /** cdpText(): a result that comes as text is handed on as text. */
        resolveText?: (json: string) => void;
      }
  );

/** A waiter before dispatch() sets its timer. */
type NewWaiter = { [K in Waiter['kind']]: Omit<Extract<Waiter, { kind: K }>, 'timer'> }[Waiter['kind']];

export class AgentClient extends EventEmitter {
  private ws: AgentTransport | null = null;
  private readonly dial: Dial;
  private readonly waiters = new Map<string, Waiter>();
  private seq = 0;
  private closing = false;
  private reconnecting: Promise<void> | null = null;
  /** Set when the bridge closed the session for good (close codes 4001-4003, or a secret it refused
   * also after a re-read): every later call fails with it. */
  ended: BridgeClientError | null = null;
  private secret: string;
  hello: HelloAckMessage | null = null;
  private boundBrowser: BrowserInfo | undefined;
  /** Whether the bridge saves this session and its action ids to disk (persistence_status); false
   * means a bridge restart now would lose the session. */
  durable = true;
  /** Last state per tab, for getState's deltas. */
  readonly states = new StateTracker();

  constructor(private readonly opts: AgentClientOptions) {
    super();
    const secret = this.readSecret();
    if (!secret)
      throw new BridgeClientError(
        `No agent secret: pass { secret }, set ${AGENT_SECRET_ENV}, or run the bridge once on this machine so it creates its secrets file.`,
        'UNAUTHORIZED',
      );
    this.secret = secret;
    this.dial = opts.inProcess ? inProcessDial(opts.inProcess) : webSocketDial(opts.url);
  }

  static async connect(opts: AgentClientOptions): Promise<AgentClient> {
    const c = new AgentClient(opts);
    await c.open();
    return c;
  }

  /**
   * Another session on the same bridge, with this client's address and secret: an agent that takes
   * tasks on one session runs each on its own, and closing that one frees the task's tabs at once.
   */
  connectAnother(overrides: Pick<AgentClientOptions, 'clientName' | 'capabilities' | 'maxTabs' | 'taskId'>): Promise<AgentClient> {
    // The task's session works in the browser this one was given (a session not bound yet asks as it did).
    const browser = this.browser?.name ?? this.opts.browser;
    return AgentClient.connect({ ...this.opts, ...(browser === undefined ? {} : { browser }), ...overrides });
  }

  /**
   * The browser this session works in, as the bridge last said (hello_ack.browser, then
   * extension_status.browser); undefined while none is chosen (a named one is not connected, or none
   * is connected yet).
   */
  get browser(): BrowserInfo | undefined {
    return this.boundBrowser;
  }

  /** Every browser the bridge knew at the handshake (hello_ack.browsers), connected or not. */
  get browsers(): BrowserInfo[] {
    return this.hello?.browsers ?? [];
  }

  get sessionId(): string | null {
    return this.hello?.session_id ?? null;
  }

  /** The secret as configured now: options, else env BROWSER_USE_EXT_AGENT_SECRET, else the secrets file. */
  private readSecret(): string | null {
    if (this.opts.secret !== undefined) return this.opts.secret;
    try {
      return readAgentSecret();
    } catch {
      return null; // a broken file: keep the secret we have; the refusal line says to check the file
    }
  }

  /**
   * Connects and completes the handshake; resumes the session when one was established before.
   * A refused secret is read again once (it may have been rotated); refused again, or unchanged, it
   * rejects with the one line of secretRefused() and the client does not come back by itself.
   */
  async open(): Promise<HelloAckMessage> {
    if (this.ended) throw this.ended;
    try {
      return await this.openOnce();
    } catch (e) {
      if (!(e instanceof SecretMismatch)) throw e;
      let refused: SecretMismatch = e;
      const fresh = this.readSecret();
      if (fresh && fresh !== this.secret) {
        this.secret = fresh;
        try {
          return await this.openOnce();
        } catch (again) {
          if (!(again instanceof SecretMismatch)) throw again;
          refused = again;
        }
      }
      throw secretRefused(this.opts.url, refused.what);
    }
  }

  private async openOnce(): Promise<HelloAckMessage> {
    const ws = this.dial();
    this.ws = ws;
    const timeoutMs = this.opts.connectTimeoutMs ?? 10_000;
    const clientNonce = crypto.randomBytes(24).toString('base64');
    const ack = await new Promise<HelloAckMessage>((resolve, reject) => {
      let settled = false;
      let established = false;
      const fail = (e: BridgeClientError) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        ws.terminate();
        reject(e);
      };
      const timer = setTimeout(
        () => fail(new BridgeClientError(`no hello_ack from ${this.opts.url} within ${timeoutMs} ms`, 'TIMEOUT')),
        timeoutMs,
      );
      ws.onceError((err) =>
        fail(
          new BridgeClientError(
            `cannot connect to the bridge at ${this.opts.url}: ${err.message}. Is it running? Start it with browser-use-ext bridge.`,
            'COMMUNICATION_ERROR_WITH_TARGET',
            { cause: err },
          ),
        ),
      );
      ws.onOpen(() => {
        const hello: ProtocolMessage = {
          type: 'hello',
          role: 'agent',
          protocol_version: PROTOCOL_VERSION,
          client: {
            name: this.opts.clientName ?? 'browser-use-ext-ts-client',
            version: BRIDGE_VERSION,
            ...(this.opts.model ? { model: this.opts.model.slice(0, 100) } : {}),
          },
          capabilities: this.opts.capabilities ?? [],
          client_nonce: clientNonce,
        };
        if (this.hello?.session_token) hello.session_token = this.hello.session_token;
        if (this.opts.maxTabs !== undefined) hello.max_tabs = this.opts.maxTabs;
        if (this.opts.browser !== undefined) hello.browser_name = this.opts.browser;
        if (this.opts.taskId !== undefined) hello.task_id = this.opts.taskId.slice(0, 128);
        this.sendOn(ws, hello);
      });
      ws.onMessage((text) => {
        if (settled && this.opts.inProcess !== undefined && this.takeResultText(text)) return;
        const decoded = decodeFromBridge(text);
        if (!decoded.ok) {
          this.emit('protocol-error', decoded.error, decoded.inReplyTo);
          return;
        }
        const m = decoded.value;
        keepResultText(m, text);
        if (!settled) {
          if (m.type === 'auth_challenge') {
            // Check the bridge first: an impostor on the port never gets a proof to replay.
            if (!proofsEqual(bridgeProof(this.secret, clientNonce), m.bridge_proof)) {
              const what = `The bridge at ${this.opts.url} refused this agent's secret: it could not prove it knows the same secret (the secret is wrong or outdated, or it is not your bridge).`;
              fail(new SecretMismatch(what, 'UNAUTHORIZED', what));
              return;
            }
            this.sendOn(ws, { type: 'auth_response', proof: clientProof(this.secret, 'agent', m.nonce, clientNonce) });
            return;
          }
          if (m.type === 'hello_ack') {
            settled = true;
            established = true;
            clearTimeout(timer);
            resolve(m);
            return;
          }
          if (m.type === 'error') {
            const E = m.error_info.error_code === 'UNAUTHORIZED' && m.in_reply_to === 'auth_response' ? SecretMismatch : BridgeClientError;
            fail(new E(m.error_info.message, m.error_info.error_code));
            return;
          }
        }
        this.onMessage(m);
      });
      ws.onClose((code, reason) => {
        if (!established) {
          const E = code === CLOSE_CODES.secretRefused ? SecretMismatch : BridgeClientError;
          fail(
            new E(
              `the bridge closed the connection during the handshake (${code} ${reason})`,
              code === 1008 || code === CLOSE_CODES.secretRefused ? 'UNAUTHORIZED' : 'COMMUNICATION_ERROR_WITH_TARGET',
            ),
          );
          return;
        }
        if (this.ws === ws) this.onClose(code, reason);
      });
    });
    this.hello = ack;
    // A resumed session keeps its browser; a bridge that does not say (an older one) leaves what we knew.
    this.boundBrowser = ack.browser ?? (ack.resumed === true ? this.boundBrowser : undefined);
    return ack;
  }

  /** Sends an action and resolves with its action_result. */
  call<A extends ActionName>(action: A, params: ActionParams<A>, options: CallOptions = {}): Promise<ActionResultMessage> {
    if (this.ended) return Promise.reject(this.ended);
    const actionId = options.actionId ?? `a${++this.seq}-${Date.now().toString(36)}`;
    const message: ActionMessage = { type: 'action', action_id: actionId, action, params };
    if (options.tabId !== undefined) message.tab_id = options.tabId;
    if (options.timeoutMs !== undefined) message.timeout_ms = options.timeoutMs;
    if (options.settle !== undefined) message.settle = options.settle;
    const since = options.deltaState && action !== 'get_state' ? this.states.sinceFor(options.tabId) : undefined;
    if (since !== undefined) message.state_since = since;
    const clientTimeout = (options.timeoutMs ?? 15_000) + (this.opts.callTimeoutMs ?? 5_000);
    const error = new BridgeClientError(`action "${action}" (${actionId}) got no answer within ${clientTimeout} ms`, 'TIMEOUT');
    const answered = new Promise<ActionResultMessage>((resolve, reject) => {
      this.dispatch(actionId, clientTimeout, { kind: 'action', message, resolve, reject, error, sent: false, sends: 0 });
    });
    if (since === undefined) return answered;
    return answered.then((r) => {
      try {
        return this.states.absorb(r);
      } catch (e) {
        if (!(e instanceof StateDeltaError)) throw e;
        // the action ran; its state is lost to this client: getState() takes a full one
        if (r.tab_id !== undefined) this.states.forget(r.tab_id);
        return r;
      }
    });
  }

  /**
   * Sends one DevTools command to a tab this session attached (cdp_attach) and resolves with its
   * cdp_result: Chrome's result, or error_info (CDP_ERROR with details.cdp_error, a refusal, TIMEOUT),
   * an answer, not an exception, as for call(). One message and no await in between: the CDP
   * endpoint's hot path.
   */
  cdp(command: CdpCommand): Promise<CdpResultMessage> {
    if (this.ended) return Promise.reject(this.ended);
    const commandId = `c${++this.seq}`;
    const message: CdpCommandMessage = { type: 'cdp_command', command_id: commandId, tab_id: command.tabId, method: command.method };
    if (command.params !== undefined) message.params = command.params;
    if (command.sessionId !== undefined) message.session_id = command.sessionId;
    if (command.timeoutMs !== undefined) message.timeout_ms = command.timeoutMs;
    const clientTimeout = (command.timeoutMs ?? 15_000) + (this.opts.callTimeoutMs ?? 5_000);
    const error = new BridgeClientError(`CDP command ${command.method} (${commandId}) got no answer within ${clientTimeout} ms`, 'TIMEOUT');
    return new Promise<CdpResultMessage>((resolve, reject) => {
      this.dispatch(commandId, clientTimeout, { kind: 'cdp', message, resolve, reject, error, sent: false, sends: 0 });
    });
  }

  /**
   * As cdp(), for a relay that hands the result on (the CDP endpoint's replies): over an in-process
   * link a successful answer comes as `{ json }`, Chrome's result text exactly as the extension sent
   * it and the bridge relayed it (raw-relay.ts; envelope checked, cdp-result-head.ts), not parsed here a second time; any other answer
   * (an error, or over a WebSocket) comes as cdp() gives it.
   */
  cdpText(command: CdpCommand): Promise<CdpResultMessage | { json: string }> {
    if (this.ended) return Promise.reject(this.ended);
    const commandId = `c${++this.seq}`;
    const message: CdpCommandMessage = { type: 'cdp_command', command_id: commandId, tab_id: command.tabId, method: command.method };
    if (command.params !== undefined) message.params = command.params;
    if (command.sessionId !== undefined) message.session_id = command.sessionId;
    if (command.timeoutMs !== undefined) message.timeout_ms = command.timeoutMs;
    const clientTimeout = (command.timeoutMs ?? 15_000) + (this.opts.callTimeoutMs ?? 5_000);
    // The hot path of every relayed CDP command: the error (a stack capture, ~10 us) only if one is needed.
    const error = () =>
      new BridgeClientError(`CDP command ${command.method} (${commandId}) got no answer within ${clientTimeout} ms`, 'TIMEOUT');
    return new Promise<CdpResultMessage | { json: string }>((resolve, reject) => {
      const resolveText = (json: string) => resolve({ json });
      this.dispatch(commandId, clientTimeout, { kind: 'cdp', message, resolve, resolveText, reject, error, sent: false, sends: 0 });
    });
  }

  /**
   * An in-process link's successful cdp_result for a cdpText() waiter, taken without parsing it: the
   * relay checked these very bytes (an extension's answer, relayed with only the id changed:
   * raw-relay.ts) and the schema allows nothing after `result` but its own keys. False: decode as usual.
   */
  private takeResultText(text: string): boolean {
    const head = RESULT_HEAD.exec(text.slice(0, 400));
    if (!head || !text.endsWith('}')) return false;
    const id = JSON.parse(head[1] as string) as string;
    const w = this.waiters.get(id);
    if (w?.kind !== 'cdp' || !w.resolveText || Number(head[2]) !== w.message.tab_id) return false;
    clearTimeout(w.timer);
    this.waiters.delete(id);
    w.resolveText(text.slice(head[0].length, -1));
    return true;
  }

  /** Registers a request's waiter (with its own timer) and sends it, or leaves it for the reconnect. */
  private dispatch(id: string, timeoutMs: number, w: NewWaiter): void {
    const timer = setTimeout(() => {
      this.waiters.delete(id);
      w.reject(errorOf(w));
    }, timeoutMs);
    const waiter: Waiter = { ...w, timer };
    this.waiters.set(id, waiter);
    if (this.reconnecting) return; // sent once the connection is back
    if (!this.closing && this.hello && this.opts.reconnect !== false && (!this.ws || this.ws.readyState !== OPEN)) {
      this.startReconnect(); // the drop was not noticed yet (or an earlier loop ended): wait for it
      return;
    }
    try {
      this.sendRaw(waiter.message);
      waiter.sent = true;
      waiter.sends = 1;
    } catch (e) {
      clearTimeout(timer);
      this.waiters.delete(id);
      if (e instanceof FrameTooLarge) answerUnsent(waiter, id, e.info);
      else waiter.reject(e instanceof Error ? e : new Error(String(e)));
    }
  }

  /**
   * get_state that moves only what changed: passes the last state of the tab as
   * `since` and answers with the whole new state in new_simplified_state (a state_delta answer is
   * applied here and stays in state_delta). A delta that does not fit is retried as a full state.
   */
  async getState(params: Omit<GetStateParams, 'since'> = {}, options: CallOptions = {}): Promise<ActionResultMessage> {
    const since = this.states.sinceFor(options.tabId);
    const r = await this.call('get_state', since === undefined ? params : { ...params, since }, options);
    try {
      return this.states.absorb(r);
    } catch (e) {
      if (!(e instanceof StateDeltaError)) throw e;
      return this.states.absorb(await this.call('get_state', params, { ...options, actionId: undefined }));
    }
  }

  /** Reports progress of a task received through the 'task' event. */
  sendTaskProgress(progress: Omit<TaskProgressMessage, 'type'>): void {
    this.sendRaw({ type: 'task_progress', ...progress });
  }

  /** Sends any protocol message after validating it. */
  sendRaw(message: ProtocolMessage): void {
    if (!this.ws || this.ws.readyState !== OPEN)
      throw new BridgeClientError('not connected to the bridge; call open() first', 'COMMUNICATION_ERROR_WITH_TARGET');
    this.sendOn(this.ws, message);
  }

  /** Sends a frame without validation (tests of the bridge's own validation). */
  sendUnchecked(text: string): void {
    this.ws?.send(text);
  }

  /** Drops the socket without a close handshake (tests of reconnection). */
  dropConnection(): void {
    this.ws?.terminate();
  }

  async close(): Promise<void> {
    this.closing = true;
    const ws = this.ws;
    if (!ws || ws.readyState === CLOSED) return;
    await new Promise<void>((resolve) => {
      ws.onClose(() => resolve());
      ws.close(1000, 'client closing');
    });
  }

  private sendOn(ws: AgentTransport, message: ProtocolMessage): void {
    const checked = checkMessage(message, 'client');
    if (!checked.ok) throw new BridgeClientError(checked.error.message, 'INVALID_MESSAGE');
    const text = JSON.stringify(message);
    const size = exceeds(text, BRIDGE_FRAME_MAX_BYTES);
    if (size !== null) throw new FrameTooLarge(message, size);
    ws.send(text);
  }

  private onMessage(m: ProtocolMessage): void {
    switch (m.type) {
      case 'action_result': {
        const w = this.waiters.get(m.original_action_id);
        if (w?.kind !== 'action') return;
        clearTimeout(w.timer);
        this.waiters.delete(m.original_action_id);
        if (m.new_simplified_state) this.states.absorb(m); // any full state is a base for getState's next delta
        w.resolve(m);
        return;
      }
      case 'cdp_result': {
        const w = this.waiters.get(m.original_command_id);
        if (w?.kind !== 'cdp') return;
        clearTimeout(w.timer);
        this.waiters.delete(m.original_command_id);
        w.resolve(m);
        return;
      }
      case 'ping':
        this.sendRaw({ type: 'pong', sent_at: m.sent_at });
        return;
      case 'state_update':
        this.emit('state_update', m);
        return;
      case 'user_task_submission':
        this.emit('task', m);
        return;
      case 'task_control':
        this.emit('task_control', m);
        return;
      case 'tab_released':
        this.emit('tab_released', m);
        return;
      case 'extension_status':
        if (m.browser) this.boundBrowser = m.browser;
        this.emit('extension_status', m);
        return;
      case 'cdp_event':
        this.emit('cdp_event', m);
        return;
      case 'persistence_status':
        this.onPersistence(m);
        return;
      case 'error':
        this.emit('protocol-error', m.error_info satisfies ErrorInfo, m.in_reply_to ?? null);
        return;
      default:
        return;
    }
  }

  private onClose(code: number, reason: string): void {
    // 4001 on an established connection: the bridge no longer takes our secret. Reconnecting runs
    // open(), which reads the secret again once and ends the client for good if that does not help.
    const final = code === CLOSE_CODES.secretRefused && !this.closing && this.opts.reconnect !== false ? null : finalClose(code, reason);
    if (final) this.ended = final;
    this.emit('close', code, reason);
    // 1008: the bridge refused us (auth, policy); reconnecting would only repeat that. 4001-4003: the
    // secret was refused, the versions differ, or the person disconnected this agent in the side
    // panel; coming back as a new session would undo the person's Stop.
    if (final || this.closing || this.opts.reconnect === false || !this.hello || code === 1008) {
      if (final) this.failAll(final.message, final.code);
      else this.failAll(`connection to the bridge closed (${code} ${reason})`);
      return;
    }
    this.startReconnect();
  }

  private startReconnect(): void {
    if (this.reconnecting) return;
    this.reconnecting = this.reconnectLoop().finally(() => {
      this.reconnecting = null;
    });
  }

  private async reconnectLoop(): Promise<void> {
    // Jitter: several agents of one bridge do not all knock at the same instant after a restart.
    const backoff = new Backoff({ baseMs: 100, maxMs: this.opts.reconnectMaxDelayMs ?? 2_000, jitter: 0.5 });
    while (!this.closing) {
      await new Promise((r) => setTimeout(r, backoff.next()));
      try {
        await this.open();
      } catch (e) {
        // A refused secret (read again once inside open()) will not get better by retrying; anything
        // else (down, restarting) will.
        if (e instanceof BridgeClientError && e.code === 'UNAUTHORIZED') {
          this.end(e);
          // Listeners that stop on the bridge's close codes (connectors, the MCP link) stop here too.
          this.emit('close', CLOSE_CODES.secretRefused, e.message);
          return;
        }
        continue;
      }
      this.resendWaiters();
      this.emit('reconnected', this.hello);
      return;
    }
    this.failAll('could not reconnect to the bridge');
  }

  /**
   * Same action ids: a resumed session replays recorded results or joins still-running actions (the
   * bridge keeps them on disk across its restarts). A session the bridge lost has no such record:
   * an action already sent that is not a read may have run, so it is answered "outcome unknown"
   * instead of being run again.
   */
  private resendWaiters(): void {
    const resumed = this.hello?.resumed === true;
    for (const [id, w] of this.waiters) {
      const what = w.kind === 'action' ? `"${w.message.action}"` : w.message.method;
      if (w.sends >= MAX_SENDS) {
        clearTimeout(w.timer);
        this.waiters.delete(id);
        answerUnsent(
          w,
          id,
          errorInfo(
            'EXTENSION_DISCONNECTED',
            `${what} (${id}) was sent ${w.sends} times and the connection to the bridge dropped each time before its answer; it is not sent again, and whether it took effect is unknown. Check the bridge's log, take a new state, and repeat it only if it did not happen.`,
            'client',
            { reason: 'resend_limit', sends: w.sends },
          ),
        );
        continue;
      }
      if (w.sent && !resumed && !(w.kind === 'action' && READ_ONLY_ACTIONS.has(w.message.action))) {
        clearTimeout(w.timer);
        this.waiters.delete(id);
        answerUnsent(
          w,
          id,
          errorInfo(
            'EXTENSION_DISCONNECTED',
            `The bridge restarted while ${what} (${id}) was running and did not keep this agent's session, so whether it took effect is unknown; it was not sent again. Take a new state and check whether it happened before repeating it.`,
            'client',
            { reason: 'outcome_unknown_session_lost' },
          ),
        );
        continue;
      }
      try {
        this.sendRaw(w.message);
      } catch (e) {
        clearTimeout(w.timer);
        this.waiters.delete(id);
        if (e instanceof FrameTooLarge) answerUnsent(w, id, e.info);
        else w.reject(e instanceof Error ? e : new Error(String(e)));
        continue;
      }
      w.sent = true;
      w.sends += 1;
    }
  }

  /** The client stops for good: every waiting and later call fails with e; 'ended' says it once. */
  private end(e: BridgeClientError): void {
    this.ended = e;
    this.failAll(e.message, e.code);
    this.emit('ended', e);
  }

  private onPersistence(m: PersistenceStatusMessage): void {
    this.durable = m.durable;
    if (this.listenerCount('persistence_status') > 0) this.emit('persistence_status', m);
    else if (!m.durable) process.emitWarning(m.message, 'BridgePersistenceWarning');
  }

  private failAll(why: string, code = 'EXTENSION_DISCONNECTED'): void {
    for (const [id, w] of this.waiters) {
      clearTimeout(w.timer);
      const error = errorOf(w);
      error.message = `${why} (${w.kind === 'action' ? 'action' : 'CDP command'} ${id} was not answered)`;
      error.code = code;
      w.reject(error);
    }
    this.waiters.clear();
  }
}

/** The start of a relayed successful cdp_result as the worker writes it (cdp/cdp-command.ts) and raw-relay.ts keeps it. */
const RESULT_HEAD = /^\{"type":"cdp_result","original_command_id":("(?:[^"\\]|\\.){1,256}"),"tab_id":(\d{1,15}),"result":/;

/** A frame over the bridge's size limit, refused before it was sent. */
class FrameTooLarge extends BridgeClientError {
  override name = 'FrameTooLarge';
  readonly info: ErrorInfo;
  constructor(message: ProtocolMessage, size: number) {
    const what = message.type === 'action' ? `"${message.action}"` : `"${message.type}"`;
    const text = `The ${what} message is ${mib(size)}, more than the ${mib(BRIDGE_FRAME_MAX_BYTES)} one message to the bridge carries (a CDP message at most ${mib(CDP_MESSAGE_MAX_BYTES)}); it was not sent and nothing ran. Send less in one message: split the data, or fetch it in parts.`;
    super(text, 'MESSAGE_TOO_LARGE');
    this.info = errorInfo('MESSAGE_TOO_LARGE', text, 'client', { limit_bytes: BRIDGE_FRAME_MAX_BYTES, size_bytes: size });
  }
}

/** Answers a request this client did not send (again), with the answer of its kind. */
function answerUnsent(w: Waiter, id: string, error_info: ErrorInfo): void {
  if (w.kind === 'cdp') w.resolve({ type: 'cdp_result', original_command_id: id, tab_id: w.message.tab_id, error_info });
  else w.resolve(errorResult(id, w.message.action, error_info));
}
