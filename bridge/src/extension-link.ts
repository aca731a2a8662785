// The extension side of the bridge, for one browser: its extension connection (newest wins), the
// actions and CDP commands in flight to it, and what happens while it is away. Each browser on the
// bridge has its own link (browsers.ts). server.ts routes the extension's
// messages here; agent-gateway.ts asks relay() for every action an agent sends and relayCdp() for
// every cdp_command.
//
// An MV3 service worker restarts often (idle timeouts, updates, crashes): relay() waits for it
// within the action's own timeout instead of failing at once, and a read in flight when
// it left is asked again once it is back.
import { EventEmitter } from 'node:events';

import type {
  ActionMessage,
  ActionResultMessage,
  CdpCommandMessage,
  CdpResultMessage,
  ErrorInfo,
  HelloAckMessage,
  HelloMessage,
  ProtocolMessage,
} from '../../schemas/generated/protocol';
import { ACTION_NAMES, PROTOCOL_VERSION } from '../../schemas/generated/registry';
import { errorResult as failedResult } from '../../schemas/lib/action-result';
import { errorInfo } from '../../schemas/lib/wire';
import { cdpTraceMark } from '../common/cdp-trace';
import type { Logger } from '../common/log';
import { BRIDGE_NAME, BRIDGE_VERSION } from '../common/version';
import { answerMismatch, mismatchError } from './answer-check';
import { CdpCommandsInFlight, cdpFailure } from './cdp-in-flight';
import { CLOSE, type Peer } from './peer';
import { type PendingEntry, PendingRegistry } from './pending';
import type { Answer } from './raw-relay';

interface InFlight {
  action: ActionMessage['action'];
  /** The action as sent (its tab_id), to check the answer against (answer-check.ts). */
  sent: ActionMessage;
  resolve: (result: ActionResultMessage) => void;
}

export interface RelayOptions {
  /** Date.now() by which the action must be answered (TIMEOUT after it). */
  deadline: number;
  /** The action's own timeout, named in the TIMEOUT message. */
  timeoutMs: number;
  /** The action came from an agent and was validated on receive: it is not checked a second time. */
  validated?: boolean;
}

export const DEFAULT_TIMEOUT_MS = 15_000;
/** After a restart with restored sessions, actions wait this long (within their timeout) for the extension. */
const RESTART_GRACE_MS = 10_000;
/** How long a cdp_command waits for an extension that left before it is answered NO_EXTENSION_CONNECTED. */
export const CDP_EXTENSION_WAIT_MS = 10_000;
/** Actions that only read: safe to ask again after the extension dropped mid-way. */
const READ_ONLY_ACTIONS = new Set<string>(['get_state', 'get', 'is', 'extract_content', 'list_tabs', 'screenshot', 'get_dropdown_options']);

export interface ExtensionLinkHooks {
  log: Logger;
  /** Tells every connected agent of this browser (extension_status). */
  broadcastToAgents(message: ProtocolMessage): void;
  /** The extension finished its handshake (after hello_ack and the agents' notice). */
  onUp(peerId: string): void;
  /** The extension connection ended. */
  onDown(peerId: string): void;
}

/** The bridge's answer to an action it refused or lost (the one failed-result shape, schemas/lib/action-result.ts). */
export function errorResult(action: ActionMessage, error: ErrorInfo): ActionResultMessage {
  return failedResult(action.action_id, action.action, error);
}

export const noExtension = () =>
  errorInfo(
    'NO_EXTENSION_CONNECTED',
    'No browser extension is connected to the bridge. Open Chrome with the browser-use-ext extension installed and paired, then retry.',
    'bridge',
  );

const notSent = (what: string) =>
  errorInfo(
    'EXTENSION_DISCONNECTED',
    `The extension connection closed before ${what} could be sent. Wait for it to reconnect, then retry.`,
    'bridge',
  );

export class ExtensionLink {
  private peer: Peer | null = null;
  /** The browser the extension last said it runs in (hello.browser): the CDP endpoint's /json/version. */
  browser: HelloMessage['browser'] = undefined;
  private awaySince: number | null = null;
  private readonly pending = new PendingRegistry<InFlight>();
  private readonly commands = new CdpCommandsInFlight();
  /** Answers received from the extension (validated on receive), relayed without a second check. */
  private readonly relayed = new WeakSet<Answer>();
  private nextId = 1;
  /** When sessions were restored from disk (null: none), see awaitingAfterRestart. */
  private restoredAt: number | null = null;
  private readonly events = new EventEmitter();

