// Page-side snapshot of one frame (issue 3). The walk lives in ./walk, the rules it applies in
// ./classify (interactivity, type, operations, states), ./roles (HTML-AAM), ./accname (accname 1.2),
// ./xpath (browser_use form) and ./privacy (redaction). The worker stitches frames together.
import type { GetStateParams } from '../../../../schemas/generated/protocol';
import type { FrameSnapshot } from '../../shared/frame-snapshot';
import type { RefRegistry } from '../refs';
import { Walker, type WalkMemory } from './walk';

export { accessibleName } from './accname';
export { roleOf } from './roles';
export { deepActiveElement, isVisible, shadowRootOf } from './walk';

// is_new compares with the previous snapshot of the same document; one memory per registry (one
// registry per document), kept outside the registry so its public API stays resolve/refFor.
const memories = new WeakMap<RefRegistry, WalkMemory>();

export function takeFrameSnapshot(refs: RefRegistry, params: GetStateParams = {}): FrameSnapshot {
  let memory = memories.get(refs);
  if (!memory) {
    memory = { previous: null };
    memories.set(refs, memory);
  }
  return new Walker(refs, memory, params).run(window === window.top);
}
