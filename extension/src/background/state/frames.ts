// Asks one frame of a tab for its snapshot, and where a frame sits on the page. The top frame's
// content script walks its document and reports each iframe it meets as a placeholder carrying a
// token; a child frame tells which placeholder it sits under by answering that token (the token
// probe). Every request has a time cap (frame-budget.ts); a frame that still owes an earlier answer
// is not waited for again (frame-liveness.ts).
import type { ErrorInfo, GetStateParams } from '../../../../schemas/generated/protocol';
import type { FrameSnapshot } from '../../shared/frame-snapshot';
import { CONTENT_CHANNEL } from '../../shared/internal-messages';
import { sendToContent } from '../connection/content-channel';
import { type LeftOutReason, PROBE_BUDGET_MS, SNAPSHOT_BUDGET_MS } from './frame-budget';
import { heldIdFor, holdFrame, patchHeldFrame, rebuildFrame } from './frame-hold';
import { overdueFor, trackRequest } from './frame-liveness';
import { peekSent, takePeekOutcome } from './frame-peek';

export const MAX_FRAME_DEPTH = 8;
/** The top frame is the state itself: it gets the whole action time (a page busy loading). */
const TOP_FRAME_CAP_MS = 60_000;

export type FrameAnswer =
  { ok: true; snap: FrameSnapshot } | { ok: false; why: string; reason: LeftOutReason; waited: number; error?: ErrorInfo };

export async function snapshotFrame(
  tabId: number,
  frameId: number,
  params: GetStateParams,
  topViewport?: { width: number; height: number },
  documentId?: string,
  /** Asked ahead of need: the state may not use it (frame-peek.ts). */
  peek = false,
): Promise<FrameAnswer> {
  const t0 = performance.now();
  // A child frame that still owes an earlier request (frame-liveness.ts) is not waited for again.
  const owed = frameId === 0 ? null : overdueFor(tabId, frameId, documentId);
  if (owed !== null) return { ok: false, why: overdueWhy(owed), reason: 'timeout', waited: 0 };
  const capMs = frameId === 0 ? TOP_FRAME_CAP_MS : SNAPSHOT_BUDGET_MS;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const capped = new Promise<FrameAnswer>((resolve) => {
    timer = setTimeout(
      () => resolve({ ok: false, why: `no answer within ${capMs} ms (still loading?)`, reason: 'timeout', waited: capMs }),
      capMs,
    );
  });
  // Right after a navigation commits, the new document's content script may not be reachable yet
  // (the old one is gone, injection into the new one races its creation): retry the top frame briefly.
  const send = async (useHeld = true) => {
    const held = useHeld ? heldIdFor(tabId, frameId, params, documentId, topViewport) : undefined;
    const outcome = frameId === 0 ? undefined : takePeekOutcome(tabId, frameId);
    if (peek) peekSent(tabId, frameId);
    const req = {
      channel: CONTENT_CHANNEL,
      kind: 'snapshot',
      params,
      ...(topViewport ? { top_viewport: topViewport } : {}),
      ...(held !== undefined ? { held } : {}),
      ...(peek ? { peek: true as const } : {}),
      ...(outcome !== undefined ? { peek_outcome: outcome } : {}),
    } as const;
    let sent = await sendToContent(tabId, req, { frameId });
    for (
      let attempt = 0;
      frameId === 0 && !sent.ok && sent.error.error_code === 'COMMUNICATION_ERROR_WITH_TARGET' && attempt < 3;
      attempt++
    ) {
      await new Promise((r) => setTimeout(r, 100));
      sent = await sendToContent(tabId, req, { frameId });
    }
    return sent;
  };
  // "Same as last" or edits to it (frame-hold.ts): the frame is rebuilt from the held copy; were that
  // copy gone meanwhile, the frame is asked again whole.
  const sendWhole = async () => {
    const sent = await send();
    if (!sent.ok || !sent.response.ok) return sent;
    const r = sent.response;
    if (!r.same && !r.patch) return sent;
    const snap = r.same
      ? rebuildFrame(tabId, frameId, params, r.same, topViewport)
      : r.patch
        ? patchHeldFrame(tabId, frameId, params, documentId, r.patch, topViewport)
        : null;
    return snap ? { ...sent, response: { ...r, frame: snap } } : send(false);
  };
  const asked = (frameId === 0 ? sendWhole() : trackRequest(tabId, frameId, documentId, sendWhole())).then((sent): FrameAnswer => {
    const waited = Math.round(performance.now() - t0);
    if (!sent.ok) return { ok: false, why: sent.error.message, reason: 'not_scriptable', waited, error: sent.error };
    if (!sent.response.ok)
      return { ok: false, why: sent.response.error.message, reason: 'not_scriptable', waited, error: sent.response.error };
    const r = sent.response;
    const snap = r.frame;
    if (!snap) return { ok: false, why: 'the content script answered without a snapshot', reason: 'not_scriptable', waited };
    // A rebuilt frame is held already (the same one, or the patched one in place of its base).
    if (!r.same && !r.patch) holdFrame(tabId, frameId, params, documentId, snap, topViewport);
    return { ok: true, snap };
  });
  try {
    return await Promise.race([asked, capped]);
  } finally {
    clearTimeout(timer);
  }
}

