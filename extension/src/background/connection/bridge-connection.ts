// The worker's WebSocket to the bridge: hello + challenge-response handshake (the
// bridge proves it knows the extension secret, then we do; the secret never crosses the wire),
// application-level keepalive (MV3 workers
// die after 30 s without extension-API activity or messages; WebSocket ping frames do not count),
// and reconnection: every 250 ms while nothing listens, for the first 15 s after a drop (a bridge
// restarted within that time is reached within ~0.3 s of listening; Chrome refuses a loopback
// connection to a closed port at once, so each try costs next to nothing), then capped exponential
// backoff. A bridge that answers but refuses the handshake gets the backoff at once (its handshake
// rate limit). chrome.alarms and the offscreen wake document re-arm it after the worker was stopped.
// Every try is bounded: a socket Chrome leaves in CONNECTING (it waits up to 240 s for an upgrade
// answer) or a handshake that never finishes is given up and tried again, so one unanswered try can
// never hold the retries back (a wake or the alarm found it "being opened" and did nothing), and a
// failed or empty read of the settings schedules the next try like a refused one. Each try
// and its outcome is logged in memory (try-log.ts) for whoever debugs a slow reconnect.
import type { ActionResultMessage, CdpResultMessage, HelloAckMessage, ProtocolMessage } from '../../../../schemas/generated/protocol';
import { PROTOCOL_VERSION } from '../../../../schemas/generated/registry';
import { Backoff } from '../../../../schemas/lib/backoff';
import { CLOSE_CODES } from '../../../../schemas/lib/close-codes';
import { errorInfo } from '../../../../schemas/lib/errors';
import { BRIDGE_FRAME_MAX_BYTES, mib } from '../../../../schemas/lib/message-limits';
import { checkMessage, decodeMessage } from '../../../../schemas/lib/wire';
import { cdpTraceMark } from '../../shared/cdp-trace';
import { type ExtensionConfig, loadConfig, STORAGE_KEYS } from '../../shared/config';
import { optionsUnderKey, redactText, type TextOptions } from '../../shared/redaction';
import { browserIdentity } from './browser-identity';
import { helloSelf, keepBridgeName } from './browser-self';
import * as status from './connection-status';
import { hmacHex, newClientNonce, sameHex } from './handshake';
import { beginTry, type BridgeTry, noteWakeWhileTrying, since } from './try-log';

/** Fields holding binary data (base64), where a digit run is not a card number. */
const BINARY_FIELDS = new Set(['screenshot', 'data', 'image']);

/** Fields left as they are (keep(key, owner) true): protocol identifiers, never page text. */
export type KeepField = (key: string, owner: Record<string, unknown>) => boolean;

/** Replaces card numbers and secrets in URLs in every string of a message, in place; a key naming a card is card context. */
export function scrubStrings(value: unknown, depth = 0, opts: TextOptions = {}, keep?: KeepField): void {
  if (depth > 64 || typeof value !== 'object' || value === null) return;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const v: unknown = value[i];
      if (typeof v === 'string') value[i] = redactText(v, opts);
      else scrubStrings(v, depth + 1, opts, keep);
    }
    return;
  }
  const obj = value as Record<string, unknown>;
  for (const key of Object.keys(obj)) {
    const v = obj[key];
    if (keep?.(key, obj)) continue;
    const under = optionsUnderKey(key, opts);
    if (typeof v === 'string') {
      if (!BINARY_FIELDS.has(key) && !v.startsWith('data:')) obj[key] = redactText(v, under);
    } else scrubStrings(v, depth + 1, under, keep);
  }
}

export const KEEPALIVE_MS = 20_000;
/** Retry period while nothing listens at the bridge URL, for FAST_PERIOD_MS after the connection dropped. */
export const FAST_RETRY_MS = 250;
const FAST_PERIOD_MS = 15_000;
const BACKOFF_MIN_MS = 1000;
const BACKOFF_MAX_MS = 10_000;
/**
 * A try whose socket has not opened by then is given up (Chrome itself waits 240 s for the upgrade
 * answer). The bridge answers an upgrade in milliseconds; a bridge that is only slow (a loaded
 * machine) gets twice as long at each given-up try in a row, up to CONNECT_TIMEOUT_MAX_MS.
 */
