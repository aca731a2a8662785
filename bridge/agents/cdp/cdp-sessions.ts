// The targets and sessions a CDP client sees through the endpoint, and how each maps to a tab.
// - A tab the client holds is two targets, as in Chrome: a "tab" target (puppeteer attaches to it and
//   auto-attaches the page inside) and the "page" target (Chrome's own targetId, from cdp_attach).
// - Client sessions are minted here: a page session goes to its tab (chrome.debugger), a tab session
//   is emulated, a browser session (Target.attachToBrowserTarget) acts as the browser endpoint.
// - Child sessions Chrome creates inside a tab (out-of-process frames, workers) are in child-sessions.ts.
// - A scope is a browser-level session (the connection itself or a browser session): each has its
//   own discovery and auto-attach settings, as in Chrome.
// Each kind of session is a class with its own handle() (page-session.ts, tab-session.ts,
// browser-session.ts, child-alias.ts); this registry knows only the shapes below.
import crypto from 'node:crypto';

import type { CdpCommand, TargetFilterEntry } from './cdp-protocol';

export interface TabTarget {
  tabId: number;
  /** Chrome's targetId of the page (cdp_attach target_id). */
  targetId: string;
  /** The tab target that holds the page. */
  tabTargetId: string;
  url: string;
  title: string;
  /** Set when the target is gone (closed, released, detached): no more events or answers for it. */
  gone: boolean;
  /** A popup's opener, as its page target's TargetInfo gives it (popups.ts). */
  opener?: { openerId: string; openerFrameId?: string; canAccessOpener: boolean };
}

export interface Scope {
  /** undefined: the connection's own browser-level session. */
  sessionId: string | undefined;
  discover: TargetFilterEntry[] | null;
  autoAttach: TargetFilterEntry[] | null;
  downloadEvents: boolean;
}

/** A session the client can send commands to: it answers them itself or passes them on. */
export interface CommandTarget {
  /** One command of this session; never throws (a failure is the client's CDP error). */
  handle(c: CdpCommand): void;
}

export interface PageSession extends CommandTarget {
  readonly kind: 'page';
  /** '' for the page endpoint's own session (commands without sessionId). */
  readonly id: string;
  readonly tab: TabTarget;
  readonly parent: string | undefined;
  /** The client asked this session to auto-attach the page's frames and workers. */
  autoAttach: boolean;
}

export interface TabTargetSession extends CommandTarget {
  readonly kind: 'tab';
  readonly id: string;
  readonly tab: TabTarget;
  readonly parent: string | undefined;
  /** The page session its auto-attach made, if any. */
  page: string | null;
}

export interface BrowserSession extends CommandTarget {
  readonly kind: 'browser';
  readonly id: string;
  readonly scope: Scope;
}

export type ClientSession = PageSession | TabTargetSession | BrowserSession;

/** A session on a tab's page or tab target. */
export type TabSession = Exclude<ClientSession, { kind: 'browser' }>;

/** An id like Chrome's (32 upper-case hex digits). */
export function mintId(): string {
  return crypto.randomBytes(16).toString('hex').toUpperCase();
}

export class CdpSessions {
  readonly browserTargetId = crypto.randomUUID();
  /** The one browser context, the person's profile (Chrome reports an id; clients only compare it). */
  readonly contextId = mintId();
  readonly root: Scope = { sessionId: undefined, discover: null, autoAttach: null, downloadEvents: false };

  private readonly tabs = new Map<number, TabTarget>();
  private readonly byTargetId = new Map<string, TabTarget>();
  private readonly sessions = new Map<string, ClientSession>();
  private readonly pagesOfTab = new Map<number, PageSession[]>();

  addTab(tabId: number, targetId: string, url: string, title: string): TabTarget {
    const known = this.tabs.get(tabId);
    if (known && !known.gone) {
      known.url = url;
      known.title = title;
      return known;
    }
    const tab: TabTarget = { tabId, targetId, tabTargetId: mintId(), url, title, gone: false };
    this.tabs.set(tabId, tab);
    this.byTargetId.set(targetId, tab);
    this.byTargetId.set(tab.tabTargetId, tab);
    return tab;
  }

  tab(tabId: number): TabTarget | undefined {
    return this.tabs.get(tabId);
  }

  liveTabs(): TabTarget[] {
    return [...this.tabs.values()].filter((t) => !t.gone);
  }

  /** A live tab by its page or tab target id. */
  byTarget(targetId: string): { tab: TabTarget; type: 'page' | 'tab' } | undefined {
    const tab = this.byTargetId.get(targetId);
    if (!tab || tab.gone) return undefined;
    return { tab, type: tab.targetId === targetId ? 'page' : 'tab' };
  }

  /** Forgets a tab; answers the client sessions it had (to report detached). */
  removeTab(tabId: number): TabSession[] {
    const tab = this.tabs.get(tabId);
    if (!tab) return [];
    tab.gone = true;
    this.tabs.delete(tabId);
    this.byTargetId.delete(tab.targetId);
    this.byTargetId.delete(tab.tabTargetId);
    const gone = [...this.sessions.values()].filter((s): s is TabSession => s.kind !== 'browser' && s.tab === tab);
    for (const s of gone) this.removeSession(s.id);
    return gone;
  }

  addSession(s: ClientSession): void {
    this.sessions.set(s.id, s);
    if (s.kind !== 'page') return;
    const list = this.pagesOfTab.get(s.tab.tabId);
    if (list) list.push(s);
    else this.pagesOfTab.set(s.tab.tabId, [s]);
  }

  session(id: string): ClientSession | undefined {
    return this.sessions.get(id);
  }

  removeSession(id: string): ClientSession | undefined {
    const s = this.sessions.get(id);
    if (!s) return undefined;
    this.sessions.delete(id);
    if (s.kind === 'page') {
      const list = (this.pagesOfTab.get(s.tab.tabId) ?? []).filter((p) => p !== s);
      if (list.length) this.pagesOfTab.set(s.tab.tabId, list);
      else this.pagesOfTab.delete(s.tab.tabId);
    }
    return s;
  }

  /** The client's page sessions of a tab: each gets the tab's events. */
  pageSessions(tabId: number): readonly PageSession[] {
    return this.pagesOfTab.get(tabId) ?? [];
  }

  /** Client sessions whose attachedToTarget was sent with this parent session (undefined: root). */
  sessionsUnder(parent: string | undefined): ClientSession[] {
    return [...this.sessions.values()].filter((s) => s.kind !== 'browser' && s.parent === parent);
  }

  /** Whether some client session is attached to the target (targetInfo.attached). */
  isAttached(targetId: string): boolean {
    for (const s of this.sessions.values())
      if (s.kind === 'page' ? s.tab.targetId === targetId : s.kind === 'tab' && s.tab.tabTargetId === targetId) return true;
    return false;
  }

  scopes(): Scope[] {
    const out = [this.root];
    for (const s of this.sessions.values()) if (s.kind === 'browser') out.push(s.scope);
    return out;
  }
}