/** A child frame left out of the state: why, and how long the state waited for it. */
export interface LeftOut {
  frameId: number;
  failed: string;
  reason?: LeftOutReason;
  waited?: number;
  /** For the message: the budget that ran out, or Chrome's refusal. */
  detail?: string;
  url?: string;
}

/** A frame's snapshot with its child frames' snapshots (aligned with snap.frames), fetched recursively. */
export interface FrameNode {
  frameId: number;
  parentFrameId: number | null;
  snap: FrameSnapshot;
  children: (FrameNode | LeftOut)[];
}

export interface WebFrame {
  frameId: number;
  parentFrameId: number;
  url: string;
  documentId?: string;
}

/** The left-out detail of a frame that still owes an earlier request (see frame-liveness.ts). */
export const overdueWhy = (ms: number) => `${PROBE_BUDGET_MS} ms, and it has not answered a request sent ${(ms / 1000).toFixed(1)} s ago`;

/** The token a child frame got from its parent's walk; null when it has none of them, 'error' when it could not be asked. */
export async function askToken(tabId: number, frameId: number, tokens: string[]): Promise<string | null | 'error'> {
  const sent = await sendToContent(tabId, { channel: CONTENT_CHANNEL, kind: 'snapshot', params: {}, token_probe: tokens }, { frameId });
  if (!sent.ok || !sent.response.ok) return 'error';
  const t = sent.response.result['token'];
  return typeof t === 'string' ? t : null;
}

/** askToken with a cap (frameOffset: one child, one chain). */
async function probeToken(tabId: number, frameId: number, tokens: string[]): Promise<string | null> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const capped = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), PROBE_BUDGET_MS);
  });
  try {
    const t = await Promise.race([askToken(tabId, frameId, tokens), capped]);
    return t === 'error' ? null : t;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Where frame `frameId`'s viewport sits in the tab's top-level viewport, now (trusted pointer input
 * in a subframe: the page side gives a frame-local point). Asks each ancestor frame for its iframes'
 * offsets and matches the child by the token its parent's walk posted (as collectState does); null
 * when a frame on the way does not answer.
 */
export async function frameOffset(tabId: number, frameId: number): Promise<{ x: number; y: number } | null> {
  if (frameId === 0) return { x: 0, y: 0 };
  const webFrames: WebFrame[] = (await chrome.webNavigation?.getAllFrames({ tabId }).catch(() => null)) ?? [];
  const chain: number[] = [];
  for (let f = frameId; f !== 0;) {
    const w = webFrames.find((x) => x.frameId === f);
    if (!w || chain.length > MAX_FRAME_DEPTH) return null;
    chain.unshift(f);
    f = w.parentFrameId;
  }
  let parent = 0;
  const offset = { x: 0, y: 0 };
  for (const child of chain) {
    const answer = await snapshotFrame(tabId, parent, { viewport_expansion: -1 });
    if (!answer.ok) return null;
    const tokens = answer.snap.frames.flatMap((f) => (f.token ? [f.token] : []));
    const token = tokens.length ? await probeToken(tabId, child, tokens) : null;
    const ph = token ? answer.snap.frames.find((f) => f.token === token) : undefined;
    if (!ph) return null;
    offset.x += ph.offset.x;
    offset.y += ph.offset.y;
    parent = child;
  }
  return offset;
}
