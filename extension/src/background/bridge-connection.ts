// The worker's WebSocket to the bridge: hello handshake, application-level keepalive (MV3 workers
// die after 30 s without extension-API activity or messages; WebSocket ping frames do not count),
// and reconnection with capped exponential backoff. chrome.alarms re-arms it after the worker was
// killed and woken again.
import type { ProtocolMessage } from '../../../schemas/generated/protocol';
import { PROTOCOL_VERSION } from '../../../schemas/generated/registry';
import { checkMessage, decodeMessage, errorInfo } from '../../../schemas/lib/wire';
import { loadConfig } from './config';

export const KEEPALIVE_MS = 20_000;
const BACKOFF_MIN_MS = 250;
const BACKOFF_MAX_MS = 10_000;

export type MessageHandler = (message: ProtocolMessage, send: (m: ProtocolMessage) => void) => void;

export class BridgeConnection {
  private ws: WebSocket | null = null;
  private ready = false;
  private backoffMs = BACKOFF_MIN_MS;
  private reconnectTimer: ReturnType<typeof setTimeout> | null = null;
  private keepaliveTimer: ReturnType<typeof setInterval> | null = null;

  constructor(private readonly onMessage: MessageHandler) {}

  get connected(): boolean {
    return this.ready && this.ws?.readyState === WebSocket.OPEN;
  }

  /** Idempotent: connects unless a connection is open or being opened. */
  async ensureConnected(): Promise<void> {
    if (this.ws && (this.ws.readyState === WebSocket.OPEN || this.ws.readyState === WebSocket.CONNECTING)) return;
    if (this.reconnectTimer) {
      clearTimeout(this.reconnectTimer);
      this.reconnectTimer = null;
    }
    const { bridgeUrl } = await loadConfig();
    if (this.ws && (this.ws.readyState === WebSocket.OPEN || this.ws.readyState === WebSocket.CONNECTING)) return;
    let ws: WebSocket;
    try {
      ws = new WebSocket(bridgeUrl);
    } catch (e) {
      console.warn('[browser-use-ext] bad bridge URL', bridgeUrl, e);
      this.scheduleReconnect();
      return;
    }
    this.ws = ws;
    ws.onopen = () => {
      this.sendNow({ type: 'hello', role: 'extension', protocol_version: PROTOCOL_VERSION, client: { name: 'browser-use-ext-extension', version: chrome.runtime.getManifest().version }, capabilities: ['tabs', 'navigation'] });
    };
    ws.onmessage = (ev: MessageEvent) => {
      if (typeof ev.data !== 'string') return;
      const decoded = decodeMessage(ev.data, 'background_script');
      if (!decoded.ok) {
        // Validate what the bridge sends too; answer with a typed error, never act on it.
        this.send({ type: 'error', in_reply_to: decoded.inReplyTo, error_info: decoded.error });
        return;
      }
      const m = decoded.value;
      if (m.type === 'hello_ack') {
        this.ready = true;
        this.backoffMs = BACKOFF_MIN_MS;
        this.startKeepalive();
        return;
      }
      if (m.type === 'ping') {
        this.send({ type: 'pong', sent_at: m.sent_at });
        return;
      }
      this.onMessage(m, (reply) => this.send(reply));
    };
    ws.onclose = () => {
      this.ready = false;
      this.stopKeepalive();
      if (this.ws === ws) this.ws = null;
      this.scheduleReconnect();
    };
    ws.onerror = () => {
      // onclose follows and schedules the retry; nothing to add here.
    };
  }

  /** Validates and sends; a message the extension built wrong is replaced by a typed internal error. */
  send(message: ProtocolMessage): void {
    const checked = checkMessage(message, 'background_script');
    if (!checked.ok) {
      console.error('[browser-use-ext] refusing to send invalid message', checked.error.message, message);
      if (message.type === 'action_result') {
        this.sendNow({ type: 'action_result', original_action_id: message.original_action_id, status: 'error', outcome_details: null, new_simplified_state: null, error_info: errorInfo('EXTENSION_INTERNAL_ERROR', `The extension produced an invalid result (${checked.error.message}). Retry; report the bug if it repeats.`, 'background_script') });
      }
      return;
    }
    this.sendNow(message);
  }

  private sendNow(message: ProtocolMessage): void {
    if (this.ws?.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(message));
  }

  private scheduleReconnect(): void {
    if (this.reconnectTimer) return;
    const delay = this.backoffMs;
    this.backoffMs = Math.min(this.backoffMs * 2, BACKOFF_MAX_MS);
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      void this.ensureConnected();
    }, delay);
  }

  private startKeepalive(): void {
    this.stopKeepalive();
    this.keepaliveTimer = setInterval(() => this.send({ type: 'ping', sent_at: Date.now() }), KEEPALIVE_MS);
  }

  private stopKeepalive(): void {
    if (this.keepaliveTimer) clearInterval(this.keepaliveTimer);
    this.keepaliveTimer = null;
  }
}
