// Downloads an action starts (a click on <a download>, a link answered with Content-Disposition:
// attachment, Enter on a form that returns a file). chrome.downloads items carry no tab id, so a
// download belongs to the action whose tab shows the page it came from (the item's referrer) and
// that was running when Chrome created it. Chrome saves it where the person's settings say (their
// Downloads folder); nothing here changes that.
import type { ErrorInfo, OutcomeDetails, SimplifiedState } from '../../../../schemas/generated/protocol';
import { errorInfo } from '../../../../schemas/lib/errors';
import type { DownloadLine } from '../../shared/panel-messages';
import type { DownloadRequest } from '../../shared/settle-messages';
import { noteDownloadCreated } from './download-gesture';

export type DownloadRecord = NonNullable<OutcomeDetails['download']>;

const WATCHES = new Set<DownloadWatch>();
/** Who hears of each download an action caused (panel-relay.ts: the panel's line). */
const HEARD = new Set<(line: DownloadLine) => void>();

export function onAgentDownload(listener: (line: DownloadLine) => void): void {
  HEARD.add(listener);
}

function tell(line: Omit<DownloadLine, 'at'>): void {
  for (const h of HEARD) h({ at: Date.now(), ...line });
}

const siteOf = (url: string): string => {
  try {
    return new URL(url).host;
  } catch {
    return '';
  }
};
/**
 * Hands Chrome's download events to the watches running. Called by the worker's entry (index.ts)
 * synchronously at top level, like every listener (it used to wait for the first watch).
 */
export function installDownloads(): void {
  chrome.downloads.onCreated.addListener((item) => {
    for (const w of WATCHES) w.created(item);
    void noteDownloadCreated(item);
  });
  chrome.downloads.onChanged.addListener((delta) => {
    for (const w of WATCHES) w.changed(delta);
  });
}

/** Origin and path only: a query or fragment may hold a token (signed URLs), never put in a result. */
export function safeUrl(raw: string): string {
  try {
    const u = new URL(raw);
    return u.protocol === 'data:' || u.protocol === 'blob:' ? `${u.protocol}` : `${u.origin}${u.pathname}`;
  } catch {
    return '';
  }
}

const sameDocument = (a: string, b: string): boolean => {
  try {
    const x = new URL(a);
    const y = new URL(b);
    return x.origin === y.origin && x.pathname === y.pathname;
  } catch {
    return false;
  }
};

const baseName = (p: string): string => p.split(/[\\/]/).pop() ?? '';

/** Watches for a download started from one tab while an action runs; start before, stop() after. */
export class DownloadWatch {
  /** Every download Chrome created while the watch ran, by id (matched to the tab's page later: the
   * tab's URL may not be known yet when Chrome creates the item). */
  private readonly items = new Map<number, chrome.downloads.DownloadItem>();
  private id: number | undefined;
  private readonly waiters = new Set<() => void>();

  /** Date.now() when the watch started (downloads in Chrome's history from before it are earlier ones). */
  readonly startedAt = Date.now();

  constructor() {
    WATCHES.add(this);
  }

  created(item: chrome.downloads.DownloadItem): void {
    this.items.set(item.id, item);
    this.wake();
  }

  changed(delta: chrome.downloads.DownloadDelta): void {
    const old = this.items.get(delta.id);
    if (!old) return;
    const item: chrome.downloads.DownloadItem = { ...old };
    if (delta.filename?.current !== undefined) item.filename = delta.filename.current;
    if (delta.state?.current !== undefined) item.state = delta.state.current as chrome.downloads.DownloadItem['state'];
    if (delta.error?.current !== undefined) item.error = delta.error.current as chrome.downloads.DownloadItem['error'];
    if (delta.mime?.current !== undefined) item.mime = delta.mime.current;
    this.items.set(delta.id, item);
    this.wake();
  }

  /** Whether a download from the page at pageUrl (the tab's URL when the action ran) was created. */
  match(pageUrl: string | undefined): boolean {
    if (this.id !== undefined) return true;
    if (!pageUrl) return false;
    for (const item of this.items.values()) {
      if (sameDocument(item.referrer, pageUrl) || (item.referrer === '' && sameDocument(item.url, pageUrl))) {
        this.id = item.id;
        return true;
      }
    }
    return false;
  }