export const CONNECT_TIMEOUT_MS = 2000;
const CONNECT_TIMEOUT_MAX_MS = 8000;
/** An open socket without hello_ack by then is given up (the bridge's own handshake limit is 10 s: it closes first). */
export const HANDSHAKE_TIMEOUT_MS = 12_000;

/**
 * showCards: the agent asked get_state for card numbers (redact_card_and_otp false): passwords in URLs are still masked.
 * spare: a card number the reader itself put into the page passes (cdp/client-input.ts). plain: the message
 * holds no page text (a CDP answer or event listed in cdp/cdp-send-options.ts), so it is not walked.
 */
export type SendOptions = { showCards?: boolean; keep?: KeepField; spare?: (card: string) => boolean; plain?: boolean };
export type MessageHandler = (message: ProtocolMessage, send: (m: ProtocolMessage, opts?: SendOptions) => void) => void;

export class BridgeConnection {
  private ws: WebSocket | null = null;
  private ready = false;
  private readonly backoff = new Backoff({ baseMs: BACKOFF_MIN_MS, maxMs: BACKOFF_MAX_MS });
  private reconnectTimer: ReturnType<typeof setTimeout> | null = null;
  /** Tries given up in a row because their socket never opened (reset by hello_ack). */
  private connectTimeouts = 0;
  /** The record of the current try (try-log.ts). */
  private currentTry: BridgeTry | null = null;
  /** The last try found no pairing secret, and said so in the console (once per streak). */
  private saidNotPaired = false;
  /** stopForTests() was called: no try is made or scheduled any more. */
  private stopped = false;
  /** Date.now() when the last working connection dropped (or the first try failed); null while connected. */
  private downSince: number | null = null;
  private keepaliveTimer: ReturnType<typeof setInterval> | null = null;
  /** Called after each hello_ack (the panel relay sends the person's settings then, the focus report this browser's focus). */
  private readonly readyListeners: ((ack: HelloAckMessage) => void)[] = [];

  constructor(private readonly onMessage: MessageHandler) {
    // Registered while the worker script first runs (MV3): a new pairing secret or bridge URL from
    // the options page replaces the current connection at once.
    chrome.storage.onChanged.addListener((changes, area) => {
      if (area === 'local' && (STORAGE_KEYS.extensionSecret in changes || STORAGE_KEYS.bridgeUrl in changes)) this.reconnectNow();
    });
  }

  /** Drops the current connection (if any) and connects again with fresh settings. */
  reconnectNow(): void {
    this.backoff.reset();
    const ws = this.ws;
    this.ws = null;
    if (this.currentTry?.outcome === 'pending') this.currentTry.outcome = 'replaced';
    this.ready = false;
    status.forgetRefusal();
    if (ws && ws.readyState !== WebSocket.CLOSED) ws.close(1000, 'settings changed');
    void this.ensureConnected('settings');
  }

  /** Stops every timer and drops the socket without a retry (tests; a worker keeps trying until it is stopped). */
  stopForTests(): void {
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    this.reconnectTimer = null;
    this.stopped = true;
    const ws = this.ws;
    this.ws = null;
    this.ready = false;
    this.stopKeepalive();
    if (ws) {
      ws.onclose = null;
      ws.close();
    }
  }

  onReady(listener: (ack: HelloAckMessage) => void): void {
    this.readyListeners.push(listener);
  }

  get connected(): boolean {
    return this.ready && this.ws?.readyState === WebSocket.OPEN;
  }

