// Why: an agent asks for the state after every action and often twice in a row with nothing
// between; a whole-page walk of a large page costs tens of milliseconds (computed styles, names,
// boxes, hit tests). While nothing the last walk read can have changed (page-changes.ts says so,
// with every source of change it knows and "changed" whenever in doubt), the same walk's answer is
// given again, with what moves on its own read fresh (URL, title, scroll, page size). The answer is
// the one a new walk would give: the property test (test/e2e/state-cache.spec.ts) compares the two
// after random actions on the bench pages. A state asked with dom_tree (the browser_use shim)
// always walks: that tree draws highlights into the page.
import type { GetStateParams } from '../../../../schemas/generated/protocol';
import { type FramePatch, makePatch } from '../../shared/frame-patch';
import {
  type FrameElement,
  type FrameFresh,
  type FrameSame,
  type FrameSnapshot,
  FRESH_FIELDS,
  isNewPositions,
} from '../../shared/frame-snapshot';
import { PageChanges } from './page-changes';
import { DEFAULTS, FRAME_TOKEN_KEY, type Walker, type WalkMemory } from './walk';

declare global {
  interface Window {
    /**
     * Set in this isolated world only (by a test or the bench through DevTools; the page cannot reach
     * it): cold makes every state a fresh walk that leaves nothing behind (a probe to compare a kept
     * answer with); walks counts the fresh walks of ordinary states, why says what the last one saw.
     */
    __browserUseExtWalkCache?: Switches;
  }
}

/** Different walk parameters kept at once (the viewport state and the whole-page state of one agent step). */
const KEYS = 4;
/**
 * Kept answers remembered by id after a newer walk replaced them, to send a changed frame as edits
 * to the one the worker still holds (up to two per parameters: the kept one and the one before;
 * patchFrom forgets a replaced one once it served as a base).
 */
const BY_ID = 2 * KEYS;

interface Kept {
  frame: FrameSnapshot;
  /** The page-changes generation the walk read. */
  generation: number;
  /** The listed elements, in the order of frame.elements, and as the set is_new compares with. */
  listed: readonly Element[];
  listedSet: WeakSet<Element>;
  frameEls: readonly Element[];
  /** Viewport scope: the listed elements' boxes are checked again at each reuse. */
  boxes: boolean;
  /** The listed form controls' values as the walk read them (checked again at each reuse: see controlsStill). */
  controls: readonly Control[];
}

type Control = readonly [el: HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement, value: string, checked: boolean, index: number];

interface Switches {
  cold?: boolean;
  walks: number;
  /** Why the last ordinary state walked (null: it gave the kept answer). */
  why?: string | null;
}

function switches(): Switches {
  return (window.__browserUseExtWalkCache ??= { walks: 0 });
}

export class WalkCache {
  private readonly changes = new PageChanges();
  private readonly kept = new Map<string, Kept>();
  /** Recent kept answers by kept_id with their listed elements (the base of a patch: patchFrom). */
  private readonly byId = new Map<string, { frame: FrameSnapshot; listed: readonly Element[] }>();
  private generation = 0;

  /** The agent's hold ended: nothing kept, nothing watched. */
  drop(): void {
    this.kept.clear();
    this.byId.clear();
    this.changes.stop();
  }

  /** Something of ours acted on the page: the next state walks again. */
  invalidate(): void {
    this.changes.invalidate();
  }

