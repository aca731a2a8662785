// Typed agent-side client of the bridge, used by tests, benchmarks and TypeScript users.
// `call()` sends an action and resolves with its action_result (success or error: a failed action
// is an answer, not an exception). Transport failures reject with BridgeClientError.
import { EventEmitter } from 'node:events';
import WebSocket from 'ws';
import type { ActionResultMessage, HelloAckMessage, ProtocolMessage, StateUpdateMessage, ErrorMessage, UserTaskSubmissionMessage } from '../../../schemas/generated/protocol';
import { PROTOCOL_VERSION, type ActionName, type ActionParams } from '../../../schemas/generated/registry';
import { checkMessage, decodeMessage } from '../../../schemas/lib/wire';
import { BRIDGE_VERSION } from '../version';

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

export interface AgentClientOptions {
  /** ws://127.0.0.1:PORT/agent */
  url: string;
  clientName?: string;
  capabilities?: string[];
  /** Per-call timeout the client applies on top of the bridge's own (which answers TIMEOUT). */
  callTimeoutMs?: number;
  connectTimeoutMs?: number;
}

export interface CallOptions {
  tabId?: number;
  /** Forwarded as timeout_ms: the bridge answers TIMEOUT after it. */
  timeoutMs?: number;
  actionId?: string;
}

interface Waiter {
  resolve: (r: ActionResultMessage) => void;
  reject: (e: Error) => void;
  timer: ReturnType<typeof setTimeout>;
  /** Created at send time so a failure points at the caller (puppeteer's CallbackRegistry). */
  error: BridgeClientError;
}

export class AgentClient extends EventEmitter {
  private ws: WebSocket | null = null;
  private readonly waiters = new Map<string, Waiter>();
  private seq = 0;
  hello: HelloAckMessage | null = null;

  constructor(private readonly opts: AgentClientOptions) {
    super();
  }

  static async connect(opts: AgentClientOptions): Promise<AgentClient> {
    const c = new AgentClient(opts);
    await c.open();
    return c;
  }

  async open(): Promise<HelloAckMessage> {
    const ws = new WebSocket(this.opts.url);
    this.ws = ws;
    const timeoutMs = this.opts.connectTimeoutMs ?? 10_000;
    const ack = await new Promise<HelloAckMessage>((resolve, reject) => {
      const timer = setTimeout(() => reject(new BridgeClientError(`no hello_ack from ${this.opts.url} within ${timeoutMs} ms`, 'TIMEOUT')), timeoutMs);
      ws.once('error', (err) => {
        clearTimeout(timer);
        reject(new BridgeClientError(`cannot connect to the bridge at ${this.opts.url}: ${err.message}. Is it running (npm start)?`, 'COMMUNICATION_ERROR_WITH_TARGET', { cause: err }));
      });
      ws.once('open', () => {
        this.sendRaw({ type: 'hello', role: 'agent', protocol_version: PROTOCOL_VERSION, client: { name: this.opts.clientName ?? 'browser-use-ext-ts-client', version: BRIDGE_VERSION }, capabilities: this.opts.capabilities ?? [] });
      });
      ws.on('message', (data) => {
        const decoded = decodeMessage(data.toString(), 'client');
        if (!decoded.ok) {
          this.emit('protocol-error', decoded.error);
          return;
        }
        const m = decoded.value;
        if (m.type === 'hello_ack') {
          clearTimeout(timer);
          resolve(m);
          return;
        }
        if (m.type === 'error' && !this.hello) {
          clearTimeout(timer);
          reject(new BridgeClientError(m.error_info.message, m.error_info.error_code));
          return;
        }
        this.onMessage(m);
      });
      ws.on('close', (code, reason) => this.onClose(code, reason.toString()));
    });
    this.hello = ack;
    return ack;
  }

  /** Sends an action and resolves with its action_result. */
  call<A extends ActionName>(action: A, params: ActionParams<A>, options: CallOptions = {}): Promise<ActionResultMessage> {
    const actionId = options.actionId ?? `a${++this.seq}-${Date.now().toString(36)}`;
    const message: ProtocolMessage = { type: 'action', action_id: actionId, action, params };
    if (options.tabId !== undefined) message.tab_id = options.tabId;
    if (options.timeoutMs !== undefined) message.timeout_ms = options.timeoutMs;
    const clientTimeout = (options.timeoutMs ?? 15_000) + (this.opts.callTimeoutMs ?? 5_000);
    const error = new BridgeClientError(`action "${action}" (${actionId}) got no answer within ${clientTimeout} ms`, 'TIMEOUT');
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters.delete(actionId);
        reject(error);
      }, clientTimeout);
      this.waiters.set(actionId, { resolve, reject, timer, error });
      try {
        this.sendRaw(message);
      } catch (e) {
        clearTimeout(timer);
        this.waiters.delete(actionId);
        reject(e instanceof Error ? e : new Error(String(e)));
      }
    });
  }

  /** Sends any protocol message after validating it. */
  sendRaw(message: ProtocolMessage): void {
    const checked = checkMessage(message, 'client');
    if (!checked.ok) throw new BridgeClientError(checked.error.message, 'INVALID_MESSAGE');
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) throw new BridgeClientError('not connected to the bridge; call open() first', 'COMMUNICATION_ERROR_WITH_TARGET');
    this.ws.send(JSON.stringify(message));
  }

  /** Sends a frame without validation (tests of the bridge's own validation). */
  sendUnchecked(text: string): void {
    this.ws?.send(text);
  }

  async close(): Promise<void> {
    const ws = this.ws;
    if (!ws || ws.readyState === WebSocket.CLOSED) return;
    await new Promise<void>((resolve) => {
      ws.once('close', () => resolve());
      ws.close(1000, 'client closing');
    });
  }

  private onMessage(m: ProtocolMessage): void {
    switch (m.type) {
      case 'action_result': {
        const w = this.waiters.get(m.original_action_id);
        if (!w) return;
        clearTimeout(w.timer);
        this.waiters.delete(m.original_action_id);
        w.resolve(m);
        return;
      }
      case 'ping':
        this.sendRaw({ type: 'pong', sent_at: m.sent_at });
        return;
      case 'state_update':
        this.emit('state_update', m satisfies StateUpdateMessage);
        return;
      case 'user_task_submission':
        this.emit('task', m satisfies UserTaskSubmissionMessage);
        return;
      case 'error':
        this.emit('protocol-error', (m satisfies ErrorMessage).error_info, m.in_reply_to ?? null);
        return;
      default:
        return;
    }
  }

  private onClose(code: number, reason: string): void {
    for (const [id, w] of this.waiters) {
      clearTimeout(w.timer);
      w.error.message = `connection to the bridge closed (${code} ${reason}) before action ${id} was answered`;
      w.error.code = 'EXTENSION_DISCONNECTED';
      w.reject(w.error);
    }
    this.waiters.clear();
    this.emit('close', code, reason);
  }
}