  /**
   * Idempotent: connects unless a connection is open or being opened (a try being opened is bounded by
   * its own timers). by: what asked, for the try log.
   */
  async ensureConnected(by = 'wake'): Promise<void> {
    if (this.stopped) return;
    if (this.ws && (this.ws.readyState === WebSocket.OPEN || this.ws.readyState === WebSocket.CONNECTING)) {
      if (!this.ready) noteWakeWhileTrying();
      return;
    }
    if (this.reconnectTimer) {
      clearTimeout(this.reconnectTimer);
      this.reconnectTimer = null;
    }
    let config: ExtensionConfig;
    try {
      config = await loadConfig();
    } catch (e) {
      // The settings could not be read (chrome.storage failed). The retry timer was cleared above:
      // without a new one nothing would try again until the alarm or the worker idling out (30 s).
      const failed = beginTry(by);
      failed.outcome = 'not_made';
      failed.note = `settings unreadable: ${e instanceof Error ? e.message : String(e)}`.slice(0, 160);
      console.warn('[browser-use-ext] could not read the bridge settings; trying again', e);
      if (!this.ws || this.ws.readyState === WebSocket.CLOSED) this.scheduleReconnect(true, failed);
      return;
    }
    const { bridgeUrl, extensionSecret } = config;
    if (this.ws && (this.ws.readyState === WebSocket.OPEN || this.ws.readyState === WebSocket.CONNECTING)) return;
    const attempt = beginTry(by);
    this.currentTry = attempt;
    if (!extensionSecret) {
      attempt.outcome = 'not_made';
      attempt.note = 'not paired';
      // Not paired yet: the bridge would refuse us. The options page's save triggers reconnectNow().
      if (!this.saidNotPaired)
        console.warn(
          '[browser-use-ext] not paired: paste the extension secret from `browser-use-ext bridge --print-pairing` into the extension options.',
        );
      this.saidNotPaired = true;
      void status.notPaired(bridgeUrl);
      // Read again on the retry schedule (the cost of a try at a dead bridge): the secret may only
      // have been unreadable this once (the shipped config.json or storage failing on a loaded
      // machine). The loop used to end here, and only a wake brought it back: the 30 s alarm.
      this.scheduleReconnect(true, attempt);
      return;
    }
    this.saidNotPaired = false;
    let ws: WebSocket;
    try {
      ws = new WebSocket(bridgeUrl);
    } catch (e) {
      console.warn('[browser-use-ext] bad bridge URL', bridgeUrl, e);
      attempt.outcome = 'not_made';
      attempt.note = 'bad bridge URL';
      this.scheduleReconnect(false, attempt);
      return;
    }
    this.ws = ws;
    void status.connecting(bridgeUrl);
    let opened = false;
    let wasReady = false;
    const clientNonce = newClientNonce();
    let handshakeTimer: ReturnType<typeof setTimeout> | null = null;
    /** Gives the try up: its socket is dropped unheard (no onclose of it counts) and the next try is due. */
    const giveUp = (outcome: 'connect_timeout' | 'handshake_timeout') => {
      if (this.ws !== ws) return;
      clearTimeout(connectTimer);
      if (handshakeTimer) clearTimeout(handshakeTimer);
      attempt.outcome = outcome;
      attempt.endMs = since(attempt);
      ws.onopen = null;
      ws.onmessage = null;
      ws.onclose = null;
      ws.onerror = null;
      ws.close();
      this.ws = null;
      this.ready = false;
      if (outcome === 'connect_timeout') this.connectTimeouts++;
      void status.closedBeforeHandshake(bridgeUrl, 1006, outcome, opened);
      // Nothing answered the upgrade: as "nothing listens", a fast retry. An open socket that never
      // finished the handshake: as a refused handshake, the backoff.
      this.scheduleReconnect(outcome === 'connect_timeout', attempt);
    };
    const connectLimit = Math.min(CONNECT_TIMEOUT_MS * 2 ** this.connectTimeouts, CONNECT_TIMEOUT_MAX_MS);
    const connectTimer = setTimeout(() => giveUp('connect_timeout'), connectLimit);
    ws.onopen = () => {
      opened = true;
      attempt.openMs = since(attempt);
      clearTimeout(connectTimer);
      handshakeTimer = setTimeout(() => giveUp('handshake_timeout'), HANDSHAKE_TIMEOUT_MS);
      // hello.browser lets the bridge's CDP endpoint name this browser before any tab is attached;
      // browser_id and browser_name tell this browser profile from the others on the same bridge.
      void Promise.all([browserIdentity(), helloSelf()]).then(
        ([browser, self]) => {
          if (this.ws !== ws) return;
          this.sendNow({
            type: 'hello',
            role: 'extension',
            protocol_version: PROTOCOL_VERSION,
            client: { name: 'browser-use-ext-extension', version: chrome.runtime.getManifest().version },
            capabilities: ['tabs', 'navigation'],
            client_nonce: clientNonce,
            ...(browser ? { browser } : {}),
            ...self,
          });
        },
        (e: unknown) => {
          // Without its id the bridge would take this browser for another: no hello, and the retry tries again.
          console.warn("[browser-use-ext] could not read this browser's id from storage", e);
          if (this.ws === ws) ws.close(1000, 'browser id unavailable');
        },
      );
    };
    ws.onmessage = (ev: MessageEvent) => {
      cdpTraceMark('w_in');
      if (typeof ev.data !== 'string') return;
      const decoded = decodeMessage(ev.data, 'background_script');
      if (!decoded.ok) {
        // Validate what the bridge sends too; answer with a typed error, never act on it.
        this.send({ type: 'error', in_reply_to: decoded.inReplyTo, error_info: decoded.error });
        return;
      }
      const m = decoded.value;
      if (m.type === 'auth_challenge') {
        attempt.challengeMs ??= since(attempt);
        void this.answerChallenge(ws, extensionSecret, clientNonce, m.nonce, m.bridge_proof, bridgeUrl);
        return;
      }
      if (!this.ready && m.type !== 'hello_ack') {
        if (m.type === 'error') {
          console.warn('[browser-use-ext] bridge refused the handshake:', m.error_info.error_code, m.error_info.message);
          attempt.note = m.error_info.error_code;
          const d = m.error_info.details ?? {};
          if (m.error_info.error_code === 'VERSION_MISMATCH')
            void status.versionMismatch(
              bridgeUrl,
              typeof d['bridge_protocol_version'] === 'number' ? d['bridge_protocol_version'] : null,
              d['upgrade'] === 'bridge' ? 'bridge' : 'extension',
              m.error_info.message,
            );
          else if (m.error_info.error_code === 'UNAUTHORIZED') void status.secretRefused(bridgeUrl, 'bridge');
          else if (m.error_info.error_code === 'RATE_LIMITED')
            void status.rateLimited(bridgeUrl, typeof d['retry_after_ms'] === 'number' ? d['retry_after_ms'] : null);
        }
        return; // nothing but the handshake is acted on before hello_ack
      }
      if (m.type === 'hello_ack') {
        if (handshakeTimer) clearTimeout(handshakeTimer);
        attempt.outcome = 'connected';
        attempt.readyMs = since(attempt);
        this.ready = true;
        wasReady = true;
        this.connectTimeouts = 0;
        this.backoff.reset();
        this.downSince = null;
        this.startKeepalive();
        void status.connected(bridgeUrl, m.bridge);
        void keepBridgeName(m.browser);
        for (const listener of this.readyListeners) listener(m);
        return;
      }
      if (m.type === 'ping') {
        this.send({ type: 'pong', sent_at: m.sent_at });
        return;
      }
      this.onMessage(m, (reply, opts) => this.send(reply, opts));
    };
    ws.onclose = (ev: CloseEvent) => {
      clearTimeout(connectTimer);
      if (handshakeTimer) clearTimeout(handshakeTimer);
      attempt.endMs = since(attempt);
      attempt.code = ev.code;
      if (ev.reason) attempt.reason = ev.reason.slice(0, 120);
      if (attempt.outcome === 'pending') attempt.outcome = wasReady ? 'dropped' : opened ? 'closed_in_handshake' : 'refused';
      this.ready = false;
      // A close we asked for (new settings) is not news for the person.
      if (this.ws === ws || this.ws === null) {
        if (!wasReady || ev.code !== 1000) void status.closedBeforeHandshake(bridgeUrl, ev.code, ev.reason, opened);
      }
      this.stopKeepalive();
      if (this.ws === ws) this.ws = null;
      // Nothing listening (the bridge is restarting) or a working connection dropped: retry fast.
      // A bridge that took the socket and refused the handshake: back off.
      this.scheduleReconnect(!opened || wasReady, attempt);
    };
    ws.onerror = () => {
      // onclose follows and schedules the retry; nothing to add here.
    };
  }

