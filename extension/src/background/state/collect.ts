// Assembles the simplified_state of a tab from every frame, through iframes and shadow DOM: the
// top frame's content script walks its document and reports each iframe it meets as a placeholder
// carrying the iframe's chrome frame id (chrome.runtime.getFrameId); the worker snapshots those
// frames (in parallel, each with a time cap), splices their items in at the iframe's place, numbers
// `index` across frames (1-based, one sequence for the tab), prefixes element ids with their
// frame, shifts bounds by the iframe offsets, and remembers the index -> element_id map of the tab in
// chrome.storage.session (the worker is disposable).
// The jobs live beside it: frames.ts asks one frame, fetch.ts gathers the tree of frames,
// stitch.ts splices it into one state; this file puts the state together and keeps the index map.
import type { DomNode, ErrorInfo, GetStateParams, SimplifiedState, Truncation } from '../../../../schemas/generated/protocol';
import { errorInfo } from '../../../../schemas/lib/errors';
import { formatElementId } from '../../shared/element-ref';
import type { FrameSnapshot } from '../../shared/frame-snapshot';
import {
  fetchTree,
  forgetLearnedTokens,
  framesInScopeBefore,
  type Liveness,
  pingFrames,
  prefetchFrames,
  rememberFramesInScope,
} from './fetch';
import { PROBE_BUDGET_MS } from './frame-budget';
import { forgetTabRequests } from './frame-liveness';
import { forgetPeeks, peeksSettled } from './frame-peek';
import { type FrameAnswer, type FrameNode, snapshotFrame, type WebFrame } from './frames';
import { anyTextCut, countOmitted, type Stitch, stitch, stitchTree } from './stitch';
import { forgetStitches, stitchOrReuse } from './stitch-memo';

export type StateOutcome = { ok: true; state: SimplifiedState } | { ok: false; error: ErrorInfo };

const DEFAULT_MAX_ELEMENTS = 1500;

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
  const whole = params.viewport_expansion === -1;
  const prefetch = whole && params.include_dom_tree !== true;
  // Viewport states: the frames the last one fetched in scope (fetch.ts framesInScopeBefore).
  const before = !whole && params.include_dom_tree !== true ? framesInScopeBefore(tabId, params) : undefined;
  const live: Promise<Liveness> = allFrames.then((fs) => {
    const l = pingFrames(tabId, fs ?? []);
    if (prefetch) prefetchFrames(tabId, fs ?? [], l, params);
    else if (before && before.frames.size > 0)
      prefetchFrames(
        tabId,
        (fs ?? []).filter((f) => before.frames.has(f.frameId)),
        l,
        params,
        before.viewport,
      );
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
  peeksSettled(tabId);
  if (!whole && params.include_dom_tree !== true) rememberFramesInScope(tabId, params, tree);
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
  // Frames that all crossed "same as last" stitch to the last stitch (stitch-memo.ts).
  stitchOrReuse(tabId, tree, st, () => stitch(tree, { x: 0, y: 0 }, undefined, st));
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
  forgetStitches(tabId);
  forgetLearnedTokens(tabId);
  forgetPeeks(tabId);
  await chrome.storage.session.remove(INDEX_KEY(tabId));
}
