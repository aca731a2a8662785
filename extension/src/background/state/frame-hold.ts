// The last kept answer each frame sent, so an unchanged frame crosses from its content script as
// "same as last" (shared/frame-snapshot.ts FrameSame) and a changed one as edits to it
// (shared/frame-patch.ts) instead of whole: Chrome's messaging copies
// a whole frame per request (~95 ms for Wikipedia's 1.75 MB state, bench/results/hops.md) while
// the content script's kept answer costs a few ms (content/snapshot/walk-cache.ts).
//
// Why it cannot give a wrong frame: the content script answers "same" only when the answer it would
// send is the kept frame whose random kept_id the request names, with nothing but the fresh fields
// differing; the frame held here under that id is a copy of that very frame as it arrived. Anything
// unsure sends the whole frame: nothing held (a restarted worker, other parameters, a frame not
// asked before), another document, the agent's hold ended (the content script dropped its kept
// answers), dom_tree states (never kept). Memory only, bounded; dropped when the frame commits a
// new document or the tab closes (state-cache.ts).
import type { GetStateParams } from '../../../../schemas/generated/protocol';
import { applyPatch, type FramePatch } from '../../shared/frame-patch';
import { type FrameElement, type FrameSame, type FrameSnapshot, FRESH_FIELDS, isNewPositions } from '../../shared/frame-snapshot';

/** Frames held at once (a tab's frames x the parameters of one agent step, over a few tabs). */
const MAX_HELD = 48;
/** Listed elements held in all (a whole-page frame of a large table holds ~20k). */
const MAX_ELEMENTS = 150_000;

interface Held {
  documentId: string | undefined;
  /** The frame as last given (its elements' is_new as `isNew` lists them). */
  frame: FrameSnapshot;
  isNew: string;
}

/** key (tab, frame, parameters) -> the frame; Map order = least recently used first. */
const held = new Map<string, Held>();

declare global {
  // A global the tests and the bench read through DevTools.
  var __browserUseExtFrameHold: HoldCounters | undefined;
}

/**
 * Read by tests and the bench through DevTools (the page cannot reach the worker): how many frames
 * came whole and how many as "same as last"; forget() simulates a worker that lost what it held.
 */
interface HoldCounters {
  whole: number;
  same: number;
  /** Came as edits to the held answer (shared/frame-patch.ts). */
  patched: number;
  /** Child frames asked which iframe they sit under (fetch.ts: not asked again while their document is the same). */
  tokens_asked: number;
  forget: () => void;
}

/** Also counted by fetch.ts (tokens_asked). */
export const holdCounters: HoldCounters = { whole: 0, same: 0, patched: 0, tokens_asked: 0, forget: () => held.clear() };
const counters = holdCounters;
globalThis.__browserUseExtFrameHold = counters;

const keyOf = (tabId: number, frameId: number, params: GetStateParams, topViewport?: { width: number; height: number }) =>
  `${tabId}|${frameId}|${stableJson(params)}|${topViewport ? `${topViewport.width}x${topViewport.height}` : ''}`;

/** get_state parameters as a key: the same parameters in any key order give the same string (also fetch.ts). */
export function stableJson(p: GetStateParams): string {
  const o = p as Record<string, unknown>;
  return JSON.stringify(
    Object.keys(o)
      .sort()
      .map((k) => [k, o[k]]),
  );
}

/** The kept_id to name in a snapshot request for this frame, or undefined (then the frame comes whole). */
export function heldIdFor(
  tabId: number,
  frameId: number,
  params: GetStateParams,
  documentId: string | undefined,
  topViewport?: { width: number; height: number },
): string | undefined {
  if (params.include_dom_tree === true) return undefined;
  const h = held.get(keyOf(tabId, frameId, params, topViewport));
  if (!h) return undefined;
  // Another document in that frame (both known): its content script keeps other answers anyway.
  if (documentId !== undefined && h.documentId !== undefined && documentId !== h.documentId) return undefined;
  return h.frame.kept_id;
}

