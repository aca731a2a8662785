// Sending a request to the content script of a tab's frame, injecting the script first when the
// tab predates the extension (Chrome does not inject declared content scripts into tabs that were
// already open at install or reload time).
//
// Requests go over one long-lived port per frame (chrome.tabs.connect, kept until the document
// goes away): a message on an open port is one hop each way, where chrome.tabs.sendMessage opens
// and closes a message channel per request (measured in headless Chromium 156: ~0.35 ms round trip
// on a port against ~0.7 ms per sendMessage, on every action and state). The content script says
// `hello` on the port as soon as it accepts it, before it reads any request; a port that closes
// before its hello reached no content script (none yet, or none allowed), and the request goes the
// old way (sendMessage, which injects the script). A port that closes after its hello closed
// because the document went away (navigation, back/forward cache, tab closed): a request in flight
// then fails like a closed sendMessage channel (portClosed).
import type { ErrorInfo } from '../../../../schemas/generated/protocol';
import { errorInfo } from '../../../../schemas/lib/wire';
import {
  CONTENT_PORT,
  type ContentRequest,
  type InputProgress,
  type PortMessage,
  type RunActionResponse,
} from '../../shared/internal-messages';

/**
 * progress (typing actions, on a failure where the page went away): how much went in before the
 * document died, as the content script last reported it; absent when it reported nothing, and
 * `tracked` false when the request did not go over a port (no report could come).
 */
export type ChannelOutcome =
  | { ok: true; response: RunActionResponse }
  | { ok: false; portClosed: boolean; error: ErrorInfo; progress?: InputProgress; tracked?: boolean };

const NO_RECEIVER = /Receiving end does not exist|Could not establish connection/i;
const PORT_CLOSED = /message port closed|message channel closed|page keeping the extension port is moved into back\/forward cache/i;

type PortAnswer =
  { kind: 'answer'; response: RunActionResponse | undefined } | { kind: 'closed'; reached: boolean; why: string; progress?: InputProgress };

interface Link {
  port: chrome.runtime.Port;
  /** The content script accepted the port (its hello arrived). */
  reached: boolean;
  pending: Map<number, (a: PortAnswer) => void>;
  /** The latest progress a request in flight reported (typing actions), by request id. */
  progress: Map<number, InputProgress>;
  /** Its frame committed a new document: no new requests; closed once the ones in flight end. */
  retired: boolean;
}

/** Open ports, oldest first. Bounded: past MAX_LINKS the oldest idle one is closed (a page with many ad iframes). */
const links = new Map<string, Link>();
const MAX_LINKS = 64;
let nextRequestId = 1;

/**
 * A frame that commits a new document gets a new content script: new requests go to it on a new
 * port (the old port closes with the old document; requests in flight on it end there). Called by
 * the worker's entry (index.ts) synchronously at top level.
 */
export function installContentChannel(): void {
  chrome.webNavigation.onCommitted.addListener((d) => {
    const key = `${d.tabId}:${d.frameId}`;
    const link = links.get(key);
    if (!link) return;
    links.delete(key);
    link.retired = true;
    if (link.pending.size === 0) link.port.disconnect();
  });
}

/** Closes a closed tab's ports (Chrome closes them too; this only drops what is left here). */
export function forgetTabLinks(tabId: number): void {
  const prefix = `${tabId}:`;
  for (const [key, link] of links) {
    if (!key.startsWith(prefix)) continue;
    // Our own disconnect() fires no onDisconnect on this side: answer what waits here, as the tab's
    // closing would have, so an action in flight fails now (the tab is gone) instead of at its timeout.
    endLink(key, link, 'the tab was closed');
    link.retired = true;
    try {
      link.port.disconnect();
    } catch {
      // Already closed with its tab.
    }
  }
}

/** Forgets the link and answers every request still waiting on it as closed. */
function endLink(key: string, link: Link, why: string): void {
  if (links.get(key) === link) links.delete(key);
  const waiting = [...link.pending.entries()];
  link.pending.clear();
  for (const [id, done] of waiting) {
    const progress = link.progress.get(id);
    done({ kind: 'closed', reached: link.reached, why, ...(progress ? { progress } : {}) });
  }
  link.progress.clear();
}

/** Open ports to this tab's frames (closed-tabs.ts, tests). */
export function linksHeldFor(tabId: number): number {
  const prefix = `${tabId}:`;
  let n = 0;
  for (const key of links.keys()) if (key.startsWith(prefix)) n++;
  return n;
}

