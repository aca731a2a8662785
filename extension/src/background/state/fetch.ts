// Fetches the tree of a tab's frames for one state: every child frame is pinged while the top frame
// walks, matched to its iframe placeholder by the token its parent's walk posted, and asked for its
// snapshot (in parallel, each with a time cap: "frames that do not answer never hold a state for
// more than a small, documented budget", frame-budget.ts). A frame that does not answer is left out
// with why and how long the state waited for it.
import type { GetStateParams } from '../../../../schemas/generated/protocol';
import type { FrameChild, FrameSnapshot } from '../../shared/frame-snapshot';
import { CONTENT_CHANNEL } from '../../shared/internal-messages';
import { sendToContent } from '../connection/content-channel';
import { type LeftOutReason, PROBE_BUDGET_MS, SNAPSHOT_BUDGET_MS } from './frame-budget';
import { holdCounters, stableJson } from './frame-hold';
import { knownNoScript, markNoScript, overdueFor, trackRequest } from './frame-liveness';
import { peekUsed } from './frame-peek';
import {
  askToken,
  type FrameAnswer,
  type FrameNode,
  type LeftOut,
  MAX_FRAME_DEPTH,
  overdueWhy,
  snapshotFrame,
  type WebFrame,
} from './frames';

/**
 * Liveness of every child frame, asked (a ping the content script answers at once) while the top
 * frame walks, so the wait for dead frames overlaps the walk instead of following it. A promise
 * settles when the frame answered, or when it could not (no content script and none can be
 * injected: Chrome's refusal is an answer too; one that has none yet gets it injected first, as any
 * request on the channel does); a frame that has not by the liveness deadline is silent.
 */
export interface Liveness {
  /** true once the frame's content script answered; false when none could (no script, none injectable, the document went away). */
  pings: Map<number, Promise<boolean>>;
  /** Frames not pinged because an earlier request to them is still unanswered past the budget: frame id -> ms it has been owed. */
  overdue: Map<number, number>;
  /** Each prefetched child frame's snapshot, asked with the ping (see prefetchFrames). */
  prefetched: Map<number, Promise<FrameAnswer>>;
  /** The top viewport the prefetches were asked with (viewport states; whole-page states ask without one). */
  prefetchedFor?: { width: number; height: number };
}

