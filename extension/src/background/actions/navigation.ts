// Starting a navigation from the worker and waiting for it to load (capped), with the net error
// chrome.webNavigation reports when it fails.
import { errorInfo } from '../../../../schemas/lib/errors';
import { isLocalUrl } from '../../shared/local-files';
import { blockedDownload, downloadSentence, DownloadWatch } from '../page-watch/downloads';
import { TabWatch } from '../page-watch/tab-watch';
import { blockedLocalFrame } from '../policy/person-policy';
import { type WorkerContext, type WorkerOutcome, WS } from './types';

export async function navigateAndWait(
  ctx: WorkerContext,
  tabId: number,
  what: string,
  start: () => Promise<unknown>,
  timeoutMs: number | undefined,
): Promise<WorkerOutcome> {
  const watch = new TabWatch(tabId);
  const downloads = new DownloadWatch();
  const t0 = performance.now(); // same clock as run/action-run.ts: a coarser Date.now() made the derived action time negative
  try {
    try {
      await start();
    } catch (e) {
      const why = e instanceof Error ? e.message : String(e);
      return { ok: false, error: errorInfo('NAVIGATION_FAILED', `${what} failed: ${why}.`, WS, { tab_id: tabId, reason: why }) };
    }
    const cap = ctx.budget.cap(timeoutMs ?? ctx.settle.navigation_cap_ms);
    const end = await watch.waitForNavigationEnd(cap);
    const navigation_ms = Math.round(performance.now() - t0);
    // A URL answered with a file (Content-Disposition: attachment, a .zip): Chrome aborts the
    // navigation and downloads it instead; the item comes a moment after the abort.
    if (end && !end.ok && end.error === 'net::ERR_ABORTED' && (await downloads.waitForAny(ctx.budget.cap(DOWNLOAD_AFTER_ABORT_MS)))) {
      const download = await downloads.result(ctx.budget.remaining());
      if (download) {
        const blocked = blockedDownload(download);
        if (blocked) return { ok: false, error: blocked, stateTabId: tabId };
        const tab = await chrome.tabs.get(tabId).catch(() => null);
        return {
          ok: true,
          message: `${what}: Chrome downloaded the file instead of showing a page; the tab stays on ${tab?.url ?? 'its page'}.${downloadSentence(download)}`,
          result: { url: tab?.url ?? '' },
          navigation_occurred: false,
          settled: true,
          navigation_ms: Math.round(performance.now() - t0),
          stateTabId: tabId,
          download,
        };
      }
    }
    if (end && !end.ok) {
      return {
        ok: false,
        error: errorInfo(
          'NAVIGATION_FAILED',
          `${what} failed with ${end.error ?? 'an unknown network error'} for ${end.url ?? 'the URL'}. Check the URL, or that the site is reachable, and retry.`,
          WS,
          { tab_id: tabId, url: end.url, net_error: end.error },
        ),
      };
    }
    const tab = await chrome.tabs.get(tabId);
    const url = tab.url ?? tab.pendingUrl ?? end?.url ?? '';
    if (!end && !watch.sameDocumentNavigation) {
      if (!watch.navigationStarted)
        return {
          ok: false,
          error: errorInfo(
            'TIMEOUT',
            `${what} did not start a navigation within ${cap} ms. Take a new state to see where the tab is.`,
            WS,
            { tab_id: tabId, timeout_ms: cap },
          ),
        };
      return {
        ok: true,
        message: `${what}: ${url} is still loading after ${cap} ms (answering with the state so far).`,
        result: { url },
        navigation_occurred: true,
        settled: false,
        navigation_ms,
        stateTabId: tabId,
      };
    }
    // A local page the person allowed may frame a file from outside the folder: it loaded (the
    // navigation happened), but its state is withheld, as get_state on it is refused.
    const frame = isLocalUrl(url) ? await blockedLocalFrame(tabId) : null;
    if (frame)
      return {
        ok: true,
        message: `${what}: loaded ${url}; no state given: its frame ${frame.url} is a local file agents may not read. Navigate elsewhere.`,
        result: { url },
        navigation_occurred: true,
        settled: true,
        navigation_ms,
        stateTabId: null,
      };
    return {
      ok: true,
      message: `${what}: loaded ${url}.`,
      result: { url },
      navigation_occurred: true,
      settled: true,
      navigation_ms,
      stateTabId: tabId,
    };
  } finally {
    watch.stop();
    downloads.stop();
  }
}

/** How long a download may take to appear after the navigation it replaced was aborted. */
const DOWNLOAD_AFTER_ABORT_MS = 1000;

/** "example.com" -> "https://example.com"; URLs with a scheme pass through. */
export function normalizeUrl(raw: string): string {
  const s = raw.trim();
  // "localhost:3000/x" is a host and port, not a scheme: it would otherwise be judged (and refused) as a URL of scheme "localhost:".
  const hostPort = /^([a-z0-9.-]+):\d+(?:[/?#]|$)/i.exec(s);
  if (hostPort) return `${/^(localhost|127\.0\.0\.1)$/i.test(hostPort[1] ?? '') ? 'http' : 'https'}://${s}`;
  if (/^[a-z][a-z0-9+.-]*:/i.test(s)) return s;
  return `https://${s}`;
}
