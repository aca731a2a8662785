// Tabs as the person knows them, by title and site, never by Chrome's tab id: the agent list and the
// CDP clients name the tabs they hold this way. Titles come from chrome.tabs (the extension's "tabs"
// permission) and follow the pages as they load or navigate.

import { withoutPictographs } from '../shared/command-text';

export interface TabInfo {
  title: string;
  url: string;
}

/** "Title (host)", or whichever of the two is known. `fallbackUrl`: the URL the bridge last saw, until Chrome answers. */
export function tabLabel(info: TabInfo | undefined, fallbackUrl: string | null = null): string {
  const url = info?.url || fallbackUrl || '';
  let site = '';
  try {
    const u = new URL(url);
    site = u.protocol === 'file:' ? 'a local file' : u.host || u.protocol.replace(/:$/, ' page');
  } catch {
    site = '';
  }
  // A title's emoji would show as an empty box on a system without an emoji font.
  const title = withoutPictographs(info?.title ?? '').trim();
  if (title && site && title !== site) return `${title} (${site})`;
  return title || site || 'a new tab';
}

export class TabNames {
  private readonly known = new Map<number, TabInfo>();
  private readonly listeners: (() => void)[] = [];
  private wanted = new Set<number>();

  constructor() {
    chrome.tabs.onUpdated.addListener((tabId, change, tab) => {
      if (!this.wanted.has(tabId) || (change.title === undefined && change.url === undefined)) return;
      this.known.set(tabId, { title: tab.title ?? '', url: tab.url ?? '' });
      this.changed();
    });
    chrome.tabs.onRemoved.addListener((tabId) => this.known.delete(tabId));
  }

  get(tabId: number): TabInfo | undefined {
    return this.known.get(tabId);
  }

  label(tabId: number, fallbackUrl: string | null = null): string {
    return tabLabel(this.known.get(tabId), fallbackUrl);
  }

  /** Calls `f` whenever a name the panel shows changed. */
  onChange(f: () => void): void {
    this.listeners.push(f);
  }

  /** The tabs the panel shows now: fetches the names it does not know yet. */
  want(ids: Iterable<number>): void {
    for (const id of ids) this.wanted.add(id);
    const missing = [...this.wanted].filter((id) => !this.known.has(id));
    if (!missing.length) return;
    void Promise.all(missing.map((id) => chrome.tabs.get(id).catch(() => null))).then((got) => {
      let changed = false;
      for (const t of got)
        if (t?.id !== undefined) {
          this.known.set(t.id, { title: t.title ?? '', url: t.url ?? t.pendingUrl ?? '' });
          changed = true;
        }
      if (changed) this.changed();
    });
  }

  private changed(): void {
    for (const f of this.listeners) f();
  }
}
