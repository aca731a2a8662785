// Page-side snapshot of one frame (get_state's elements and text). The walk lives in ./walk, the rules it applies in
// ./classify (interactivity, type, operations, states), ./roles (HTML-AAM), ./accname (accname 1.2),
// ./privacy (redaction); xpaths (browser_use form) are built in ./walk. The worker stitches frames together.
import type { GetStateParams } from '../../../../schemas/generated/protocol';
import type { FrameSnapshot } from '../../shared/frame-snapshot';
import type { RunActionResponse, SnapshotRequest } from '../../shared/internal-messages';
import type { RefRegistry } from '../refs';
import { keepingState, onKeepStateOff } from '../unseen-watch';
import { withSheetFactsPinned } from './sheet-facts';
import { FRAME_TOKEN_KEY, Walker, type WalkMemory } from './walk';
import { WalkCache } from './walk-cache';

export { shadowRootOf } from '../shadow-root';
export { accessibleName } from './accname';
export { roleOf } from './roles';
export { deepActiveElement, isVisible } from './walk';

// is_new compares with the previous snapshot of the same document; one memory per registry (one
// registry per document), kept outside the registry so its public API stays resolve/refFor.
const memories = new WeakMap<RefRegistry, WalkMemory>();
/** The last walks' answers, given again while the page cannot have changed (walk-cache.ts). */
const caches = new WeakMap<RefRegistry, WalkCache>();
/** The same caches, to drop them all when the agent's hold of the tab ends. */
const live = new Set<WalkCache>();
onKeepStateOff(dropKeptStates);

function dropKeptStates(): void {
  for (const c of live) c.drop();
  live.clear();
}

function memoryOf(refs: RefRegistry): WalkMemory {
  let memory = memories.get(refs);
  if (!memory) {
    memory = { previous: null };
    memories.set(refs, memory);
  }
  return memory;
}

/**
 * A peeked answer's listed elements (SnapshotRequest.peek): the document's previous state once the
 * worker says the state used it (peek_outcome), else forgotten. One per document: the worker tells
 * the outcome with its next request to this frame.
 */
const peeked = new WeakMap<RefRegistry, WalkMemory['previous']>();

export function takeFrameSnapshot(
  refs: RefRegistry,
  params: GetStateParams = {},
  topViewport?: { width: number; height: number },
): FrameSnapshot {
  const memory = memoryOf(refs);
  if (!keepingState()) {
    // No agent holds the tab: nothing is kept or watched, every state is a fresh walk.
    if (live.size > 0) dropKeptStates();
    const walker = new Walker(refs, memory, params, topViewport);
    return withSheetFactsPinned(() => walker.run(window === window.top));
  }
  let cache = caches.get(refs);
  if (!cache || !live.has(cache)) {
    caches.set(refs, (cache = new WalkCache()));
    live.add(cache);
  }
  const m = memory;
  return cache.snapshot(params, m, () => {
    const walker = new Walker(refs, m, params, topViewport);
    return { frame: withSheetFactsPinned(() => walker.run(window === window.top)), walker };
  });
}

/** One of our actions is about to act on this document: whatever it does, the next state walks again. */
export function pageActed(refs: RefRegistry): void {
  caches.get(refs)?.invalidate();
}

// Frame matching: during its walk a parent frame posts a random token to each iframe's window; this
// frame keeps the last one its parent sent, and tells the worker on request (token_probe), so the
// worker learns which chrome frame id sits under which iframe element.
let parentToken: string | null = null;
const tokenWaiters = new Set<() => void>();
if (window !== window.top) {
  window.addEventListener('message', (e: MessageEvent) => {
    if (e.source !== window.parent) return;
    const t = (e.data as Record<string, unknown> | null)?.[FRAME_TOKEN_KEY];
    if (typeof t !== 'string') return;
    parentToken = t;
    for (const w of tokenWaiters) w();
  });
}

/** Below the worker's probe budget (background/state/frame-budget.ts TOKEN_WAIT_MS): a frame the parent posted no token says so in time. */
const TOKEN_WAIT_MS = 200;

async function tokenFor(expected: string[], capMs = TOKEN_WAIT_MS): Promise<string | null> {
  if (parentToken && expected.includes(parentToken)) return parentToken;
  return new Promise((resolve) => {
    const done = () => {
      if (parentToken && expected.includes(parentToken)) finish(parentToken);
    };
    const finish = (v: string | null) => {
      tokenWaiters.delete(done);
      clearTimeout(timer);
      resolve(v);
    };
    const timer = setTimeout(() => finish(null), capMs);
    tokenWaiters.add(done);
  });
}

/** Answers a snapshot request of the worker: a token probe, or this frame's snapshot. */
export async function answerSnapshot(refs: RefRegistry, req: SnapshotRequest): Promise<RunActionResponse> {
  if (req.token_probe) return { ok: true, message: 'Frame token.', result: { token: await tokenFor(req.token_probe) } };
  const memory = memoryOf(refs);
  if (peeked.has(refs)) {
    // The last peek's outcome: used, its list is the previous state the agent saw; left out (or not
    // told: a restarted worker), the previous state stays the one before it.
    if (req.peek_outcome === 'used') memory.previous = peeked.get(refs) ?? null;
    peeked.delete(refs);
  }
  const previous = memory.previous;
  const frame = takeFrameSnapshot(refs, req.params, req.top_viewport);
  if (req.peek) {
    peeked.set(refs, memory.previous);
    memory.previous = previous;
  }
  if (parentToken !== null) frame.parent_token = parentToken;
  // The worker holds this very answer (the kept one, by its id): only what reads fresh crosses.
  const cache = req.held !== undefined ? caches.get(refs) : undefined;
  const same = req.held !== undefined ? cache?.sameAs(req.held, frame) : undefined;
  if (same) return { ok: true, message: 'State taken (same as last).', result: {}, same };
  // Changed since: what the walk left as it was crosses as references to the held answer.
  const patch = req.held !== undefined ? cache?.patchFrom(req.held, frame) : undefined;
  if (patch) return { ok: true, message: 'State taken (edits to the last).', result: {}, patch };
  // Sent as the object itself: Chrome's messaging serializes it to JSON once (and the worker gets it
  // parsed). A JSON string made here first was serialized a second time, every quote escaped, and
  // parsed twice: on the saved news page (0.5 MB) the walk's end -> the worker holding the parsed
  // snapshot took ~20 ms that way, ~14 ms as an object (same run, alternating, load average 10).
  return { ok: true, message: 'State taken.', result: {}, frame };
}
