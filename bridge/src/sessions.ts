// Agent sessions and the tabs they lease.
// A session outlives its WebSocket: the agent gets a session_token in hello_ack and presents it in
// the next hello to resume (same session_id, tabs, current tab, task and recorded results). The
// bridge keeps a detached session for `graceMs`, then releases its tabs.
// Each session works in one browser (browsers.ts) and tab ids are that browser's: two browsers may
// both have a tab 5, so every lease is keyed on (browser, tab) and a session never reaches a tab of
// another browser, whatever id it sends.
// Leases: one owner per tab. A tab is leased to a session when it opens it (open_tab, popups), acts
// on it by id while nobody holds it, or gets the active tab handed over implicitly. Past max_tabs
// the oldest lease is released (seed 002), except for a session that asked to be refused instead
// (TAB_LIMIT_REFUSES, CDP clients): it gets no new tab and keeps all it holds.
import crypto from 'node:crypto';

import type { ActionMessage, ActionResultMessage } from '../../schemas/generated/protocol';
import { EPHEMERAL_SESSION } from '../common/ephemeral-session';
import { Lru } from '../common/lru';
import { TAB_LIMIT_REFUSES } from '../common/tab-limit-refuses';
import { type ActionJournal, outcomeUnknown } from './action-journal';
import { DEFAULT_BROWSER_ID } from './browsers';
import type { Peer } from './peer';
import { type PersistedSession, tokenHash } from './session-store';

/** Recorded results keep their page state only for the newest few: a re-send after a reconnect asks
 * for what was in flight, and 256 full states per session were most of the bridge's memory. */
export const RECORDED_STATES = 16;

export interface Lease {
  tabId: number;
  url: string | null;
  leasedAt: number;
}

export interface Released {
  tabId: number;
  url: string | null;
}

/** The key of a tab on the bridge: its browser and its Chrome tab id. */
const tabKey = (browserId: string | null, tabId: number) => `${browserId ?? ''}\n${tabId}`;

export class Session {
  peer: Peer | null = null;
  /** The browser this session works in (browsers.ts); null until one is chosen (none connected yet, or the named one is not). */
  browserId: string | null = null;
  /** The browser the agent named (hello.browser_name), or null for the default rule. */
  wantedBrowser: string | null = null;
  /** Leased tabs in lease order, oldest first. */
  readonly tabs = new Map<number, Lease>();
  currentTab: number | null = null;
  /** Recorded results by the agent's action_id: a re-sent id gets these instead of running twice. */
  readonly results: Lru<string, ActionResultMessage>;
  /** Action ids running right now; a re-sent one joins the run instead of starting another. */
  readonly running = new Set<string>();
  detachedAt: number | null = null;
  expiry: ReturnType<typeof setTimeout> | null = null;
  capabilities: readonly string[] = [];
  /** hello.client and address of the latest connection: names the agent to the person, and lets a
   * re-run of the same agent take back the tabs of its crashed predecessor (agent-sessions.ts). */
  client: { name: string; version: string } | null = null;
  remoteAddress = '';
  /** The session and task this one carries out (hello.task_id, task-children.ts); null when it stands alone. */
  parent: { sessionId: string; taskId: string } | null = null;
  /** max_tabs the agent asked for (hello.max_tabs or the bridge default), before the person's cap. */
  requestedMaxTabs: number;
  /** Ids of recorded results that still carry their state, oldest first. */
  private readonly withState: string[] = [];

  /** token: null for a session restored from disk until its agent presents the token again. */
  constructor(
    readonly id: string,
    public token: string | null,
    readonly tokenHash: string,
    public maxTabs: number,
    resultCapacity: number,
  ) {
    this.results = new Lru(resultCapacity);
    this.requestedMaxTabs = maxTabs;
  }

  /** Records a delivered result for idempotent re-sends; older ones lose their page state. */
  record(actionId: string, result: ActionResultMessage): void {
    this.results.set(actionId, result);
    if (result.new_simplified_state) this.withState.push(actionId);
    while (this.withState.length > RECORDED_STATES) {
      const old = this.withState.shift() as string;
      this.results.update(old, (r) => ({ ...r, new_simplified_state: null }));
    }
  }

  get connected(): boolean {
    return this.peer !== null && this.peer.open;
  }

  /** Past max_tabs this session is refused a new tab rather than losing its oldest (TAB_LIMIT_REFUSES). */
  get refusesPastLimit(): boolean {
    return this.capabilities.includes(TAB_LIMIT_REFUSES);
  }