function linkTo(tabId: number, frameId: number): Link | null {
  const key = `${tabId}:${frameId}`;
  const open = links.get(key);
  if (open) return open;
  let port: chrome.runtime.Port;
  try {
    port = chrome.tabs.connect(tabId, { frameId, name: CONTENT_PORT });
  } catch {
    return null; // the old path says why
  }
  if (links.size >= MAX_LINKS) {
    for (const [k, l] of links) {
      if (l.pending.size > 0) continue;
      links.delete(k);
      l.port.disconnect();
      break;
    }
  }
  const link: Link = { port, reached: false, pending: new Map(), progress: new Map(), retired: false };
  port.onMessage.addListener((m: PortMessage) => {
    link.reached = true;
    if (m.kind === 'progress' && link.pending.has(m.id)) link.progress.set(m.id, m.progress);
    if (m.kind !== 'answer') return;
    const done = link.pending.get(m.id);
    link.pending.delete(m.id);
    link.progress.delete(m.id);
    if (link.retired && link.pending.size === 0) link.port.disconnect();
    done?.({ kind: 'answer', response: m.response });
  });
  port.onDisconnect.addListener(() => endLink(key, link, chrome.runtime.lastError?.message ?? ''));
  links.set(key, link);
  return link;
}

function askOverPort(tabId: number, frameId: number, request: ContentRequest): Promise<PortAnswer> | null {
  const link = linkTo(tabId, frameId);
  if (!link) return null;
  const id = nextRequestId++;
  return new Promise<PortAnswer>((resolve) => {
    link.pending.set(id, resolve);
    try {
      link.port.postMessage({ kind: 'request', id, request } satisfies PortMessage);
    } catch (e) {
      // Disconnected between the lookup and the post (its onDisconnect is on the way).
      link.pending.delete(id);
      if (links.get(`${tabId}:${frameId}`) === link) links.delete(`${tabId}:${frameId}`);
      resolve({ kind: 'closed', reached: false, why: e instanceof Error ? e.message : String(e) });
    }
  });
}

const closedBeforeAnswer = (): ChannelOutcome => ({
  ok: false,
  portClosed: true,
  error: errorInfo(
    'COMMUNICATION_ERROR_WITH_TARGET',
    'The page closed the channel before answering (it probably navigated).',
    'background_script',
  ),
});
const wentAway = (why: string, progress?: InputProgress, tracked = false): ChannelOutcome => ({
  ok: false,
  portClosed: true,
  error: errorInfo('COMMUNICATION_ERROR_WITH_TARGET', `The page went away while the action ran (${why}).`, 'background_script'),
  ...(progress ? { progress } : {}),
  tracked,
});

/** opts.frameId: the frame to reach (default 0, the top frame). */
export async function sendToContent(tabId: number, request: ContentRequest, opts: { frameId?: number } = {}): Promise<ChannelOutcome> {
  const frameId = opts.frameId ?? 0;
  const asked = askOverPort(tabId, frameId, request);
  const out = asked ? portOutcome(await asked) : null;
  return out ?? sendByMessage(tabId, frameId, request);
}

/** A port's answer as an outcome; null when no content script took the port (the request goes the old way). */
function portOutcome(answer: PortAnswer): ChannelOutcome | null {
  if (answer.kind === 'answer') return answer.response ? { ok: true, response: answer.response } : closedBeforeAnswer();
  // The content script had the request: its document went away before answering.
  if (answer.reached) return wentAway(answer.why || 'the document unloaded', answer.progress, true);
  // Closed before any content script took the port: it never saw the request.
  if (PORT_CLOSED.test(answer.why)) return wentAway(answer.why, undefined, true);
  return null;
}

/** One request on a one-off message channel; injects the content script when none answers. */
async function sendByMessage(tabId: number, frameId: number, request: ContentRequest): Promise<ChannelOutcome> {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const response = (await chrome.tabs.sendMessage(tabId, request, { frameId })) as RunActionResponse | undefined;
      if (!response) return closedBeforeAnswer();
      return { ok: true, response };
    } catch (e) {
      const why = e instanceof Error ? e.message : String(e);
      if (PORT_CLOSED.test(why)) return wentAway(why);
      if (attempt === 0 && NO_RECEIVER.test(why)) {
        try {
          await chrome.scripting.executeScript({ target: { tabId, frameIds: [frameId] }, files: ['content.js'] });
          // The script is there now: the request goes over its port, which also carries a typing
          // action's progress (a one-off message channel cannot say how far typing got).
          const again = askOverPort(tabId, frameId, request);
          const out = again ? portOutcome(await again) : null;
          if (out) return out;
          continue;
        } catch (injectError) {
          const injectWhy = injectError instanceof Error ? injectError.message : String(injectError);
          return {
            ok: false,
            portClosed: false,
            error: errorInfo(
              'COMMUNICATION_ERROR_WITH_TARGET',
              `The extension cannot reach this page (${injectWhy}). If the page is still loading, wait and retry; some pages block extensions entirely.`,
              'background_script',
              { tab_id: tabId },
            ),
          };
        }
      }
      return {
        ok: false,
        portClosed: false,
        error: errorInfo(
          'COMMUNICATION_ERROR_WITH_TARGET',
          `The extension could not reach the page's content script (${why}). Wait for the page to load and retry.`,
          'background_script',
          { tab_id: tabId },
        ),
      };
    }
  }
  return {
    ok: false,
    portClosed: false,
    error: errorInfo(
      'COMMUNICATION_ERROR_WITH_TARGET',
      'The content script did not start in this tab. Reload the tab and retry.',
      'background_script',
      { tab_id: tabId },
    ),
  };
}