/**
 * A whole frame that arrived: held when the content script keeps it (kept_id), as a copy of what
 * arrived, before the worker writes into it (fetch.ts puts the child frame ids into `frames`).
 */
export function holdFrame(
  tabId: number,
  frameId: number,
  params: GetStateParams,
  documentId: string | undefined,
  snap: FrameSnapshot,
  topViewport?: { width: number; height: number },
): void {
  counters.whole++;
  // A frame the content script does not keep (a cold probe, dom_tree, no agent holds the tab)
  // leaves what is held as it is: the held id names the content script's kept answer or nothing.
  if (snap.kept_id === undefined || params.include_dom_tree === true) return;
  store(keyOf(tabId, frameId, params, topViewport), documentId, snap);
}

function store(key: string, documentId: string | undefined, snap: FrameSnapshot): void {
  held.delete(key);
  held.set(key, {
    documentId,
    frame: { ...snap, frames: snap.frames.map((f) => ({ ...f })) },
    isNew: isNewPositions(snap.elements).join(','),
  });
  while (held.size > MAX_HELD) held.delete(held.keys().next().value as string);
  let total = 0;
  for (const h of held.values()) total += h.frame.elements.length;
  for (const [k, h] of held) {
    if (total <= MAX_ELEMENTS || k === key) break;
    total -= h.frame.elements.length;
    held.delete(k);
  }
}

/**
 * The whole frame a "same as last" answer stands for: the held frame with the fresh fields of this
 * answer, or null when the held frame is gone (then ask again without `held`).
 */
export function rebuildFrame(
  tabId: number,
  frameId: number,
  params: GetStateParams,
  same: FrameSame,
  topViewport?: { width: number; height: number },
): FrameSnapshot | null {
  const key = keyOf(tabId, frameId, params, topViewport);
  const h = held.get(key);
  if (h?.frame.kept_id !== same.kept_id) return null;
  counters.same++;
  held.delete(key);
  held.set(key, h);
  // is_new as this answer says it (the walk's elements otherwise); the same flags give the same
  // array back, so an unchanged tab stitches to its last stitch (stitch-memo.ts).
  const isNew = same.is_new.join(',');
  if (isNew !== h.isNew) {
    const marked = new Set(same.is_new);
    const elements = h.frame.elements.map((e, i): FrameElement => {
      const now = marked.has(i);
      if ((e.is_new === true) === now) return e;
      if (now) return { ...e, is_new: true };
      const { is_new: _, ...rest } = e;
      return rest;
    });
    h.frame = { ...h.frame, elements };
    h.isNew = isNew;
  }
  const out: FrameSnapshot = { ...h.frame, frames: h.frame.frames.map((f) => ({ ...f })) };
  const loose = out as unknown as Record<string, unknown>;
  for (const f of FRESH_FIELDS) delete loose[f];
  return Object.assign(out, same.fresh);
}

/**
 * The whole frame an answer sent as edits stands for (shared/frame-patch.ts), held in place of the
 * answer it was made from; or null when the held answer is gone or the edits do not fit it (then
 * ask again without `held`).
 */
export function patchHeldFrame(
  tabId: number,
  frameId: number,
  params: GetStateParams,
  documentId: string | undefined,
  patch: FramePatch,
  topViewport?: { width: number; height: number },
): FrameSnapshot | null {
  const key = keyOf(tabId, frameId, params, topViewport);
  const h = held.get(key);
  if (h?.frame.kept_id !== patch.base || patch.frame.kept_id === undefined) return null;
  const snap = applyPatch(h.frame, patch);
  if (!snap) return null;
  counters.patched++;
  store(key, documentId, snap);
  return snap;
}

/** A frame committed a new document: what it held is of the old one. */
export function forgetHeldFrame(tabId: number, frameId: number): void {
  const prefix = `${tabId}|${frameId}|`;
  for (const k of [...held.keys()]) if (k.startsWith(prefix)) held.delete(k);
}

/** A tab closed. */
export function forgetHeldTab(tabId: number): void {
  const prefix = `${tabId}|`;
  for (const k of [...held.keys()]) if (k.startsWith(prefix)) held.delete(k);
}
