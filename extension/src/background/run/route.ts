// Element ids across frames. On the wire an element id names its frame ("f7e3"; top-frame ids have
// no prefix, "e12"), an index target goes through the tab's last index map, and each frame's
// content script knows only its own local refs ("e3"). route() picks the frame that runs a page
// action and makes its targets frame-local; globalIds() puts the frame back on the ids a subframe
// answers with.
import type { ErrorInfo } from '../../../../schemas/generated/protocol';
import { errorInfo } from '../../../../schemas/lib/errors';
import { formatElementId, parseElementId } from '../../shared/element-ref';
import { elementIdForIndex } from '../state/collect';

const WS = 'background_script' as const;

/** Which frame runs a page-side action, and the params it gets (element ids made frame-local). */
export async function route(
  tabId: number,
  params: unknown,
): Promise<{ ok: true; frameId: number; params: unknown } | { ok: false; error: ErrorInfo }> {
  const p = (typeof params === 'object' && params !== null ? params : {}) as Record<string, unknown>;
  const source = await localTarget(tabId, p);
  if (!source.ok) return source;
  const frameId = source.frameId ?? 0;
  const out = source.params;
  // drag_and_drop's nested `to` target: same translation, and it must live in the source's frame
  // (one content script runs the whole drag; its points are that frame's viewport coordinates).
  if (typeof p['to'] === 'object' && p['to'] !== null) {
    const to = await localTarget(tabId, p['to'] as Record<string, unknown>);
    if (!to.ok) return to;
    const toFrame = to.frameId ?? 0;
    if (toFrame !== frameId) {
      return {
        ok: false,
        error: errorInfo(
          'INVALID_MESSAGE',
          `drag_and_drop cannot drag between frames: the source is in ${frameLabel(frameId)} and "to" in ${frameLabel(toFrame)}. Both ends must be in one frame; pick a source and destination from the same frame (their ids share the "f<frame>" prefix), or use from_point/to_point in the top frame.`,
          WS,
          { reason: 'cross_frame', from_frame_id: frameId, to_frame_id: toFrame },
        ),
      };
    }
    out['to'] = to.params;
  }
  return { ok: true, frameId, params: out };
}

const frameLabel = (frameId: number) => (frameId === 0 ? 'the top frame' : `frame ${frameId}`);

/** One target's element_id/index made frame-local; frameId undefined when the target names no frame (role, selector, points). */
async function localTarget(
  tabId: number,
  p: Record<string, unknown>,
): Promise<{ ok: true; frameId: number | undefined; params: Record<string, unknown> } | { ok: false; error: ErrorInfo }> {
  const index = typeof p['index'] === 'number' ? p['index'] : undefined;
  const rest = { ...p };
  if (index !== undefined) delete rest['index'];
  const elementId =
    index !== undefined ? await elementIdForIndex(tabId, index) : typeof p['element_id'] === 'string' ? p['element_id'] : undefined;
  if (index === undefined && elementId === undefined) return { ok: true, frameId: undefined, params: rest };
  // null: the index is not in the tab's latest state.
  const parsed = typeof elementId === 'string' ? parseElementId(elementId) : null;
  if (!parsed) return { ok: false, error: notFound(tabId, elementId === null ? index : undefined, elementId) };
  return { ok: true, frameId: parsed.frameId, params: { ...rest, element_id: parsed.local } };
}

/** A target that names no element: an index the tab's latest state does not have, or a string that is not an element id. */
function notFound(tabId: number, index: number | undefined, elementId: string | null | undefined): ErrorInfo {
  return index !== undefined
    ? errorInfo(
        'TARGET_ELEMENT_NOT_FOUND',
        `Index ${index} is not in the latest state of tab ${tabId}. Take a new state (get_state) and use an index from it.`,
        WS,
        { index, tab_id: tabId, reason: 'unknown' },
      )
    : errorInfo(
        'TARGET_ELEMENT_NOT_FOUND',
        `"${String(elementId)}" is not an element id (they look like "e12", or "f7e3" inside a frame). Take a new state (get_state) and use an id from it.`,
        WS,
        { element_id: elementId, reason: 'unknown' },
      );
}

/**
 * A subframe's content script answers with its local refs ("e3"); on the wire they are "f<frame>e3"
 * (element ids name their frame). Re-prefixes element_id fields in a result or error details (also in candidates and
 * covering_element) and the same ids where the message mentions them.
 */
export function globalIds<T extends { message?: string }>(frameId: number, obj: T, fields: Record<string, unknown> | undefined): void {
  if (frameId === 0 || !fields) return;
  const seen = new Map<string, string>();
  const fix = (holder: Record<string, unknown>) => {
    const id = holder['element_id'];
    if (typeof id !== 'string') return;
    const parsed = parseElementId(id);
    if (!parsed || id.startsWith('f')) return;
    const global = formatElementId(frameId, parsed.local);
    holder['element_id'] = global;
    seen.set(id, global);
  };
  fix(fields);
  const candidates = fields['candidates'];
  if (Array.isArray(candidates)) for (const c of candidates) if (typeof c === 'object' && c !== null) fix(c as Record<string, unknown>);
  const cover = fields['covering_element'];
  if (typeof cover === 'object' && cover !== null) fix(cover as Record<string, unknown>);
  if (seen.size && typeof obj.message === 'string') obj.message = obj.message.replace(/(?<![\w-])e\d+\b/g, (m) => seen.get(m) ?? m);
}