  /** Whether Chrome created any download while the watch ran: a navigation the worker started and
   * Chrome aborted turned into it (its item has no referrer and the URL before redirects). */
  matchAny(): boolean {
    if (this.id !== undefined) return true;
    const first = this.items.values().next();
    if (!first.done) this.id = first.value.id;
    return this.id !== undefined;
  }

  /** matchAny(), waiting up to capMs for Chrome to create the item. */
  async waitForAny(capMs: number): Promise<boolean> {
    return this.waitFor(() => this.matchAny(), capMs);
  }

  /** match(), waiting up to capMs for Chrome to create the item (it comes a moment after the
   * navigation that turned into a download is aborted). */
  async waitForMatch(pageUrl: string | undefined, capMs: number): Promise<boolean> {
    return this.waitFor(() => this.match(pageUrl), capMs);
  }

  private async waitFor(found: () => boolean, capMs: number): Promise<boolean> {
    if (found()) return true;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(finish, Math.max(0, capMs));
      const check = () => {
        if (found()) finish();
      };
      function finish() {
        clearTimeout(timer);
        resolve();
      }
      this.waiters.add(check);
    });
    return found();
  }

  /** The download's record once it completes or is interrupted, or as it stands after capMs. */
  async result(capMs: number): Promise<DownloadRecord | undefined> {
    const id = this.id;
    if (id === undefined) return undefined;
    const current = () => this.items.get(id);
    const done = () => current()?.state === 'complete' || current()?.state === 'interrupted';
    if (!done()) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(finish, Math.max(0, capMs));
        function finish() {
          clearTimeout(timer);
          resolve();
        }
        const check = () => {
          if (done()) {
            this.waiters.delete(check);
            finish();
          }
        };
        this.waiters.add(check);
      });
    }
    // The item as Chrome has it now (bytes received, final path).
    const [now] = await chrome.downloads.search({ id }).catch(() => []);
    const item = now ?? current();
    if (!item) return undefined;
    const state = item.state === 'complete' ? 'complete' : item.state === 'interrupted' ? 'interrupted' : 'in_progress';
    const record: DownloadRecord = {
      id: item.id,
      filename: item.filename,
      suggested_filename: baseName(item.filename),
      url: safeUrl(item.finalUrl || item.url),
      state,
      bytes: Math.max(0, item.bytesReceived),
    };
    if (item.mime) record.mime_type = item.mime;
    if (state === 'interrupted' && item.error) record.error = item.error;
    const blocked = state === 'interrupted' && record.error !== undefined && record.error in BLOCKED_REASONS;
    tell({
      state: blocked ? 'blocked' : state,
      name: record.suggested_filename || baseName(record.url),
      path: record.filename,
      site: siteOf(record.url),
      ...(record.error === undefined ? {} : { error: record.error }),
    });
    return record;
  }

  stop(): void {
    WATCHES.delete(this);
    this.waiters.clear();
  }

  private wake(): void {
    for (const w of [...this.waiters]) w();
  }
}

/** A sentence for the action's message. */
export function downloadSentence(d: DownloadRecord): string {
  if (d.state === 'complete') return ` It downloaded "${d.suggested_filename}" (${d.bytes} bytes) to ${d.filename}.`;
  if (d.state === 'interrupted')
    return ` It started downloading "${d.suggested_filename}", which Chrome interrupted (${d.error ?? 'unknown reason'}).`;
  return ` It started downloading "${d.suggested_filename}", still running when the action's time ran out; Chrome saves it to ${d.filename || 'the Downloads folder'}.`;
}

/**
 * Whether the action's target (by index or element id) is a link to a URL in the tab's latest
 * state: Chrome creates a download item only once the response arrives, after the page answered
 * the click, so only then is it worth waiting a moment for one.
 */
export function targetsLink(state: SimplifiedState | undefined, params: unknown): boolean {
  if (!state || typeof params !== 'object' || params === null) return false;
  const p = params as { index?: unknown; element_id?: unknown };
  const el = state.actionable_elements.find((e) => (p.element_id !== undefined ? e.id === p.element_id : e.index === p.index));
  const href = el?.tag === 'a' ? el.attributes['href'] : undefined;
  return typeof href === 'string' && href !== '' && !href.startsWith('#') && !/^javascript:/i.test(href);
}

