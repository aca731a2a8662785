// Agent sessions and the tabs they lease (contract I).
// A session outlives its WebSocket: the agent gets a session_token in hello_ack and presents it in
// the next hello to resume (same session_id, tabs, current tab, task and recorded results). The
// bridge keeps a detached session for `graceMs`, then releases its tabs.
// Leases: one owner per tab. A tab is leased to a session when it opens it (open_tab, popups), acts
// on it by id while nobody holds it, or gets the active tab handed over implicitly. Past max_tabs
// the oldest lease is released (seed 002).
import crypto from 'node:crypto';
import type { ActionResultMessage } from '../../schemas/generated/protocol';
import { Lru } from './lru';
import type { Peer } from './peer';

export interface Lease {
  tabId: number;
  url: string | null;
  leasedAt: number;
}

export interface Released {
  tabId: number;
  url: string | null;
}

export class Session {
  peer: Peer | null = null;
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
  /** max_tabs the agent asked for (hello.max_tabs or the bridge default), before the person's cap. */
  requestedMaxTabs: number;

  constructor(
    readonly id: string,
    readonly token: string,
    public maxTabs: number,
    resultCapacity: number,
  ) {
    this.results = new Lru(resultCapacity);
    this.requestedMaxTabs = maxTabs;
  }

  get connected(): boolean {
    return this.peer !== null && this.peer.open;
  }
}

export interface SessionOptions {
  graceMs: number;
  resultCapacity: number;
}

export class SessionRegistry {
  private readonly byToken = new Map<string, Session>();
  private readonly owners = new Map<number, Session>();
  private seq = 1;

  constructor(
    private readonly opts: SessionOptions,
    private readonly onExpire: (session: Session, released: Released[]) => void = () => undefined,
  ) {}

  all(): Session[] {
    return [...this.byToken.values()];
  }

  create(peer: Peer, maxTabs: number): Session {
    const s = new Session(`session-${this.seq++}`, crypto.randomBytes(32).toString('base64url'), maxTabs, this.opts.resultCapacity);
    this.attach(s, peer);
    this.byToken.set(s.token, s);
    return s;
  }

  /** The live session named by token, or null (unknown or expired). */
  find(token: string): Session | null {
    return this.byToken.get(token) ?? null;
  }

  attach(session: Session, peer: Peer): void {
    if (session.expiry) clearTimeout(session.expiry);
    session.expiry = null;
    session.detachedAt = null;
    session.peer = peer;
    session.capabilities = peer.capabilities;
    session.client = peer.client;
    session.remoteAddress = peer.remoteAddress;
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
    this.byToken.delete(session.token);
    const released = [...session.tabs.values()].map((l) => ({ tabId: l.tabId, url: l.url }));
    for (const r of released) this.owners.delete(r.tabId);
    session.tabs.clear();
    this.onExpire(session, released);
  }

  ownerOf(tabId: number): Session | null {
    return this.owners.get(tabId) ?? null;
  }

  /**
   * Leases tabId to session (no-op when it already holds it; refused when another does). Returns
   * the leases released to stay within max_tabs, oldest first, never the tab just leased.
   */
  lease(session: Session, tabId: number, url: string | null): { ok: boolean; released: Released[] } {
    const owner = this.owners.get(tabId);
    if (owner && owner !== session) return { ok: false, released: [] };
    const existing = session.tabs.get(tabId);
    if (existing) {
      if (url) existing.url = url;
      return { ok: true, released: [] };
    }
    session.tabs.set(tabId, { tabId, url, leasedAt: Date.now() });
    this.owners.set(tabId, session);
    let excess = session.tabs.size - session.maxTabs;
    const released: Released[] = [];
    for (const lease of session.tabs.values()) {
      if (excess <= 0) break;
      if (lease.tabId === tabId) continue;
      released.push({ tabId: lease.tabId, url: lease.url });
      excess -= 1;
    }
    for (const r of released) this.release(r.tabId);
    return { ok: true, released };
  }

  release(tabId: number): Session | null {
    const owner = this.owners.get(tabId);
    if (!owner) return null;
    this.owners.delete(tabId);
    owner.tabs.delete(tabId);
    if (owner.currentTab === tabId) owner.currentTab = null;
    return owner;
  }

  noteUrl(tabId: number, url: string | null | undefined): void {
    const lease = this.owners.get(tabId)?.tabs.get(tabId);
    if (lease && url) lease.url = url;
  }

  /** Any tab leased by a session other than `session`? (Decides how to hand over the active tab.) */
  othersHoldTabs(session: Session): boolean {
    for (const owner of this.owners.values()) if (owner !== session) return true;
    return false;
  }

  clear(): void {
    for (const s of this.byToken.values()) if (s.expiry) clearTimeout(s.expiry);
    this.byToken.clear();
    this.owners.clear();
  }
}