  constructor(private readonly hooks: ExtensionLinkHooks) {
    this.events.setMaxListeners(0); // every action waiting for the extension to come back listens once
  }

  get connected(): boolean {
    return this.peer?.ready === true;
  }

  get inFlight(): number {
    return this.pending.size + this.commands.size;
  }

  /** It was here and left, or sessions were just restored: an action waits for it within its timeout. */
  get away(): boolean {
    return !this.connected && (this.awaySince !== null || this.awaitingAfterRestart());
  }

  /** It left less than withinMs ago (a worker or browser restart), or sessions were just restored. */
  awayLately(withinMs: number): boolean {
    return !this.connected && ((this.awaySince !== null && Date.now() - this.awaySince < withinMs) || this.awaitingAfterRestart());
  }

  /** Sessions came back from disk: actions wait for the extension a little after the restart. */
  noteRestored(): void {
    this.restoredAt = Date.now();
  }

  /** Sends a bridge message to the extension; false when none is connected. */
  send(message: ProtocolMessage): boolean {
    return this.peer?.ready === true ? this.peer.send(message) : false;
  }

  /** Keepalive: MV3 workers idle out at 30 s without traffic. */
  ping(): void {
    this.peer?.send({ type: 'ping', sent_at: Date.now() });
  }

  /** Whether an answer is one the extension sent (validated on receive, relayed unchanged). */
  isRelayed(result: Answer): boolean {
    return this.relayed.has(result);
  }

  status(): Record<string, unknown> {
    return this.peer?.ready
      ? { connected: true, client: this.peer.client, connection_id: this.peer.id }
      : { connected: false, away_since: this.awaySince === null ? null : new Date(this.awaySince).toISOString() };
  }

  /** ack: what the hello_ack says of the browser (its name in force, the others). */
  onReady(peer: Peer, browser?: HelloMessage['browser'], ack: Pick<HelloAckMessage, 'browser' | 'browsers'> = {}): void {
    const previous = this.peer;
    this.peer = peer;
    this.browser = browser ?? this.browser;
    // A restarted service worker can reconnect before the old socket is noticed dead: newest wins.
    if (previous && previous !== peer) previous.close(CLOSE.normal, 'replaced by a newer extension connection');
    peer.send({
      type: 'hello_ack',
      protocol_version: PROTOCOL_VERSION,
      bridge: { name: BRIDGE_NAME, version: BRIDGE_VERSION },
      session_id: peer.id,
      extension_connected: true,
      ...ack,
    });
    this.hooks.log.info('extension connected', { peer: peer.id, client: peer.client });
    if (this.awaySince !== null) {
      const awayMs = Date.now() - this.awaySince;
      this.awaySince = null;
      this.hooks.broadcastToAgents({
        type: 'extension_status',
        connected: true,
        away_ms: awayMs,
        message: `The browser extension is back after ${awayMs} ms. Your session and tab ids are unchanged; take a new state before acting (actions in flight when it left failed with EXTENSION_DISCONNECTED).`,
      });
    }
    this.hooks.onUp(peer.id);
    this.events.emit('up');
  }

  onClosed(peer: Peer): void {
    if (this.peer !== peer) return;
    this.peer = null;
    this.awaySince = Date.now();
    const inFlight = this.pending.drain();
    for (const e of inFlight)
      this.failInFlight(
        e,
        errorInfo(
          'EXTENSION_DISCONNECTED',
          `The extension disconnected while "${e.value.action}" was running; it may or may not have taken effect. Wait for the extension to reconnect, take a new state, then decide whether to retry.`,
          'bridge',
        ),
      );
    const commands = this.commands.failAll((method) =>
      errorInfo(
        'EXTENSION_DISCONNECTED',
        `The extension disconnected while ${method} was running; it may or may not have taken effect. Wait for the extension to reconnect, then send it again if it did not.`,
        'bridge',
      ),
    );
    this.hooks.log.warn('extension disconnected', { failed_in_flight: inFlight.length + commands });
    this.hooks.broadcastToAgents({
      type: 'extension_status',
      connected: false,
      message:
        'The browser extension disconnected (its service worker restarted or the browser closed). New actions wait for it within their timeout (reads in flight are asked again); you will get extension_status connected true, with your tabs unchanged.',
    });
    this.hooks.onDown(peer.id);
  }