  /**
   * Whether taking tabId (null: a tab not yet known, such as one open_tab is about to open) would go
   * past max_tabs for a session that refuses there. Checked before the action runs, so the tab is
   * neither opened nor attached; lease() checks again for actions that raced past it.
   */
  refusesNewTab(tabId: number | null): boolean {
    if (!this.refusesPastLimit) return false;
    if (tabId !== null && this.tabs.has(tabId)) return false;
    return this.tabs.size >= this.maxTabs;
  }
}

export interface SessionOptions {
  graceMs: number;
  resultCapacity: number;
  /** Called after any change worth persisting (session-store.ts). */
  onChange?: () => void;
  /** Where action ids outlive the process (action-journal.ts); omitted: memory only (tests). */
  journal?: ActionJournal | null;
}

export class SessionRegistry {
  /** Sessions by the SHA-256 of their token (the only form persisted). */
  private readonly byToken = new Map<string, Session>();
  private readonly owners = new Map<string, Session>();
  private seq = 1;

  constructor(
    private readonly opts: SessionOptions,
    private readonly onExpire: (session: Session, released: Released[]) => void = () => undefined,
  ) {}

  all(): Session[] {
    return [...this.byToken.values()];
  }

  create(peer: Peer, maxTabs: number): Session {
    const token = crypto.randomBytes(32).toString('base64url');
    const s = new Session(`session-${this.seq++}`, token, tokenHash(token), maxTabs, this.opts.resultCapacity);
    this.attach(s, peer);
    this.byToken.set(s.tokenHash, s);
    this.changed();
    return s;
  }

  /** The live session named by token, or null (unknown or expired). */
  find(token: string): Session | null {
    const s = this.byToken.get(tokenHash(token)) ?? null;
    if (s && s.token === null) s.token = token; // restored from disk: the agent just proved it holds it
    return s;
  }

  /** Sessions persisted by the previous bridge process: detached, with a fresh grace period, with
   * the action ids they ran (a re-sent id gets its recorded answer or "outcome unknown", never a rerun). */
  restore(saved: PersistedSession[]): void {
    const journal = this.opts.journal?.load(new Set(saved.map((p) => p.token_sha256)));
    for (const p of saved) {
      if (this.byToken.has(p.token_sha256) || p.capabilities.includes(EPHEMERAL_SESSION)) continue;
      const s = new Session(p.session_id, null, p.token_sha256, p.max_tabs, this.opts.resultCapacity);
      s.capabilities = p.capabilities;
      // Tabs saved before several browsers are the one browser's an extension without an id is; a
      // session without a browser and without tabs binds again when it acts (agent-gateway.ts).
      s.browserId = p.browser_id ?? (p.tabs.length > 0 ? DEFAULT_BROWSER_ID : null);
      for (const t of p.tabs) {
        if (this.owners.has(tabKey(s.browserId, t.tab_id))) continue;
        s.tabs.set(t.tab_id, { tabId: t.tab_id, url: t.url, leasedAt: t.leased_at });
        this.owners.set(tabKey(s.browserId, t.tab_id), s);
      }
      s.currentTab = p.current_tab !== null && s.tabs.has(p.current_tab) ? p.current_tab : null;
      for (const [id, e] of journal?.get(p.token_sha256) ?? [])
        s.record(id, e.result ? { ...e.result, original_action_id: id } : outcomeUnknown(id, e.action));
      this.byToken.set(s.tokenHash, s);
      const n = Number(/^session-(\d+)$/.exec(p.session_id)?.[1] ?? 0);
      if (n >= this.seq) this.seq = n + 1;
      s.detachedAt = Date.now();
      s.expiry = setTimeout(() => this.end(s), this.opts.graceMs);
      s.expiry.unref?.();
    }
  }

  /** What session-store.ts writes: no token, no results, no session that ends with this process. */
  snapshot(): PersistedSession[] {
    return this.all()
      .filter((s) => !s.capabilities.includes(EPHEMERAL_SESSION))
      .map((s) => ({
        session_id: s.id,
        token_sha256: s.tokenHash,
        max_tabs: s.maxTabs,
        current_tab: s.currentTab,
        capabilities: [...s.capabilities],
        ...(s.browserId === null ? {} : { browser_id: s.browserId }),
        tabs: [...s.tabs.values()].map((l) => ({ tab_id: l.tabId, url: l.url, leased_at: l.leasedAt })),
      }));
  }

  /** The action is about to go to the extension: its id is on disk before it can take effect. */
  beginAction(session: Session, action: ActionMessage): void {
    this.opts.journal?.begin(session.tokenHash, action);
  }

