// Assembles the simplified_state of a tab from every frame, through iframes and shadow DOM: the
// top frame's content script walks its document and reports each iframe it meets as a placeholder
// carrying the iframe's chrome frame id (chrome.runtime.getFrameId); the worker snapshots those
// frames (in parallel, each with a time cap), splices their items in at the iframe's place, numbers
// `index` across frames (1-based, one sequence for the tab), prefixes element ids with their
// frame, shifts bounds by the iframe offsets, and remembers the index -> element_id map of the tab in
// chrome.storage.session (the worker is disposable).
import type {
  ActionableElement,
  DomElementNode,
  DomNode,
  ErrorInfo,
  FrameInfo,
  GetStateParams,
  SimplifiedState,
  TextItem,
  Truncation,
} from '../../../../schemas/generated/protocol';
import { errorInfo } from '../../../../schemas/lib/errors';
import { formatElementId } from '../../shared/element-ref';
import type { FrameChild, FrameSnapshot } from '../../shared/frame-snapshot';
import { CONTENT_CHANNEL } from '../../shared/internal-messages';
import { sendToContent } from '../connection/content-channel';
import { leftOutMessage, type LeftOutReason, PROBE_BUDGET_MS, SNAPSHOT_BUDGET_MS } from './frame-budget';
import { forgetTabRequests, knownNoScript, markNoScript, overdueFor, trackRequest } from './frame-liveness';

export type StateOutcome = { ok: true; state: SimplifiedState } | { ok: false; error: ErrorInfo };

const MAX_FRAME_DEPTH = 8;
const DEFAULT_MAX_ELEMENTS = 1500;
/** The top frame is the state itself: it gets the whole action time (a page busy loading). */
const TOP_FRAME_CAP_MS = 60_000;

type FrameAnswer = { ok: true; snap: FrameSnapshot } | { ok: false; why: string; reason: LeftOutReason; waited: number; error?: ErrorInfo };