  /** The extension answered an action with a message that failed validation: its agent must not wait for the timeout. */
  onInvalidAnswer(inReplyTo: string, problem: { message: string; details?: Record<string, unknown> }): void {
    const invalid = (what: string) =>
      errorInfo(
        'EXTENSION_INTERNAL_ERROR',
        `The extension answered ${what} with an invalid message (${problem.message}). Take a new state and retry; report the bug if it repeats.`,
        'bridge',
        { validation: problem.details ?? {} },
      );
    const entry = this.pending.take(inReplyTo);
    if (entry) this.failInFlight(entry, invalid(`"${entry.value.action}"`));
    this.commands.fail(inReplyTo, invalid);
  }

  onResult(result: ActionResultMessage): void {
    const entry = this.pending.take(result.original_action_id);
    if (!entry) {
      this.hooks.log.debug('late or unknown action_result dropped', { id: result.original_action_id });
      return;
    }
    // An answer that does not fit the request (another action, no action, a success carrying an
    // error, another tab) is a broken or foreign extension, never a success.
    const why = answerMismatch(entry.value.sent, result);
    if (why !== null) {
      this.hooks.log.warn('extension answered something that does not match the request', {
        id: result.original_action_id,
        asked: entry.value.action,
        mismatch: why,
      });
      this.failInFlight(entry, mismatchError(entry.value.action, why));
      return;
    }
    this.relayed.add(result);
    entry.value.resolve(result);
  }

  /** Chrome's answer to a cdp_command: to its caller at once, checked against the command first (cdp-in-flight.ts). */
  onCdpResult(result: CdpResultMessage): void {
    cdpTraceMark('b_ext_decoded');
    // Marked first: the caller relays these validated bytes as they are (raw-relay.ts).
    this.relayed.add(result);
    const wrong = this.commands.onResult(result);
    if (wrong === 'unknown') this.hooks.log.debug('late or unknown cdp_result dropped', { id: result.original_command_id });
    else if (wrong !== null) this.hooks.log.warn('extension answered something that does not match the request', { mismatch: wrong });
  }

  /**
   * Sends one action to the extension and resolves with its result, TIMEOUT or EXTENSION_DISCONNECTED.
   * A validated action came from an agent (checked on receive); only its ids/tab_id change here.
   */
  relay(action: ActionMessage, o: RelayOptions): Promise<ActionResultMessage> {
    return this.relayOnce(action, o, false);
  }

  private async relayOnce(action: ActionMessage, o: RelayOptions, retried: boolean): Promise<ActionResultMessage> {
    const { deadline, timeoutMs } = o;
    // The extension was here and left (its service worker restarts): wait for it within
    // the action's own timeout instead of failing at once; it is usually back within a second.
    const ext = await this.reachable(deadline);
    if (!ext) return errorResult(action, noExtension());
    const remaining = deadline - Date.now();
    const timeout = () =>
      errorResult(
        action,
        errorInfo(
          'TIMEOUT',
          `Action "${action.action}" got no result within ${timeoutMs} ms (including time queued behind earlier actions on the same tab). The page may still be busy: take a new state (get_state) before retrying, or raise timeout_ms.`,
          'bridge',
          { timeout_ms: timeoutMs },
        ),
      );
    if (remaining <= 0) return timeout();
    // Agents choose their own ids; the bridge relays under its own so two agents never collide.
    const relayId = `b${this.nextId++}`;
    return new Promise((resolve) => {
      // A read that was in flight when the extension dropped is asked again once it is back (within
      // the deadline): reading twice is harmless, and the agent gets its answer instead of an outage.
      const settle = (r: ActionResultMessage) => {
        if (
          !retried &&
          r.error_info?.error_code === 'EXTENSION_DISCONNECTED' &&
          READ_ONLY_ACTIONS.has(action.action) &&
          Date.now() < deadline
        )
          resolve(this.relayOnce(action, o, true));
        else resolve(r);
      };
      const sent: ActionMessage = { ...action, action_id: relayId };
      this.pending.add(relayId, { action: action.action, sent, resolve: settle }, remaining, () => resolve(timeout()));
      if (!ext.send(sent, o.validated === true)) {
        this.pending.take(relayId);
        resolve(errorResult(action, notSent('the action')));
      }
    });
  }

