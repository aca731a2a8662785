// Why an agent's second download in a tab needs a real click. Chrome lets a page start one download
// without a user gesture; after it, the tab's "automatic downloads" rule (DownloadRequestLimiter)
// drops or holds every further download until the person interacts with the page, and a mouse down
// or key down gives the tab one download again. A synthetic click carries no gesture, so a second
// export clicked by an agent was lost with a success message. Input sent through chrome.debugger
// (Input.dispatchMouseEvent, as Playwright sends it) counts as that interaction. So the tabs that
// have had a download are remembered here, and a click in one of them goes as trusted input.
// Chrome's rule: chrome/browser/download/download_request_limiter.cc (TabDownloadState::DidGetUserInteraction).

/** storage.session: the tabs that had a download, so a restarted worker still clicks there for real. */
const STORAGE_KEY = 'download_gesture_tabs';
/** Tab ids are never reused in a browser session; the oldest are dropped past this many. */
const MAX_TABS = 500;
/** The clicks a download may follow (a press of Enter on a link goes as keys, which need no plan here). */
const POINTER_ACTIONS = new Set(['click', 'double_click']);

let spent: Promise<Set<number>> | null = null;

function spentTabs(): Promise<Set<number>> {
  spent ??= chrome.storage.session
    .get(STORAGE_KEY)
    .then((got) => new Set(Array.isArray(got[STORAGE_KEY]) ? (got[STORAGE_KEY] as unknown[]).filter((t) => typeof t === 'number') : []))
    .catch(() => new Set<number>());
  return spent;
}

async function save(tabs: Set<number>): Promise<void> {
  await chrome.storage.session.set({ [STORAGE_KEY]: [...tabs] }).catch(() => undefined);
}

/** The origin a download came from: its referrer's, or a blob:/http(s) URL's own (a blob: URL carries its page's origin). */
function originOf(item: chrome.downloads.DownloadItem): string | null {
  for (const raw of [item.referrer, item.url]) {
    try {
      const origin = raw ? new URL(raw).origin : 'null';
      if (origin !== 'null') return origin;
    } catch {
      // not a URL: try the next
    }
  }
  return null;
}

const sameOrigin = (url: string | undefined, origin: string): boolean => {
  try {
    return url !== undefined && new URL(url).origin === origin;
  } catch {
    return false;
  }
};

/** Marks the tab (its next clicks are trusted input). */
export async function markDownloadTab(tabId: number): Promise<void> {
  const tabs = await spentTabs();
  if (tabs.has(tabId)) return;
  tabs.add(tabId);
  for (const old of tabs) {
    if (tabs.size <= MAX_TABS) break;
    tabs.delete(old);
  }
  await save(tabs);
}

/**
 * A download Chrome created (chrome.downloads.onCreated; the item names no tab): every tab showing
 * a page of its origin may have spent its gesture-free download, the person's own downloads
 * included. Marking one tab too many only makes its clicks real ones.
 */
export async function noteDownloadCreated(item: chrome.downloads.DownloadItem): Promise<void> {
  const origin = originOf(item);
  if (!origin) return;
  const tabs = await chrome.tabs.query({}).catch(() => [] as chrome.tabs.Tab[]);
  for (const t of tabs) if (t.id !== undefined && sameOrigin(t.url, origin)) await markDownloadTab(t.id);
}

/**
 * Whether this action is a click in a tab that already had a download: it then goes as trusted
 * input so that a download it starts lands. An explicit `trusted: false` is kept (the agent chose
 * synthetic input; a download it starts may then be dropped, and is reported as blocked).
 */
export async function clickNeedsGesture(action: string, tabId: number | undefined, params: unknown): Promise<boolean> {
  if (!POINTER_ACTIONS.has(action) || tabId === undefined) return false;
  if ((params as { trusted?: unknown } | undefined)?.trusted === false) return false;
  return (await spentTabs()).has(tabId);
}

/** tabs.onRemoved (closed-tabs.ts). */
export async function forgetDownloadTab(tabId: number): Promise<void> {
  const tabs = await spentTabs();
  if (tabs.delete(tabId)) await save(tabs);
}