async function snapshotFrame(
  tabId: number,
  frameId: number,
  params: GetStateParams,
  topViewport?: { width: number; height: number },
  documentId?: string,
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
  const send = async () => {
    const req = { channel: CONTENT_CHANNEL, kind: 'snapshot', params, ...(topViewport ? { top_viewport: topViewport } : {}) } as const;
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
  const asked = (frameId === 0 ? send() : trackRequest(tabId, frameId, documentId, send())).then((sent): FrameAnswer => {
    const waited = Math.round(performance.now() - t0);
    if (!sent.ok) return { ok: false, why: sent.error.message, reason: 'not_scriptable', waited, error: sent.error };
    if (!sent.response.ok)
      return { ok: false, why: sent.response.error.message, reason: 'not_scriptable', waited, error: sent.response.error };
    const r = sent.response;
    const snap = r.frame;
    if (!snap) return { ok: false, why: 'the content script answered without a snapshot', reason: 'not_scriptable', waited };
    return { ok: true, snap };
  });
  try {
    return await Promise.race([asked, capped]);
  } finally {
    clearTimeout(timer);
  }
}

/** A child frame left out of the state: why, and how long the state waited for it. */
interface LeftOut {
  frameId: number;
  failed: string;
  reason?: LeftOutReason;
  waited?: number;
  /** For the message: the budget that ran out, or Chrome's refusal. */
  detail?: string;
  url?: string;
}

/** A frame's snapshot with its child frames' snapshots (aligned with snap.frames), fetched recursively. */
interface FrameNode {
  frameId: number;
  parentFrameId: number | null;
  snap: FrameSnapshot;
  children: (FrameNode | LeftOut)[];
}

interface WebFrame {
  frameId: number;
  parentFrameId: number;
  url: string;
  documentId?: string;
}

/** The left-out detail of a frame that still owes an earlier request (see frame-liveness.ts). */
const overdueWhy = (ms: number) => `${PROBE_BUDGET_MS} ms, and it has not answered a request sent ${(ms / 1000).toFixed(1)} s ago`;

/** The token a child frame got from its parent's walk; null when it has none of them, 'error' when it could not be asked. */
async function askToken(tabId: number, frameId: number, tokens: string[]): Promise<string | null | 'error'> {
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
 * Liveness of every child frame, asked (a ping the content script answers at once) while the top
 * frame walks, so the wait for dead frames overlaps the walk instead of following it. A promise
 * settles when the frame answered, or when it could not (no content script and none can be
 * injected: Chrome's refusal is an answer too; one that has none yet gets it injected first, as any
 * request on the channel does); a frame that has not by the liveness deadline is silent.
 */
interface Liveness {
  /** true once the frame's content script answered; false when none could (no script, none injectable, the document went away). */
  pings: Map<number, Promise<boolean>>;
  /** Frames not pinged because an earlier request to them is still unanswered past the budget: frame id -> ms it has been owed. */
  overdue: Map<number, number>;
  /** Whole-page states: each child frame's snapshot, asked as soon as it answered the ping (see prefetchFrames). */
  prefetched: Map<number, Promise<FrameAnswer>>;
}

function pingFrames(tabId: number, frames: WebFrame[]): Liveness {
  const out: Liveness = { pings: new Map(), overdue: new Map(), prefetched: new Map() };
  const now = performance.now();
  for (const f of frames) {
    if (f.frameId === 0) continue;
    const owed = overdueFor(tabId, f.frameId, f.documentId, now);
    if (owed !== null) {
      out.overdue.set(f.frameId, owed);
      continue;
    }
    // Found without a content script, and nothing since says it may have one (frame-liveness.ts).
    if (knownNoScript(tabId, f.frameId, f.documentId)) {
      out.pings.set(f.frameId, Promise.resolve(false));
      continue;
    }
    // Over the frame's port (content-channel.ts), as the snapshot request that follows it: a
    // one-off chrome.tabs.sendMessage opens and closes a message channel through the browser
    // process per frame, and on the saved news page (20 ad frames) those pings alone cost the
    // browser process ~8 ms of CPU per state and the whole state ~9 ms (p50 57 -> 48 ms, same run).
    // The ping goes first on the port, so the content script answers it before it starts a walk.
    const ping = sendToContent(tabId, { channel: CONTENT_CHANNEL, kind: 'ping' }, { frameId: f.frameId });
    out.pings.set(
      f.frameId,
      trackRequest(tabId, f.frameId, f.documentId, ping).then(
        (sent) => {
          const answered = sent.ok && sent.response.ok;
          if (!answered) markNoScript(tabId, f.frameId, f.documentId);
          return answered;
        },
        () => false,
      ),
    );
  }
  return out;
}

/**
 * Whole page: every pinged child frame's snapshot is asked together with the ping, while the top
 * frame (and each parent) still walks. Cross-site frames run in their own renderer processes, so
 * their walks overlap the top frame's instead of following it level by level (a slot frame, its
 * safeframe, its creative: three walks and three round trips in a row). The request does not wait
 * for the ping's answer: that was one more round trip per frame through a renderer that is often
 * busy (the eight ad slots of the news pages share one), and the snapshot request is tracked and
 * capped like the ping (a frame that never answers is left out by the ping's silence, as before).
 * The request is the one fetchTree would send once the frame is matched to its iframe; a frame
 * that turns out hidden or unmatched is simply not used. Viewport states do not prefetch: most
 * frames there are outside the scope and need no walk at all. dom_tree states neither: a child's
 * tree needs the top frame's viewport.
 */
function prefetchFrames(tabId: number, frames: WebFrame[], live: Liveness, params: GetStateParams): void {
  for (const f of frames) {
    if (!live.pings.has(f.frameId) || knownNoScript(tabId, f.frameId, f.documentId)) continue;
    live.prefetched.set(f.frameId, snapshotFrame(tabId, f.frameId, params, undefined, f.documentId));
  }
}

/**
 * Which child frame sits under which iframe placeholder: every child frame that answered the
 * liveness ping is asked for the token its parent's walk posted it, in parallel. The wait ends as
 * soon as every wanted placeholder is matched or known dead (children outside the scope got no
 * token and would only say so after the content script's 200 ms token wait), once every child answered or fell
 * silent, or after PROBE_BUDGET_MS. Silent: no answer to the ping by `silentAt` (the state's start
 * + PROBE_BUDGET_MS, or now when the walk took longer): still loading, or stuck in a script.
 */
async function matchChildren(
  tabId: number,
  kids: WebFrame[],
  wanted: FrameChild[],
  live: Liveness,
  silentAt: number,
): Promise<{ byToken: Map<string, number>; silent: WebFrame[]; refused: WebFrame[] }> {
  const tokens = wanted.map((f) => f.token as string);
  const byToken = new Map<string, number>();
  const done = new Set<number>();
  const pinged = new Set<number>();
  const silent: WebFrame[] = [];
  const refused: WebFrame[] = [];
  if (kids.length === 0 || tokens.length === 0) return { byToken, silent, refused };
  // A wanted iframe is accounted for once a child frame answered its token, or once the child
  // frame at its src fell silent or was refused: no answer can come for it then, so the wait does
  // not run on for the frames outside the scope (they answer "no token" only after 200 ms).
  const unaccounted = new Map<string, number>();
  for (const f of wanted) if (f.src) unaccounted.set(f.src, (unaccounted.get(f.src) ?? 0) + 1);
  const srcOfToken = new Map(wanted.map((f) => [f.token as string, f.src]));
  let accounted = 0;
  const account = (src: string | undefined) => {
    const n = src === undefined ? undefined : unaccounted.get(src);
    if (src === undefined || n === undefined || n <= 0) return false;
    unaccounted.set(src, n - 1);
    return true;
  };
  await new Promise<void>((resolve) => {
    let pending = kids.length;
    const timers: ReturnType<typeof setTimeout>[] = [];
    const finish = () => {
      for (const t of timers) clearTimeout(t);
      resolve();
    };
    /** token: the wanted placeholder it answered for; 'dead': silent or refused; null: answered "not mine". */
    const settle = (k: WebFrame, outcome: string | 'dead' | null) => {
      if (done.has(k.frameId)) return;
      done.add(k.frameId);
      if (outcome === 'dead') {
        if (account(k.url)) accounted++;
      } else if (outcome !== null) account(srcOfToken.get(outcome));
      if (--pending === 0 || byToken.size + accounted >= tokens.length) finish();
    };
    // A frame whose snapshot was prefetched answers the token question after that walk (one
    // document answers in order): it answered the ping, so it gets the snapshot budget, as it
    // would have for the snapshot asked after its token.
    const prefetching = kids.some((k) => live.prefetched.has(k.frameId));
    timers.push(setTimeout(finish, prefetching ? SNAPSHOT_BUDGET_MS : PROBE_BUDGET_MS));
    // Known unresponsive (an earlier request is still unanswered): silent now, without waiting.
    for (const k of kids) {
      if (!live.overdue.has(k.frameId)) continue;
      silent.push(k);
      settle(k, 'dead');
    }
    if (done.size === kids.length) return;
    timers.push(
      setTimeout(
        () => {
          for (const k of kids) {
            if (pinged.has(k.frameId) || done.has(k.frameId)) continue;
            silent.push(k);
            settle(k, 'dead');
          }
        },
        Math.max(0, silentAt - performance.now()),
      ),
    );
    for (const k of kids) {
      if (live.overdue.has(k.frameId)) continue;
      const alive = live.pings.get(k.frameId) ?? Promise.resolve(true);
      void alive.then(async (answered) => {
        if (done.has(k.frameId)) return; // declared silent before it answered
        pinged.add(k.frameId);
        // No content script answered the ping (a document still loading has only the document_start
        // one, which does not take requests): the snapshot and the token question would get the
        // same refusal, one after the other (news-ads: ~5 ms of every state's critical path).
        if (!answered) {
          refused.push(k);
          settle(k, 'dead');
          return;
        }
        const pre = await live.prefetched.get(k.frameId);
        if (done.has(k.frameId)) return;
        // The token the frame reported with its snapshot (a parent's earlier walk posted it; see
        // walk.ts frameTokenOf): no need to ask again.
        const known = pre?.ok ? pre.snap.parent_token : undefined;
        if (known !== undefined && tokens.includes(known) && !byToken.has(known)) {
          byToken.set(known, k.frameId);
          settle(k, known);
          return;
        }
        const t = await askToken(tabId, k.frameId, tokens);
        if (done.has(k.frameId)) return;
        if (t === 'error') {
          refused.push(k);
          settle(k, 'dead');
        } else if (t !== null && !byToken.has(t)) {
          byToken.set(t, k.frameId);
          settle(k, t);
        } else settle(k, null);
      });
    }
  });
  // Not answered at all by the end: counted as silent too.
  for (const k of kids) if (!done.has(k.frameId) && !silent.includes(k)) silent.push(k);
  return { byToken, silent, refused };
}

async function fetchTree(
  tabId: number,
  frameId: number,
  parentFrameId: number | null,
  snap: FrameSnapshot,
  params: GetStateParams,
  depth: number,
  webFrames: WebFrame[],
  live: Liveness,
  silentAt: number,
  topViewport: { width: number; height: number } = snap.viewport,
): Promise<FrameNode> {
  const wanted = snap.frames.filter((f) => f.status === 'ok' && f.token);
  let silent: WebFrame[] = [];
  let refused: WebFrame[] = [];
  const probeStart = performance.now();
  if (wanted.length > 0 && depth < MAX_FRAME_DEPTH) {
    const kids = webFrames.filter((w) => w.parentFrameId === frameId);
    const m = await matchChildren(tabId, kids, wanted, live, silentAt);
    for (const ph of wanted) {
      const fid = m.byToken.get(ph.token as string);
      if (fid !== undefined) ph.frame_id = fid;
    }
    silent = m.silent;
    refused = m.refused;
  }
  // Since the frames were first asked (the liveness ping at the state's start, for the top level).
  const probeWaited = Math.round(performance.now() - Math.min(probeStart, silentAt - PROBE_BUDGET_MS));
  // Name the child frames that did not answer: by the iframe's src, or by elimination (one left).
  const unmatched = wanted.filter((f) => f.frame_id < 0);
  const unknownKids = [...silent, ...refused];
  const kidFor = new Map<FrameChild, WebFrame>();
  for (const ph of unmatched) {
    const bySrc = ph.src ? unknownKids.filter((k) => k.url === ph.src) : [];
    const kid = bySrc.length === 1 ? bySrc[0] : unmatched.length === 1 && unknownKids.length === 1 ? unknownKids[0] : undefined;
    if (kid) kidFor.set(ph, kid);
  }
  const children = await Promise.all(
    snap.frames.map(async (f): Promise<FrameNode | LeftOut> => {
      if (f.status !== 'ok') return { frameId: f.frame_id, failed: f.status };
      if (depth >= MAX_FRAME_DEPTH)
        return { frameId: f.frame_id, failed: 'unreachable', reason: 'too_deep', waited: 0, detail: `${MAX_FRAME_DEPTH} frames` };
      if (f.frame_id < 0) {
        const kid = kidFor.get(f);
        const reason: LeftOutReason = kid
          ? silent.includes(kid)
            ? 'timeout'
            : 'not_scriptable'
          : silent.length > 0
            ? 'timeout'
            : refused.length > 0
              ? 'not_scriptable'
              : 'not_identified';
        const owed = kid ? live.overdue.get(kid.frameId) : undefined;
        if (kid && owed !== undefined)
          return { frameId: kid.frameId, failed: 'unreachable', reason, waited: 0, detail: overdueWhy(owed), url: kid.url };
        return {
          frameId: kid?.frameId ?? f.frame_id,
          failed: 'unreachable',
          reason,
          waited: probeWaited,
          ...(kid ? { url: kid.url } : {}),
        };
      }
      const web = webFrames.find((w) => w.frameId === f.frame_id);
      const pre = live.prefetched.get(f.frame_id);
      let answer = pre ? await pre : undefined;
      // A prefetch refused (the frame's content script was not ready yet) is asked again; one that timed out is not waited for twice.
      if (!answer || (!answer.ok && answer.reason !== 'timeout'))
        answer = await snapshotFrame(tabId, f.frame_id, params, topViewport, web?.documentId);
      if (!answer.ok)
        return {
          frameId: f.frame_id,
          failed: 'unreachable',
          reason: answer.reason,
          waited: probeWaited + answer.waited,
          detail: answer.reason === 'timeout' ? (answer.waited === 0 ? answer.why : `${SNAPSHOT_BUDGET_MS} ms`) : answer.why,
        };
      return fetchTree(
        tabId,
        f.frame_id,
        frameId,
        answer.snap,
        params,
        depth + 1,
        webFrames,
        live,
        Math.max(silentAt, performance.now()),
        topViewport,
      );
    }),
  );
  return { frameId, parentFrameId, snap, children };
}

interface Stitch {
  elements: ActionableElement[];
  texts: TextItem[];
  frames: FrameInfo[];
  /** frameId -> local ref -> element index (1-based), for the focused element. */
  refIndex: Map<number, Map<string, number>>;
  omitted: number;
  max: number;
  scope: { all: boolean; left: number; top: number; right: number; bottom: number };
  viewport: { width: number; height: number; exp: number };
}

function intersects(b: { x: number; y: number; width: number; height: number }, s: Stitch['scope']): boolean {
  if (s.all) return true;
  return b.x + b.width >= s.left && b.x <= s.right && b.y + b.height >= s.top && b.y <= s.bottom;
}

/** Appends one frame's items (and its children's, at their iframe's place) to the stitched state. */
function stitch(node: FrameNode, offset: { x: number; y: number }, parentIndex: number | undefined, st: Stitch): void {
  const { snap, frameId } = node;
  const local = new Map<string, number>();
  st.refIndex.set(frameId, local);
  const posToIndex: (number | undefined)[] = [];
  let ei = 0;
  let ti = 0;
  let fi = 0;
  let count = 0;
  const info: FrameInfo = { frame_id: frameId, parent_frame_id: node.parentFrameId, url: snap.url, status: 'ok', element_count: 0 };
  st.frames.push(info);
  for (const kind of snap.order) {
    if (kind === 'e') {
      const pos = ei++;
      const fe = snap.elements[pos];
      if (!fe) continue;
      const { parent_pos, ...rest } = fe;
      const bounds = fe.bounds ? { ...fe.bounds, x: Math.round(fe.bounds.x + offset.x), y: Math.round(fe.bounds.y + offset.y) } : undefined;
      if (frameId !== 0 && bounds && !intersects(bounds, st.scope)) continue; // inside its frame's viewport, outside the tab's scope
      if (st.elements.length >= st.max) {
        st.omitted++;
        continue;
      }
      const index = st.elements.length + 1;
      const parent = parent_pos !== undefined ? posToIndex[parent_pos] : parentIndex;
      const el: ActionableElement = {
        ...rest,
        id: formatElementId(frameId, fe.id),
        index,
        ...(frameId !== 0 ? { frame_id: frameId } : {}),
      };
      if (bounds) {
        el.bounds = bounds;
        if (frameId !== 0) {
          const v = st.viewport;
          const e0 = Math.max(v.exp, 0);
          el.is_in_viewport =
            bounds.x + bounds.width >= -e0 && bounds.x <= v.width + e0 && bounds.y + bounds.height >= -e0 && bounds.y <= v.height + e0;
        }
      }
      if (parent !== undefined) el.parent_index = parent;
      posToIndex[pos] = index;
      local.set(fe.id, index);
      st.elements.push(el);
      count++;
    } else if (kind === 't') {
      const t = snap.texts[ti++];
      if (!t) continue;
      st.texts.push({ ...t, after_index: st.elements.length, ...(frameId !== 0 ? { frame_id: frameId } : {}) });
    } else if (kind === 'f') {
      const ph = snap.frames[fi];
      const child = node.children[fi];
      fi++;
      if (!ph) continue;
      if (ph.status !== 'ok' || !child || 'failed' in child) {
        const left = child && 'failed' in child ? child : undefined;
        const failed = left ? left.failed : ph.status;
        const status: FrameInfo['status'] = failed === 'hidden' ? 'hidden' : failed === 'outside_scope' ? 'outside_scope' : 'unreachable';
        const reason: LeftOutReason = left?.reason ?? 'not_identified';
        st.frames.push({
          frame_id: left?.frameId ?? ph.frame_id,
          parent_frame_id: frameId,
          url: left?.url ?? '',
          status,
          element_count: 0,
          ...(status === 'unreachable' ? { reason, waited_ms: left?.waited ?? 0 } : {}),
          message:
            status === 'unreachable'
              ? leftOutMessage(reason, left?.detail)
              : status === 'hidden'
                ? 'The iframe is not rendered.'
                : 'The iframe lies outside the requested scope; scroll to it or pass a larger viewport_expansion.',
        });
        continue;
      }
      const parentIdx = ph.parent_pos !== undefined ? posToIndex[ph.parent_pos] : parentIndex;
      stitch(child, { x: offset.x + ph.offset.x, y: offset.y + ph.offset.y }, parentIdx, st);
    }
  }
  info.element_count = count;
}

/**
 * Splices child frame trees under their iframe (dom_tree, browser_use's tree) and numbers highlight_index
 * as browser_use's buildDomTree.js does: one 0-based counter in document order, an iframe's
 * elements right after the elements before that iframe. Element ids get their frame prefix.
 * `highlights` collects, per frame, the tab-wide index of each local highlight (local order), for
 * the numbered boxes of a screenshot.
 */
function stitchTree(root: FrameNode, highlights: Map<number, number[]>): DomNode | undefined {
  let counter = 0;
  const one = (node: FrameNode): DomNode | undefined => {
    const tree = node.snap.tree;
    if (!tree) return undefined;
    const local: number[] = [];
    highlights.set(node.frameId, local);
    const walk = (n: DomNode): void => {
      if (n.kind !== 'element') return;
      const e = n as DomElementNode;
      if (e.highlight_index !== undefined && e.element_id !== undefined) {
        local[e.highlight_index] = counter;
        e.highlight_index = counter++;
        e.element_id = formatElementId(node.frameId, e.element_id);
      }
      if (e.frame_id !== undefined) {
        // Iframe nodes carry frame_id = -(k+1) for snap.frames[k] until here.
        const child = node.children[-e.frame_id - 1];
        const sub = child && !('failed' in child) ? one(child) : undefined;
        if (child && sub) {
          e.children = [sub];
          e.frame_id = child.frameId;
        } else delete e.frame_id;
        return;
      }
      for (const c of e.children) walk(c);
    };
    walk(tree);
    for (let i = 0; i < local.length; i++) if (local[i] === undefined) local[i] = -1;
    return tree;
  };
  return one(root);
}

/** Per tab: frame id -> tab-wide index of each local highlight of the latest dom_tree (see stitchTree). */
const latestHighlights = new Map<number, Map<number, number[]>>();

/**
 * The numbered boxes to draw for a screenshot of this tab: frame id -> indexes in the frame's local order; null when no dom_tree state was
 * taken.
 */
export function highlightsOf(tabId: number): Map<number, number[]> | null {
  return latestHighlights.get(tabId) ?? null;
}

const round = (n: number) => Math.round(n * 10) / 10;
const INDEX_KEY = (tabId: number) => `state_index_${tabId}`;
const latestIndex = new Map<number, string[]>();
/** What this worker last wrote to storage.session per tab (the write is skipped when unchanged). */
const persistedIndex = new Map<number, { url: string; ids: string[] }>();
const sameIds = (a: string[], b: string[]) => a.length === b.length && a.every((x, i) => x === b[i]);

/**
 * topSnapshot: the top frame's snapshot when the caller already has it (the page-side action's reply
 * carries one taken right after the action); a page without iframes then costs no further request.
 */
export async function collectState(tabId: number, params: GetStateParams = {}, topSnapshot?: FrameSnapshot): Promise<StateOutcome> {
  const started = performance.now();
  const noFrames = topSnapshot !== undefined && topSnapshot.frames.length === 0;
  const allFrames: Promise<WebFrame[] | null> = noFrames
    ? Promise.resolve([])
    : (chrome.webNavigation?.getAllFrames({ tabId }).catch(() => null) ?? Promise.resolve(null));
  // Child frames are pinged while the top frame walks (see pingFrames); none when the page has none.
  const prefetch = params.viewport_expansion === -1 && params.include_dom_tree !== true;
  const live: Promise<Liveness> = allFrames.then((fs) => {
    const l = pingFrames(tabId, fs ?? []);
    if (prefetch) prefetchFrames(tabId, fs ?? [], l, params);
    return l;
  });
  const top: FrameAnswer = topSnapshot ? { ok: true, snap: topSnapshot } : await snapshotFrame(tabId, 0, params);
  const topAt = performance.now();
  if (!top.ok) {
    return {
      ok: false,
      error:
        top.error ??
        errorInfo(
          'COMMUNICATION_ERROR_WITH_TARGET',
          `The page did not give its state (${top.why}). Wait for the page to load and retry.`,
          'background_script',
          { tab_id: tabId },
        ),
    };
  }
  const webFrames = (await allFrames) ?? [];
  const tree = await fetchTree(tabId, 0, null, top.snap, params, 1, webFrames, await live, started + PROBE_BUDGET_MS);
  const fetched = performance.now();
  const snap = top.snap;
  const exp = params.viewport_expansion ?? 0;
  const vw = snap.viewport.width;
  const vh = snap.viewport.height;
  const st: Stitch = {
    elements: [],
    texts: [],
    frames: [],
    refIndex: new Map(),
    omitted: 0,
    max: params.max_elements ?? DEFAULT_MAX_ELEMENTS,
    scope:
      exp === -1
        ? { all: true, left: 0, top: 0, right: 0, bottom: 0 }
        : { all: false, left: -exp, top: -exp, right: vw + exp, bottom: vh + exp },
    viewport: { width: vw, height: vh, exp },
  };
  stitch(tree, { x: 0, y: 0 }, undefined, st);
  // URLs of frames that did not answer, from webNavigation (every frame of the tab, whatever its origin).
  const known = new Map(webFrames.map((f) => [f.frameId, f]));
  for (const f of st.frames) {
    const k = known.get(f.frame_id);
    if (!f.url && k) f.url = k.url;
  }
  let domTree: DomNode | undefined;
  if (params.include_dom_tree) {
    const highlights = new Map<number, number[]>();
    domTree = stitchTree(tree, highlights);
    latestHighlights.set(tabId, highlights);
  }

  // Focus: the top document's focused element, else the first frame that reports one (focus inside an iframe).
  let focused: SimplifiedState['focused_element'] = null;
  let activeId: string | null = null;
  const findFocus = (n: FrameNode): boolean => {
    const f = n.snap.focused;
    if (f) {
      const localRef = f.pos !== undefined ? n.snap.elements[f.pos]?.id : undefined;
      const id = localRef !== undefined && st.refIndex.get(n.frameId)?.has(localRef) ? formatElementId(n.frameId, localRef) : undefined;
      focused = { tag: f.tag, ...(id ? { element_id: id } : {}), ...(f.name ? { name: f.name } : {}), frame_id: n.frameId };
      activeId = id ?? null;
      return true;
    }
    return n.children.some((c) => !('failed' in c) && findFocus(c));
  };
  findFocus(tree);

  const omitted = st.omitted + countOmitted(tree);
  const textCut = anyTextCut(tree);
  let truncation: Truncation | undefined;
  if (omitted > 0 || textCut) {
    const max = st.max;
    const maxText = params.max_text_chars ?? 30000;
    const parts: string[] = [];
    if (omitted > 0)
      parts.push(
        `${omitted} more interactive element${omitted === 1 ? '' : 's'} in scope were not listed (max_elements ${max}; the first ${max} in document order are listed)`,
      );
    if (textCut) parts.push(`the visible text was cut at max_text_chars ${maxText}`);
    truncation = {
      elements_cut: omitted > 0,
      text_cut: textCut,
      max_elements: max,
      max_text_chars: maxText,
      elements_omitted: omitted,
      message: `${parts.join('; ')}. To see more: scroll and take a new state (viewport_expansion 0 shows what is on screen), or raise max_elements / max_text_chars; extract_content reads the page's text.`,
    };
  }

  const state: SimplifiedState = {
    url: snap.url,
    title: snap.title,
    tab_id: tabId,
    active_element_id: activeId,
    actionable_elements: st.elements,
    scroll_position: snap.scroll,
    viewport_dimensions: snap.viewport,
    page_size: snap.page_size,
    pixels_above: Math.max(0, Math.round(snap.scroll.y)),
    pixels_below: Math.max(0, Math.round(snap.page_size.height - snap.viewport.height - snap.scroll.y)),
    viewport_expansion: exp,
    focused_element: focused,
    text_context: st.texts,
    frames: st.frames,
    ...(truncation ? { truncation } : {}),
    ...(domTree ? { dom_tree: domTree } : {}),
    timings_ms: {
      top_frame_walk: snap.walk_ms,
      frames_fetched: round(fetched - started),
      child_frames: round(fetched - topAt),
      total: round(performance.now() - started),
    },
  };
  // The index map: in memory for this worker's life, in storage.session for the next worker. The
  // write is skipped when it would store what is stored already (a click that changed no list), and
  // otherwise made after the state has gone back: the storage call's own cost (~0.3 ms of argument
  // checks and copying in the worker, measured on the click path) is not on the answer's path.
  // Storage operations of one extension are applied in order, and the timers fire in order.
  const ids = st.elements.map((e) => e.id);
  latestIndex.set(tabId, ids);
  const stored = persistedIndex.get(tabId);
  if (!stored || stored.url !== snap.url || !sameIds(stored.ids, ids)) {
    persistedIndex.set(tabId, { url: snap.url, ids });
    setTimeout(() => void chrome.storage.session.set({ [INDEX_KEY(tabId)]: { url: snap.url, ids } }).catch(() => undefined), 0);
  }
  return { ok: true, state };
}

function countOmitted(n: FrameNode): number {
  return n.snap.elements_omitted + n.children.reduce((a, c) => a + ('failed' in c ? 0 : countOmitted(c)), 0);
}
function anyTextCut(n: FrameNode): boolean {
  return n.snap.text_cut || n.children.some((c) => !('failed' in c) && anyTextCut(c));
}

/**
 * The element id that `index` named in the tab's latest state (1-based, across frames), or null when that
 * state had no such index (or no state was taken in this tab yet).
 */
export async function elementIdForIndex(tabId: number, index: number): Promise<string | null> {
  const mem = latestIndex.get(tabId);
  if (mem) return mem[index - 1] ?? null;
  const key = INDEX_KEY(tabId);
  const got = (await chrome.storage.session.get(key))[key] as { ids?: string[] } | undefined;
  return got?.ids?.[index - 1] ?? null;
}

/** How many per-tab entries this module keeps for the tab: index map (memory, last stored), dom_tree highlights (closed-tabs.ts, tests). */
export function indexHeldFor(tabId: number): number {
  return (latestIndex.has(tabId) ? 1 : 0) + (persistedIndex.has(tabId) ? 1 : 0) + (latestHighlights.has(tabId) ? 1 : 0);
}

/** Forgets a closed tab's index map (memory and storage.session), highlights and frame requests (closed-tabs.ts). */
export async function forgetTabState(tabId: number): Promise<void> {
  latestIndex.delete(tabId);
  persistedIndex.delete(tabId);
  latestHighlights.delete(tabId);
  forgetTabRequests(tabId);
  await chrome.storage.session.remove(INDEX_KEY(tabId));
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
