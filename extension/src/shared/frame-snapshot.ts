// What one frame's content script answers to a snapshot request (chrome.runtime messaging, never
// the wire). The worker stitches the frames of a tab into one SimplifiedState (background/state/):
// it numbers `index` across frames, prefixes element ids with their frame and splices each child
// frame's items in at its iframe's place. Field types come from the generated protocol types.
import type { ActionableElement, DomNode, Point, Size, TextItem } from '../../../schemas/generated/protocol';

/**
 * A listed element before stitching: local ref id, no index yet; parent_pos = position of the nearest listed ancestor in this frame's
 * `elements`.
 */
export type FrameElement = Omit<ActionableElement, 'index' | 'parent_index' | 'frame_id'> & { parent_pos?: number };

export type FrameText = Omit<TextItem, 'after_index' | 'frame_id'>;

/** An iframe element met during the walk; its document is snapshotted separately by frame id. */
export interface FrameChild {
  /** chrome frame id of the iframe's document; -1 until the worker matched the token. */
  frame_id: number;
  /** Random token posted to the iframe's window; the child frame reports it back (see snapshot/index.ts). */
  token?: string;
  /** The iframe's src (resolved), to name a child frame that never answered the token probe. */
  src?: string;
  /** Position of the iframe's content box in this frame's viewport (add to the child's bounds). */
  offset: Point;
  status: 'ok' | 'hidden' | 'outside_scope';
  /** Element position in `elements` of the nearest listed ancestor (for parent_index of the child's top elements). */
  parent_pos?: number;
}

export interface FrameSnapshot {
  url: string;
  title: string;
  elements: FrameElement[];
  texts: FrameText[];
  frames: FrameChild[];
  /** Document order of all items: one char each, 'e' element, 't' text, 'f' frame (consumed in order from the three arrays). */
  order: string;
  /** Pruned DOM tree in browser_use's form (state.dom_tree), only when asked: <body> for the top
   * frame, <html> for child frames. An iframe node to stitch carries frame_id = -(k+1) for frames[k] until the worker puts the real id. */
  tree?: DomNode;
  scroll: Point;
  viewport: Size;
  page_size: Size;
  /** The focused element of this document, when this document has focus and it is not an iframe. */
  focused: { tag: string; pos?: number; name?: string } | null;
  /** Interactive elements in scope that max_elements cut. */
  elements_omitted: number;
  text_cut: boolean;
  walk_ms: number;
  /** Child frames: the token this document last got from its parent's walk (the worker matches it to the parent's iframe placeholder). */
  parent_token?: string;
  /**
   * The content script keeps this answer (content/snapshot/walk-cache.ts) under this random id, new
   * with each walk (a kept answer given again differs from it only in the fresh fields and is_new);
   * absent when nothing is kept (a cold walk, dom_tree, no agent
   * holds the tab). The worker holds the frame under it and names it in its next request, so an
   * unchanged frame crosses as "same as last" (FrameSame) instead of whole.
   */
  kept_id?: string;
}

/**
 * The fields a kept answer reads fresh each time it is given (walk-cache.ts reuse, and the parent
 * token the content script adds); every other field of an answer with the same kept_id is the kept
 * frame's own, unchanged (the content script checks that before it answers "same").
 */
export const FRESH_FIELDS = ['url', 'title', 'scroll', 'page_size', 'walk_ms', 'parent_token'] as const;
export type FrameFresh = Partial<Pick<FrameSnapshot, (typeof FRESH_FIELDS)[number]>>;

/**
 * A frame's answer when it is the kept answer the worker already holds (SnapshotRequest.held): only
 * its id and the fresh fields cross; the worker rebuilds the whole frame from what it holds
 * (background/state/frame-hold.ts). Why: Chrome's messaging copies a whole frame per hop (~95 ms for
 * Wikipedia's 1.75 MB state, bench/results/hops.md) while the kept walk itself costs a few ms.
 */
export interface FrameSame {
  kept_id: string;
  fresh: FrameFresh;
  /**
   * Positions in `elements` marked is_new in this answer. A kept answer's elements are the walk's
   * own but for is_new, which compares with the document's previous state (another scope in
   * between, or the walk's own list once asked again): the frame stays "same as last" with it.
   */
  is_new: number[];
}

/** Positions in `elements` marked is_new (FrameSame.is_new). */
export function isNewPositions(elements: readonly FrameElement[]): number[] {
  const out: number[] = [];
  for (let i = 0; i < elements.length; i++) if (elements[i]?.is_new === true) out.push(i);
  return out;
}
