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
  private readonly removers: (() => void)[] = [];

  constructor(private readonly tabId: number) {
    const top = (d: { tabId: number; frameId: number }) => d.tabId === tabId && d.frameId === 0;
    this.on(chrome.webNavigation.onBeforeNavigate, (d) => {
      if (!top(d)) return;
      this.navigationStarted = true;
      this.end = null;
      this.committed = false;
    });
    this.on(chrome.webNavigation.onCommitted, (d) => {
      if (!top(d)) return;
      this.navigationStarted = true;
      this.committed = true;
    });
    this.on(chrome.webNavigation.onCompleted, (d) => {
      if (top(d) && this.navigationStarted) this.end = { ok: true, url: d.url };
    });
    this.on(chrome.webNavigation.onErrorOccurred, (d) => {
      if (top(d) && this.navigationStarted) this.end = { ok: false, url: d.url, error: d.error };
    });
    const sameDoc = (d: { tabId: number; frameId: number }) => {
      if (top(d)) this.sameDocumentNavigation = true;
    };
    this.on(chrome.webNavigation.onHistoryStateUpdated, sameDoc);
    this.on(chrome.webNavigation.onReferenceFragmentUpdated, sameDoc);
    this.on(chrome.webNavigation.onCreatedNavigationTarget, (d) => {
      if (d.sourceTabId === tabId && this.newTabId === undefined) this.newTabId = d.tabId;
    });
    this.on(chrome.tabs.onCreated, (t) => {
      if (t.openerTabId === tabId && t.id !== undefined && this.newTabId === undefined) this.newTabId = t.id;
    });
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
    for (const r of this.removers.splice(0)) r();
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

  private on<A extends unknown[]>(event: chrome.events.Event<(...args: A) => void>, fn: (...args: A) => void): void {
    const wrapped = (...args: A) => {
      fn(...args);
      for (const w of [...this.waiters]) w();
    };
    event.addListener(wrapped);
    this.removers.push(() => event.removeListener(wrapped));
  }
}