  /** The kept answer for these parameters when the page cannot have changed since, else a fresh walk's (kept for next time). */
  snapshot(params: GetStateParams, memory: WalkMemory, walk: () => { frame: FrameSnapshot; walker: Walker }): FrameSnapshot {
    const start = performance.now();
    const sw = switches();
    if (sw.cold === true) {
      // A probe for tests and the bench: what a fresh walk says now, with no trace in what is kept
      // (the kept answers, the change watch, the previous state is_new compares with).
      const previous = memory.previous;
      const { frame } = walk();
      memory.previous = previous;
      return frame;
    }
    const key = params.include_dom_tree === true ? null : keyOf(params);
    const kept = key === null ? undefined : this.kept.get(key);
    const changed = this.changes.whatChanged();
    if (changed !== null) this.generation++;
    sw.why = changed ?? (!kept ? 'not kept for these parameters' : kept.generation !== this.generation ? 'kept before a change' : null);
    if (kept && sw.why === null) {
      if (!boxesStill(kept)) sw.why = 'a listed box moved';
      else if (!controlsStill(kept)) sw.why = 'a control value set out of sight';
      else return reuse(kept, memory, start);
    }
    sw.walks++;
    const { frame, walker } = walk();
    this.changes.walked(walker.rootsMet, changed !== null);
    if (key === null) return frame;
    this.kept.delete(key);
    if (this.kept.size >= KEYS) this.kept.delete(this.kept.keys().next().value as string);
    const all = (params.viewport_expansion ?? DEFAULTS.viewport_expansion) === -1;
    // The id the worker holds this answer under (frame-snapshot.ts FrameSame): new with every kept frame.
    frame.kept_id = newKeptId();
    this.byId.set(frame.kept_id, { frame, listed: walker.listedElements });
    if (this.byId.size > BY_ID) this.byId.delete(this.byId.keys().next().value as string);
    this.kept.set(key, {
      frame,
      generation: this.generation,
      listed: walker.listedElements,
      listedSet: memory.previous ?? new WeakSet(walker.listedElements),
      frameEls: walker.frameElements,
      boxes: !all,
      controls: controlsOf(walker.listedElements),
    });
    return frame;
  }

  /**
   * The "same as last" answer for `answer` (what snapshot() just returned) when it is the kept answer
   * `held` names, or null (then the whole frame goes). Only when every field but the fresh ones is
   * the kept frame's own, so the worker's copy of that frame plus these fresh fields is the answer.
   */
  sameAs(held: string, answer: FrameSnapshot): FrameSame | null {
    if (answer.kept_id !== held) return null;
    let kept: FrameSnapshot | undefined;
    for (const k of this.kept.values()) if (k.frame.kept_id === held) kept = k.frame;
    if (!kept) return null;
    const fresh = new Set<string>(FRESH_FIELDS);
    const a = answer as unknown as Record<string, unknown>;
    const b = kept as unknown as Record<string, unknown>;
    for (const key of Object.keys(a)) if (!fresh.has(key) && a[key] !== b[key]) return null;
    for (const key of Object.keys(b)) if (!fresh.has(key) && !(key in a)) return null;
    const out: FrameFresh = {};
    for (const key of FRESH_FIELDS) if (answer[key] !== undefined) Object.assign(out, { [key]: answer[key] });
    return { kept_id: held, fresh: out, is_new: isNewPositions(answer.elements) };
  }

  /**
   * `answer` (what snapshot() just returned, a kept answer) as edits to the kept answer `held` names,
   * which the worker holds (shared/frame-patch.ts); null when that one is no longer known here, or
   * when most of the frame changed (then the whole frame goes).
   */
  patchFrom(held: string, answer: FrameSnapshot): FramePatch | null {
    if (answer.kept_id === undefined || answer.kept_id === held) return null;
    const base = this.byId.get(held);
    const next = this.byId.get(answer.kept_id);
    if (!base || !next) return null;
    // The worker holds the new answer from here on (or, were this answer lost, asks without a base
    // known here and gets the whole frame): the base is not needed again unless it is still kept.
    let current = false;
    for (const k of this.kept.values()) if (k.frame.kept_id === held) current = true;
    if (!current) this.byId.delete(held);
    return makePatch(held, base.frame, base.listed, answer, next.listed);
  }
}

// getRandomValues, not randomUUID: the latter exists only in secure contexts (an http:// page's world has none).
const newKeptId = () => Array.from(crypto.getRandomValues(new Uint32Array(4)), (n) => n.toString(36)).join('-');