  private async answerChallenge(
    ws: WebSocket,
    secret: string,
    clientNonce: string,
    nonce: string,
    bridgeProof: string,
    url: string,
  ): Promise<void> {
    // Check the bridge first: something else listening on the port never gets a proof to replay.
    if (!sameHex(await hmacHex(secret, `bridge:${clientNonce}`), bridgeProof)) {
      console.warn(
        '[browser-use-ext] the server at the bridge URL could not prove it knows the pairing secret; not your bridge, or the secret in the options is outdated.',
      );
      void status.secretRefused(url, 'extension');
      // 4001 tells the bridge (which logs it) that the secrets differ; nothing about the secret itself.
      ws.close(CLOSE_CODES.secretRefused, 'pairing secret mismatch');
      return;
    }
    const proof = await hmacHex(secret, `extension:${nonce}:${clientNonce}`);
    if (this.ws === ws && ws.readyState === WebSocket.OPEN)
      ws.send(JSON.stringify({ type: 'auth_response', proof } satisfies ProtocolMessage));
  }

  /**
   * Validates and sends; a message the extension built wrong is logged, never sent.
   * Answers (action_result, cdp_result) are not checked here: the bridge validates every one on
   * receive and answers the agent EXTENSION_INTERNAL_ERROR (with the validation details) at once for
   * an invalid one, so a second check of a whole state or DOM snapshot on the hot path would only repeat it.
   */
  send(message: ProtocolMessage, opts: SendOptions = {}): void {
    // The product-wide privacy filter's last layer (privacy.ts): every text leaving the extension.
    if (!opts.plain) scrubStrings(message, 0, { cards: !opts.showCards, ...(opts.spare ? { spare: opts.spare } : {}) }, opts.keep);
    if (message.type === 'action_result' || message.type === 'cdp_result') {
      cdpTraceMark('w_scrubbed');
      this.sendNow(message);
      cdpTraceMark('w_sent');
      return;
    }
    const checked = checkMessage(message, 'background_script');
    if (!checked.ok) {
      // The message itself may carry page content: log what is wrong with it, not the content.
      console.error('[browser-use-ext] refusing to send invalid message', message.type, checked.error.message);
      return;
    }
    this.sendNow(message);
  }