/** Interrupt reasons that mean Chrome (its policy, Safe Browsing, the virus scan) refused the file. */
const BLOCKED_REASONS: Record<string, string> = {
  FILE_BLOCKED: "Chrome's download settings or a policy blocked it",
  FILE_SECURITY_CHECK_FAILED: "Chrome's security check refused it",
  FILE_VIRUS_INFECTED: 'the virus scan flagged it',
};

const ASK_PERSON =
  'Nothing was saved. Ask the person to allow automatic downloads for this site (the download icon at the right of the address bar, or Chrome Settings > Privacy and security > Site settings > Automatic downloads), or to click the download once by hand; then retry.';

/** DOWNLOAD_BLOCKED for a download Chrome interrupted as blocked; null for any other record. */
export function blockedDownload(d: DownloadRecord): ErrorInfo | null {
  const why = d.state === 'interrupted' && d.error ? BLOCKED_REASONS[d.error] : undefined;
  if (!why) return null;
  return errorInfo(
    'DOWNLOAD_BLOCKED',
    `Chrome did not save "${d.suggested_filename || d.url}": ${why} (${d.error}). ${ASK_PERSON}`,
    'background_script',
    {
      reason: d.error,
      url: d.url,
    },
  );
}

/**
 * A click on a link that started no download and no navigation, where the link's file was
 * downloaded before: Chrome's automatic-downloads rule let the site's first download through and
 * dropped this one without creating any download item ("This site tried to download multiple
 * files"). Without this the click reported a plain success and no file.
 */
export async function repeatedDownloadBlocked(
  watch: DownloadWatch,
  state: SimplifiedState | undefined,
  params: unknown,
  tabUrl: string | undefined,
  lateMs: number,
): Promise<ErrorInfo | null> {
  if (!state || typeof params !== 'object' || params === null) return null;
  const p = params as { index?: unknown; element_id?: unknown };
  const el = state.actionable_elements.find((e) => (p.element_id !== undefined ? e.id === p.element_id : e.index === p.index));
  const href = el?.attributes['href'];
  let target: URL;
  try {
    target = new URL(typeof href === 'string' ? href : '', tabUrl);
  } catch {
    return null;
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:') return null;
  const file = `${target.origin}${target.pathname}`;
  const before = await chrome.downloads
    .search({ urlRegex: `^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}([?#]|$)`, limit: 8 })
    .catch(() => []);
  // Only a download from before this action counts; then a moment more for a late item (a loaded
  // machine): an item created now is this click's download after all, not a block.
  if (!before.some((d) => Date.parse(d.startTime) < watch.startedAt)) return null;
  if (await watch.waitForMatch(tabUrl, lateMs)) return null;
  tell({ state: 'blocked', name: baseName(target.pathname) || file, path: '', site: target.host });
  return errorInfo(
    'DOWNLOAD_BLOCKED',
    `The click asked for ${file} again, and Chrome did not download it: it blocks a site's further automatic downloads after the first ("This site tried to download multiple files"). ${ASK_PERSON}`,
    'background_script',
    { reason: 'automatic_downloads_blocked', url: file },
  );
}

/**
 * The page asked for a blob:/data: download during the action (an export button's <a download>,
 * main-world/download-requests.ts) and Chrome created no item within lateMs: it dropped it (a tab
 * whose further downloads Chrome holds, or a synthetic click after the tab's first download). Such a
 * file is made in the page, so its item comes at once when Chrome takes it.
 */
export async function droppedDownload(
  watch: DownloadWatch,
  requests: DownloadRequest[],
  tabUrl: string | undefined,
  lateMs: number,
): Promise<ErrorInfo | null> {
  // Only this action's: a request from before the watch began is no click of this one.
  const asked = requests.filter((r) => r.at >= watch.startedAt);
  if (!asked.length || (await watch.waitForMatch(tabUrl, lateMs))) return null;
  const name = asked[asked.length - 1]?.name || 'a file made by the page';
  const site = siteOf(tabUrl ?? '');
  tell({ state: 'blocked', name, path: '', site });
  return errorInfo(
    'DOWNLOAD_BLOCKED',
    `The page asked Chrome to save "${name}", and Chrome did not download it: it blocks a site's further automatic downloads after the first ("This site tried to download multiple files"). ${ASK_PERSON}`,
    'background_script',
    { reason: 'automatic_downloads_blocked', url: safeUrl(tabUrl ?? '') },
  );
}
