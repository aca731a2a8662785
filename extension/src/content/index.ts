// Content script entry: runs in the page's isolated world and answers the service worker.
// Registers the global the worker asks for a CDP client's screenshot (background/cdp/capture-mask.ts).
import './snapshot/card-boxes';
import './snapshot/card-push';

import { errorInfo } from '../../../schemas/lib/errors';
import {
  CONTENT_PORT,
  type ContentRequest,
  isContentRequest,
  type PingRequest,
  type PortMessage,
  type RunActionResponse,
} from '../shared/internal-messages';
import { type DownloadRequest, TAKE_DOWNLOAD_REQUESTS } from '../shared/settle-messages';
import { PAGE_HANDLERS, type PageContext } from './actions/registry';
import { prepareTrusted, readValue } from './actions/trusted-prepare';
import { drawHighlights, removeHighlights } from './browser-use-tree/highlight';
import { agentBarClearForTrustedPoint } from './interaction/hit-test';
import { RefRegistry } from './refs';
import { waitForSettle } from './settle';
import { answerSnapshot, pageActed } from './snapshot';

declare global {
  interface Window {
    __browserUseExtLoaded?: boolean;
  }
}

// The worker may inject this script into a tab that already has it; one copy per document.
if (!window.__browserUseExtLoaded) {
  window.__browserUseExtLoaded = true;
  const ctx: PageContext = { refs: new RefRegistry() };

  chrome.runtime.onMessage.addListener((message: unknown, _sender, sendResponse) => {
    if (!isContentRequest(message)) return false;
    if (message.kind === 'ping') {
      sendResponse({ ok: true });
      return false;
    }
    void answer(ctx, message).then(sendResponse);
    return true; // async reply
  });

  // The worker's long-lived port (background/connection/content-channel.ts): hello first, so the worker knows
  // a request on it reached a content script; then each request is answered by its id.
  chrome.runtime.onConnect.addListener((port) => {
    if (port.name !== CONTENT_PORT) return;
    const post = (m: PortMessage) => {
      try {
        port.postMessage(m);
      } catch {
        // The worker went away (restarted) while this ran: it asks again on a new port.
      }
    };
    post({ kind: 'hello' });
    port.onMessage.addListener((m: PortMessage) => {
      if (m.kind !== 'request' || !isContentRequest(m.request)) return;
      const id = m.id;
      if (m.request.kind === 'ping') post({ kind: 'answer', id, response: { ok: true, message: 'pong', result: {} } });
      else {
        // Typing actions tell the worker how far they got, in case this document dies mid-way.
        const progress = (done: number, total: number) => post({ kind: 'progress', id, progress: { done, total } });
        void answer({ ...ctx, progress }, m.request).then((response) => post({ kind: 'answer', id, response }));
      }
    });
  });
}

/** A request answered by run() (ping is answered where it arrives). */
type WorkRequest = Exclude<ContentRequest, PingRequest>;

/** run(), with a thrown error turned into a typed answer. */
function answer(ctx: PageContext, req: WorkRequest): Promise<RunActionResponse> {
  return run(ctx, req).catch((e: unknown) => {
    const why = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
    const what = req.kind === 'run_action' ? req.action : req.kind;
    return {
      ok: false,
      error: errorInfo(
        'EXTENSION_INTERNAL_ERROR',
        `The content script failed while running "${what}": ${why}. Take a new state and retry; report the bug if it repeats.`,
        'content_script',
      ),
    } satisfies RunActionResponse;
  });
}

async function run(ctx: PageContext, req: WorkRequest): Promise<RunActionResponse> {
  if (req.kind === 'highlight') {
    if (!req.draw) {
      removeHighlights();
      return { ok: true, message: 'Highlights removed.', result: {} };
    }
    const drawn = drawHighlights(req.indexes ?? []);
    // Two frames: the boxes are laid out and painted before the worker captures the tab.
    // (rAF does not run in a tab that is not shown: a short timer caps the wait.)
    await new Promise<void>((r) => {
      const t = setTimeout(r, 50);
      requestAnimationFrame(() => requestAnimationFrame(() => (clearTimeout(t), r())));
    });
    return { ok: true, message: `${drawn} highlights drawn.`, result: { drawn } };
  }
  if (req.kind === 'snapshot') return answerSnapshot(ctx.refs, req);
  if (req.kind === 'prepare') return prepareTrusted(ctx, req);
  if (req.kind === 'read_value') return readValue(ctx, req);
  if (req.kind === 'bar_aside') {
    agentBarClearForTrustedPoint(req.x, req.y);
    return { ok: true, message: '', result: {} };
  }
  const handler = PAGE_HANDLERS[req.action];
  if (!handler)
    return { ok: false, error: errorInfo('UNSUPPORTED_ACTION', `The page side does not implement "${req.action}".`, 'content_script') };
  pageActed(ctx.refs);
  const out = await handler(ctx, req.params);
  if (!out.ok) return out;
  if (out.settle) await waitForSettle();
  const downloads = req.downloads ? takeDownloadRequests() : [];
  const asked = { ...(downloads.length ? { download_requests: downloads } : {}), ...(out.link ? { link: true as const } : {}) };
  if (req.snapshot) {
    const snap = await answerSnapshot(ctx.refs, { channel: req.channel, kind: 'snapshot', params: req.snapshot });
    if (snap.ok && snap.frame !== undefined) return { ok: true, message: out.message, result: out.result, frame: snap.frame, ...asked };
  }
  return { ok: true, message: out.message, result: out.result, ...asked };
}

/** The page's blob:/data: download requests, taken from early.ts (same frame, same isolated world). */
function takeDownloadRequests(): DownloadRequest[] {
  const take = (window as unknown as Record<string, unknown>)[TAKE_DOWNLOAD_REQUESTS];
  return typeof take === 'function' ? (take as () => DownloadRequest[])() : [];
}