  /**
   * Sends one cdp_command (validated on receive from its agent) to the extension; `answer` is called
   * exactly once: the moment the extension's cdp_result is received (no promise hop in between, so the
   * answer keeps its place before the tab's events that Chrome sent after it), or with TIMEOUT,
   * NO_EXTENSION_CONNECTED or EXTENSION_DISCONNECTED. A command's timeout is long (a page's own long
   * evaluation is legitimate), so its wait for an extension that left is capped at
   * CDP_EXTENSION_WAIT_MS: a CDP client hears within seconds that the browser is gone.
   */
  async relayCdp(command: CdpCommandMessage, timeoutMs: number, answer: (result: CdpResultMessage) => void): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    // The extension is up (the common case): sent in this turn, no await before the socket.
    const up = this.peer?.ready === true && this.peer.open ? this.peer : null;
    const ext = up ?? (await this.reachable(Math.min(deadline, Date.now() + CDP_EXTENSION_WAIT_MS)));
    if (!ext) return answer(cdpFailure(command, noExtension()));
    const relayId = `b${this.nextId++}`;
    cdpTraceMark('b_to_ext', relayId);
    const sent = this.commands.add(relayId, command, answer, { timeoutMs, remainingMs: deadline - Date.now() });
    if (!ext.send(sent, true)) this.commands.fail(relayId, notSent);
  }

  /**
   * The extension connection to send on, waiting until `waitUntil` for one that left (or is leaving:
   * its close frame came, its socket is not gone yet) or, after a restart, for its first connection;
   * null when none is there by then.
   */
  private async reachable(waitUntil: number): Promise<Peer | null> {
    const leaving = this.peer !== null && !(this.peer.ready && this.peer.open);
    if (!(this.peer?.ready && this.peer.open) && (leaving || this.awaySince !== null || this.awaitingAfterRestart()))
      await this.back(waitUntil);
    const ext = this.peer;
    return ext?.ready && ext.open ? ext : null;
  }

  /** The browser's active tab, asked of the extension (list_tabs), for the implicit hand-over. */
  async activeTab(deadline: number): Promise<{ ok: true; tabId: number } | { ok: false; error: ErrorInfo }> {
    const noHandOver = (why: string) => ({
      ok: false as const,
      error: errorInfo(
        'TAB_NOT_LEASED',
        `Other agent sessions hold tabs, so the bridge cannot hand you the active tab implicitly (${why}). Pass tab_id, or open a tab of your own with open_tab.`,
        'bridge',
      ),
    });
    if (!(ACTION_NAMES as readonly string[]).includes('list_tabs')) return noHandOver('this build has no list_tabs');
    const r = await this.relay({ type: 'action', action_id: 'list-tabs', action: 'list_tabs', params: {} } as ActionMessage, {
      deadline,
      timeoutMs: DEFAULT_TIMEOUT_MS,
    });
    const tabs =
      r.status === 'success'
        ? (r.outcome_details?.result as { tabs?: { tab_id: number; active: boolean }[] } | undefined)?.tabs
        : undefined;
    const active = tabs?.find((t) => t.active);
    if (!active) return noHandOver(r.error_info?.message ?? 'no active tab');
    return { ok: true, tabId: active.tab_id };
  }

  /** Fails what is in flight and closes the connection (bridge shutdown). */
  close(): void {
    const shuttingDown = errorInfo(
      'EXTENSION_DISCONNECTED',
      'The bridge is shutting down; the action may or may not have run. Reconnect and take a new state.',
      'bridge',
    );
    for (const e of this.pending.drain()) this.failInFlight(e, shuttingDown);
    this.commands.failAll(() => shuttingDown);
    this.peer?.close(CLOSE.goingAway, 'bridge shutting down');
  }

  private awaitingAfterRestart(): boolean {
    return this.restoredAt !== null && Date.now() - this.restoredAt < RESTART_GRACE_MS;
  }

  /** Resolves when an extension is connected again, or at the deadline. */
  private back(deadline: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.events.off('up', done);
        resolve();
      };
      const timer = setTimeout(done, Math.max(0, deadline - Date.now()));
      this.events.on('up', done);
    });
  }

  private failInFlight(entry: PendingEntry<InFlight>, error: ErrorInfo): void {
    entry.value.resolve(failedResult(entry.id, entry.value.action, error));
  }
}
