// Watches one tab while an action runs: did a navigation start, did it load or fail, did the action
// open a new tab or popup (chrome.webNavigation.onCreatedNavigationTarget / tabs.onCreated with this
// tab as opener). Start it before the action, stop() it after.
export interface NavigationEnd {
  ok: boolean;
  url?: string;
  /** chrome.webNavigation error, e.g. net::ERR_NAME_NOT_RESOLVED. */
  error?: string;
}

export class TabWatch {
  /** A cross-document navigation of the top frame started. */
  navigationStarted = false;
  /** The URL changed without a new document (history.pushState, #fragment). */
  sameDocumentNavigation = false;
  committed = false;
  newTabId: number | undefined;
  private end: NavigationEnd | null = null;
  private readonly waiters = new Set<() => void>();

  constructor(readonly tabId: number) {
    installTabWatchListeners();
    WATCHES.add(this);
  }

  /** Called by the shared listeners below for events of this watch's tab. */
  onEvent(kind: WatchEvent, d: { frameId?: number; url?: string; error?: string; tabId?: number }): void {
    const top = d.frameId === 0;
    switch (kind) {
      case 'before':
        if (!top) return;
        this.navigationStarted = true;
        this.end = null;
        this.committed = false;
        break;
      case 'committed':
        if (!top) return;
        this.navigationStarted = true;
        this.committed = true;
        break;
      case 'completed':
        if (top && this.navigationStarted) this.end = { ok: true, ...(d.url === undefined ? {} : { url: d.url }) };
        break;
      case 'error':
        if (top && this.navigationStarted)
          this.end = { ok: false, ...(d.url === undefined ? {} : { url: d.url }), ...(d.error === undefined ? {} : { error: d.error }) };
        break;
      case 'same_document':
        if (top) this.sameDocumentNavigation = true;
        break;
      case 'new_tab':
        if (this.newTabId === undefined && d.tabId !== undefined) this.newTabId = d.tabId;
        break;
    }
    for (const w of [...this.waiters]) w();
  }

  get navigated(): boolean {
    return this.navigationStarted || this.sameDocumentNavigation;
  }

  /** Resolves when a navigation the watch saw start has loaded or failed, or null after capMs. */
  waitForNavigationEnd(capMs: number): Promise<NavigationEnd | null> {
    return this.waitFor(() => this.end, capMs);
  }

  /** Resolves true as soon as a navigation starts or a new tab opens, false after capMs. */
  async waitForStartOrNewTab(capMs: number): Promise<boolean> {
    return (await this.waitFor(() => (this.navigationStarted || this.newTabId !== undefined ? true : null), capMs)) ?? false;
  }

  /** Promise that resolves (never rejects) once a navigation starts or a tab opens; for races. */
  started(): Promise<true> {
    return new Promise((resolve) => {
      const check = () => {
        if (this.navigationStarted || this.newTabId !== undefined) {
          this.waiters.delete(check);
          resolve(true);
        }
      };
      this.waiters.add(check);
      check();
    });
  }

  stop(): void {
    WATCHES.delete(this);
    this.waiters.clear();
  }

  private waitFor<T>(probe: () => T | null, capMs: number): Promise<T | null> {
    const now = probe();
    if (now !== null) return Promise.resolve(now);
    return new Promise((resolve) => {
      const check = () => {
        const v = probe();
        if (v !== null) finish(v);
      };
      const finish = (v: T | null) => {
        clearTimeout(timer);
        this.waiters.delete(check);
        resolve(v);
      };
      const timer = setTimeout(() => finish(null), capMs);
      this.waiters.add(check);
    });
  }
}

type WatchEvent = 'before' | 'committed' | 'completed' | 'error' | 'same_document' | 'new_tab';
const WATCHES = new Set<TabWatch>();
let installed = false;

let onBrowserEvent: () => void = () => undefined;

/**
 * One set of chrome.webNavigation / chrome.tabs listeners for the worker's life, fanned out to the
 * watches of running actions: adding and removing filtered listeners per action costs IPC to the
 * browser process on the hot path. index.ts calls this at the top level: only
 * listeners registered while the worker script first runs wake a stopped worker, and a woken
 * worker reconnects to the bridge at once (`wake`), instead of staying blind until the 30 s alarm.
 */
export function installTabWatchListeners(wake?: () => void): void {
  if (wake) onBrowserEvent = wake;
  if (installed) return;
  installed = true;
  const fan = (kind: WatchEvent, tabId: number, d: { frameId?: number; url?: string; error?: string; tabId?: number }) => {
    onBrowserEvent();
    for (const w of WATCHES) if (w.tabId === tabId) w.onEvent(kind, d);
  };
  chrome.webNavigation.onBeforeNavigate.addListener((d) => fan('before', d.tabId, d));
  chrome.webNavigation.onCommitted.addListener((d) => fan('committed', d.tabId, d));
  chrome.webNavigation.onCompleted.addListener((d) => fan('completed', d.tabId, d));
  chrome.webNavigation.onErrorOccurred.addListener((d) => fan('error', d.tabId, d));
  chrome.webNavigation.onHistoryStateUpdated.addListener((d) => fan('same_document', d.tabId, d));
  chrome.webNavigation.onReferenceFragmentUpdated.addListener((d) => fan('same_document', d.tabId, d));
  chrome.webNavigation.onCreatedNavigationTarget.addListener((d) => fan('new_tab', d.sourceTabId, { tabId: d.tabId }));
  chrome.tabs.onCreated.addListener((t) => {
    onBrowserEvent();
    if (t.openerTabId !== undefined && t.id !== undefined) fan('new_tab', t.openerTabId, { tabId: t.id });
  });
  // Tab events with no watch to feed: registered so they wake the worker too.
  chrome.tabs.onActivated.addListener(() => onBrowserEvent());
  chrome.tabs.onRemoved.addListener(() => onBrowserEvent());
  chrome.tabs.onUpdated.addListener(() => onBrowserEvent());
}