function keyOf(p: GetStateParams): string {
  return [
    p.viewport_expansion ?? DEFAULTS.viewport_expansion,
    p.max_elements ?? DEFAULTS.max_elements,
    p.max_text_chars ?? DEFAULTS.max_text_chars,
    p.redact_pii === true,
    p.redact_card_and_otp !== false,
  ].join('|');
}

/**
 * Viewport scope does not enter what lies outside the scope (rows, blocks, web components), so a
 * change inside one of those is not observed: the listed elements' boxes are read again and must
 * not have moved (a few dozen boxes; the layout is up to date when nothing changed).
 */
function boxesStill(k: Kept): boolean {
  if (!k.boxes) return true;
  const els = k.listed;
  for (let i = 0; i < els.length; i++) {
    const r = (els[i] as Element).getBoundingClientRect();
    const b = k.frame.elements[i]?.bounds;
    if (
      !b ||
      Math.round(r.left) !== b.x ||
      Math.round(r.top) !== b.y ||
      Math.round(r.width) !== b.width ||
      Math.round(r.height) !== b.height
    )
      return false;
  }
  return true;
}

function controlsOf(listed: readonly Element[]): Control[] {
  const out: Control[] = [];
  for (const el of listed)
    if (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement)
      out.push([el, el.value, el instanceof HTMLInputElement && el.checked, -1]);
    else if (el instanceof HTMLSelectElement) out.push([el, el.value, false, el.selectedIndex]);
  return out;
}

/**
 * The wrappers that report a value set from script (main-world/unseen-changes.ts) are installed when
 * an agent takes the tab, after the page's scripts ran: a script that kept the browser's own setter
 * before (React keeps one per input it renders) sets values no wrapper sees. So the listed controls'
 * values are compared directly (cheap: no style or layout).
 */
function controlsStill(k: Kept): boolean {
  for (const [el, value, checked, index] of k.controls) {
    if (el.value !== value) return false;
    if (el instanceof HTMLInputElement ? el.checked !== checked : el instanceof HTMLSelectElement && el.selectedIndex !== index)
      return false;
  }
  return true;
}

function reuse(k: Kept, memory: WalkMemory, start: number): FrameSnapshot {
  // is_new as a walk now would say it: against the previous state of this document, which may have
  // listed other elements (another scope); then these elements are the previous state.
  const prev = memory.previous;
  const isNew = (i: number) => prev !== null && !prev.has(k.listed[i] as Element);
  const els = k.frame.elements;
  if (els.some((e, i) => (e.is_new === true) !== isNew(i))) {
    const elements = els.map((e, i): FrameElement => {
      const now = isNew(i);
      if ((e.is_new === true) === now) return e;
      if (now) return { ...e, is_new: true };
      const { is_new: _, ...rest } = e;
      return rest;
    });
    // The same walk's answer (same kept_id): a "same as last" answer lists is_new anew (sameAs).
    k.frame = { ...k.frame, elements };
  }
  memory.previous = k.listedSet;
  // A child document that navigated starts without its token: post each again, as a walk does.
  k.frame.frames.forEach((f, i) => {
    if (!f.token) return;
    try {
      (k.frameEls[i] as HTMLIFrameElement | undefined)?.contentWindow?.postMessage({ [FRAME_TOKEN_KEY]: f.token }, '*');
    } catch {
      // a frame being torn down: its document is gone, nothing to name
    }
  });
  const doc = document;
  const de = doc.documentElement;
  return {
    ...k.frame,
    url: location.href,
    title: doc.title,
    scroll: { x: Math.round(window.scrollX), y: Math.round(window.scrollY) },
    page_size: {
      width: Math.max(de?.scrollWidth ?? 0, doc.body?.scrollWidth ?? 0),
      height: Math.max(de?.scrollHeight ?? 0, doc.body?.scrollHeight ?? 0),
    },
    walk_ms: Math.round((performance.now() - start) * 10) / 10,
  };
}
