// get what=box of an element in a subframe: the frame's content script measures it in the frame's
// own viewport, while Playwright's boundingBox (and page.mouse, which takes its numbers) use the
// top-level viewport. The frame's place on the page is added here, where the frames are known.
import type { Bounds, ErrorInfo } from '../../../../schemas/generated/protocol';
import { errorInfo } from '../../../../schemas/lib/errors';
import { frameOffset } from '../state/frames';

/** Shifts result.value (a box) by the frame's offset; an error when the frame's place is unknown. */
export async function boxInTopViewport(tabId: number, frameId: number, result: Record<string, unknown>): Promise<ErrorInfo | null> {
  const box = result['value'];
  if (frameId === 0 || typeof box !== 'object' || box === null) return null;
  const offset = await frameOffset(tabId, frameId);
  if (!offset)
    return errorInfo(
      'COMMUNICATION_ERROR_WITH_TARGET',
      `Could not find where frame ${frameId} sits on the page, so its element's box cannot be given in page coordinates. Take a new state and retry.`,
      'background_script',
      { tab_id: tabId, frame_id: frameId },
    );
  const b = box as Bounds;
  result['value'] = { ...b, x: b.x + offset.x, y: b.y + offset.y };
  return null;
}