  /** The action's answer, recorded in memory and (compact) on disk for re-sends. */
  recordResult(session: Session, actionId: string, result: ActionResultMessage): void {
    session.record(actionId, result);
    this.opts.journal?.done(session.tokenHash, actionId, result);
  }

  /** Something persisted changed (also called by the server after it moves a current tab). */
  changed(): void {
    this.opts.onChange?.();
  }

  attach(session: Session, peer: Peer): void {
    if (session.expiry) clearTimeout(session.expiry);
    session.expiry = null;
    session.detachedAt = null;
    session.peer = peer;
    session.capabilities = peer.capabilities;
    session.client = peer.client;
    session.remoteAddress = peer.remoteAddress;
    this.changed();
  }

  /** The connection dropped: keep the session for graceMs so the agent can resume it. */
  detach(session: Session, peer: Peer): void {
    if (session.peer !== peer) return; // a newer connection already took the session over
    session.peer = null;
    session.detachedAt = Date.now();
    session.expiry = setTimeout(() => this.end(session), this.opts.graceMs);
    session.expiry.unref?.();
  }

  end(session: Session): void {
    if (session.expiry) clearTimeout(session.expiry);
    this.byToken.delete(session.tokenHash);
    this.opts.journal?.endSession(session.tokenHash);
    const released = [...session.tabs.values()].map((l) => ({ tabId: l.tabId, url: l.url }));
    for (const r of released) this.owners.delete(tabKey(session.browserId, r.tabId));
    session.tabs.clear();
    this.changed();
    this.onExpire(session, released);
  }

  /** Who holds tab tabId of browser browserId. */
  ownerOf(browserId: string | null, tabId: number): Session | null {
    return this.owners.get(tabKey(browserId, tabId)) ?? null;
  }

  /** The session now works in browserId (it holds no tab before: tabs come only through its browser). */
  bind(session: Session, browserId: string): void {
    if (session.browserId === browserId) return;
    for (const tabId of [...session.tabs.keys()]) this.release(session.browserId, tabId);
    session.browserId = browserId;
    this.changed();
  }

  /**
   * Leases tabId to session (no-op when it already holds it; refused when another does, or when the
   * session is at max_tabs and refuses past it). Returns the leases released to stay within max_tabs,
   * oldest first, never the tab just leased.
   */
  lease(session: Session, tabId: number, url: string | null): { ok: boolean; released: Released[] } {
    const owner = this.owners.get(tabKey(session.browserId, tabId));
    if (owner && owner !== session) return { ok: false, released: [] };
    const existing = session.tabs.get(tabId);
    if (existing) {
      if (url) existing.url = url;
      return { ok: true, released: [] };
    }
    if (session.refusesNewTab(tabId)) return { ok: false, released: [] };
    session.tabs.set(tabId, { tabId, url, leasedAt: Date.now() });
    this.owners.set(tabKey(session.browserId, tabId), session);
    let excess = session.tabs.size - session.maxTabs;
    const released: Released[] = [];
    for (const lease of session.tabs.values()) {
      if (excess <= 0) break;
      if (lease.tabId === tabId) continue;
      released.push({ tabId: lease.tabId, url: lease.url });
      excess -= 1;
    }
    for (const r of released) this.release(session.browserId, r.tabId);
    this.changed();
    return { ok: true, released };
  }

  release(browserId: string | null, tabId: number): Session | null {
    const owner = this.owners.get(tabKey(browserId, tabId));
    if (!owner) return null;
    this.owners.delete(tabKey(browserId, tabId));
    owner.tabs.delete(tabId);
    if (owner.currentTab === tabId) owner.currentTab = null;
    this.changed();
    return owner;
  }

  noteUrl(browserId: string, tabId: number, url: string | null | undefined): void {
    const lease = this.owners.get(tabKey(browserId, tabId))?.tabs.get(tabId);
    if (lease && url && lease.url !== url) {
      lease.url = url;
      this.changed();
    }
  }

  /** Any tab of session's browser leased by another session? (Decides how to hand over the active tab.) */
  othersHoldTabs(session: Session): boolean {
    for (const owner of this.owners.values()) if (owner !== session && owner.browserId === session.browserId) return true;
    return false;
  }

  clear(): void {
    for (const s of this.byToken.values()) if (s.expiry) clearTimeout(s.expiry);
    this.byToken.clear();
    this.owners.clear();
    this.opts.journal?.close();
  }
}