export function pingFrames(tabId: number, frames: WebFrame[]): Liveness {
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
 * that turns out hidden or unmatched is simply not used. Viewport states prefetch only the frames
 * their last state fetched in scope (framesInScopeBefore, with that state's top viewport): most
 * frames there are outside the scope and need no walk at all. dom_tree states do not: a child's
 * tree needs the top frame's viewport.
 */
export function prefetchFrames(
  tabId: number,
  frames: WebFrame[],
  live: Liveness,
  params: GetStateParams,
  topViewport?: { width: number; height: number },
): void {
  if (topViewport) live.prefetchedFor = topViewport;
  for (const f of frames) {
    if (!live.pings.has(f.frameId) || knownNoScript(tabId, f.frameId, f.documentId)) continue;
    if (topViewport) fetchCounters.viewport_prefetched++;
    live.prefetched.set(f.frameId, snapshotFrame(tabId, f.frameId, params, topViewport, f.documentId, true));
  }
}

declare global {
  // A global the tests read through DevTools (the page cannot reach the worker).
  var __browserUseExtFrameFetch: { viewport_prefetched: number; viewport_prefetch_used: number } | undefined;
}
/** Viewport states' child frames asked with the ping (prefetched) and how many of those answers the state used. */
const fetchCounters = { viewport_prefetched: 0, viewport_prefetch_used: 0 };
globalThis.__browserUseExtFrameFetch = fetchCounters;

/**
 * Viewport states: the child frames the tab's last state with these parameters fetched (their
 * iframes were in scope), with the top viewport they were asked with. Asked with the ping, as a
 * whole-page state asks every frame, so that on an unchanged page their kept answers come while the
 * top frame answers instead of after it, level after level (the saved news page's ad in view is a
 * slot frame, its safeframe and its creative: three round trips in a row). A frame whose iframe has
 * left the scope is asked in vain and its answer not used; a frame that came into the scope is asked
 * after the top frame, as before.
 */
const inScopeBefore = new Map<string, { frames: Set<number>; viewport: { width: number; height: number } }>();
const MAX_IN_SCOPE = 32;
const scopeKey = (tabId: number, params: GetStateParams) => `${tabId}|${stableJson(params)}`;

/** What prefetchFrames may ask for a viewport state with these parameters (undefined: nothing known). */
export function framesInScopeBefore(
  tabId: number,
  params: GetStateParams,
): { frames: Set<number>; viewport: { width: number; height: number } } | undefined {
  return inScopeBefore.get(scopeKey(tabId, params));
}

/** The child frames a viewport state fetched (collect.ts, after the state). */
export function rememberFramesInScope(tabId: number, params: GetStateParams, tree: FrameNode): void {
  const frames = new Set<number>();
  const add = (n: FrameNode): void => {
    if (n.frameId !== 0) frames.add(n.frameId);
    for (const c of n.children) if (!('failed' in c)) add(c);
  };
  add(tree);
  const key = scopeKey(tabId, params);
  inScopeBefore.delete(key);
  inScopeBefore.set(key, { frames, viewport: { ...tree.snap.viewport } });
  while (inScopeBefore.size > MAX_IN_SCOPE) inScopeBefore.delete(inScopeBefore.keys().next().value as string);
}

/**
 * The token each child document reported: a parent's walk gives each iframe element one token for
 * the element's life (walk.ts frameTokenOf), and a frame id stays with its iframe element, so while
 * the child's document is the same (documentId) its token is the same, and the next state need not
 * ask it again (one round trip per child frame through its renderer; a viewport state, which does
 * not prefetch, asked every child each time). Keyed by tab, frame and document; bounded.
 */
const learnedTokens = new Map<string, string>();
const MAX_LEARNED = 512;
const learnedKey = (tabId: number, k: WebFrame) => (k.documentId === undefined ? null : `${tabId}|${k.frameId}|${k.documentId}`);
function learnToken(tabId: number, k: WebFrame, token: string): void {
  const key = learnedKey(tabId, k);
  if (key === null) return;
  learnedTokens.delete(key);
  learnedTokens.set(key, token);
  if (learnedTokens.size > MAX_LEARNED) learnedTokens.delete(learnedTokens.keys().next().value as string);
}

/** A tab closed (collect.ts forgetTabState). */
export function forgetLearnedTokens(tabId: number): void {
  for (const k of [...learnedTokens.keys()]) if (k.startsWith(`${tabId}|`)) learnedTokens.delete(k);
  for (const k of [...inScopeBefore.keys()]) if (k.startsWith(`${tabId}|`)) inScopeBefore.delete(k);
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
    // Viewport prefetches (prefetchedFor) are matched by the learned token without waiting for the
    // walk: the match keeps the probe budget it has without them.
    const prefetching = live.prefetchedFor === undefined && kids.some((k) => live.prefetched.has(k.frameId));
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
        // The token this document reported before (learnedTokens): it is its iframe element's for
        // the element's life, and the frame id stays with that element (walk.ts frameTokenOf).
        const lk = learnedKey(tabId, k);
        const learned = lk === null ? undefined : learnedTokens.get(lk);
        // Another placeholder's, not wanted now (its iframe lies outside this state's scope): asked,
        // the frame would answer "none of these" only after its 200 ms token wait. A viewport state
        // of the saved news page asked six such frames each time, a round trip each through their
        // renderers while the state's own requests waited behind them.
        if (learned !== undefined && !tokens.includes(learned)) {
          settle(k, null);
          return;
        }
        // A prefetched snapshot is not awaited when the learned token already says where the frame
        // sits (the walk may take longer than the match may wait).
        const pre = learned === undefined || byToken.has(learned) ? await live.prefetched.get(k.frameId) : undefined;
        if (done.has(k.frameId)) return;
        // The token the frame reported with its snapshot (a parent's earlier walk posted it; see
        // walk.ts frameTokenOf): no need to ask again.
        const known = (pre?.ok ? pre.snap.parent_token : undefined) ?? learned;
        if (known !== undefined && tokens.includes(known) && !byToken.has(known)) {
          learnToken(tabId, k, known);
          byToken.set(known, k.frameId);
          settle(k, known);
          return;
        }
        holdCounters.tokens_asked++;
        const t = await askToken(tabId, k.frameId, tokens);
        if (done.has(k.frameId)) return;
        if (t === 'error') {
          refused.push(k);
          settle(k, 'dead');
        } else if (t !== null && !byToken.has(t)) {
          learnToken(tabId, k, t);
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

export async function fetchTree(
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
      // A viewport prefetch asked with another top viewport than this state's is not this state's answer.
      const sameViewport =
        !live.prefetchedFor || (live.prefetchedFor.width === topViewport.width && live.prefetchedFor.height === topViewport.height);
      const pre = sameViewport ? live.prefetched.get(f.frame_id) : undefined;
      if (pre && live.prefetchedFor) fetchCounters.viewport_prefetch_used++;
      let answer = pre ? await pre : undefined;
      if (answer?.ok) peekUsed(tabId, f.frame_id);
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