  private sendNow(message: ProtocolMessage): void {
    if (this.ws?.readyState !== WebSocket.OPEN) return;
    const text = JSON.stringify(message);
    cdpTraceMark('w_json');
    const size = utf8Over(text, BRIDGE_FRAME_MAX_BYTES);
    if (size === null) {
      this.ws.send(text);
      return;
    }
    // A frame over the bridge's limit would close this connection (1009) and cut every agent off:
    // an answer that big (a huge response body) is answered as too large instead; anything else
    // (an event) is dropped, with a line for whoever debugs it.
    console.warn('[browser-use-ext] not sending a message over the bridge limit', message.type, mib(size));
    if (message.type === 'action_result' || message.type === 'cdp_result') this.ws.send(JSON.stringify(tooLarge(message, size)));
  }

  private scheduleReconnect(fast: boolean, attempt: BridgeTry): void {
    if (this.stopped) return;
    if (this.reconnectTimer) {
      attempt.note ??= 'a retry was already due';
      return;
    }
    this.downSince ??= Date.now();
    const quick = fast && Date.now() - this.downSince < FAST_PERIOD_MS;
    const delay = quick ? FAST_RETRY_MS : this.backoff.next();
    attempt.nextMs = Math.round(delay);
    attempt.fast = quick;
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      void this.ensureConnected('retry');
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

/** UTF-8 size of text when it is over limit, else null (counted only when it could be: a UTF-16 unit is at most 3 bytes). */
function utf8Over(text: string, limit: number): number | null {
  if (text.length * 3 <= limit) return null;
  const bytes = new TextEncoder().encode(text).length;
  return bytes > limit ? bytes : null;
}

/** The answer that says the real one was too large to carry (nothing of it is sent). */
function tooLarge(answer: ActionResultMessage | CdpResultMessage, size: number): ActionResultMessage | CdpResultMessage {
  const what = answer.type === 'action_result' ? `"${answer.action}"` : 'the DevTools command';
  const error = errorInfo(
    'MESSAGE_TOO_LARGE',
    `The answer to ${what} was ${mib(size)}, over the ${mib(BRIDGE_FRAME_MAX_BYTES)} the bridge carries, so it was not sent. It did run. Ask for less at once: a part of the page, one response body, or a stream read in parts (IO.read).`,
    'background_script',
    { limit_bytes: BRIDGE_FRAME_MAX_BYTES, size_bytes: size },
  );
  if (answer.type === 'cdp_result')
    return { type: 'cdp_result', original_command_id: answer.original_command_id, tab_id: answer.tab_id, error_info: error };
  return {
    type: 'action_result',
    original_action_id: answer.original_action_id,
    action: answer.action,
    ...(answer.tab_id === undefined ? {} : { tab_id: answer.tab_id }),
    status: 'error',
    outcome_details: null,
    new_simplified_state: null,
    error_info: error,
  };
}
