// Where a card number the page draws lands in a CDP client's screenshot: the frames' boxes (each in
// its own viewport, content/snapshot/card-boxes.ts) placed in the top page, then mapped to the image
// Page.captureScreenshot made. The image covers clip (CSS px of the document, scaled by clip.scale
// and the device pixel ratio) or, without one, the viewport; the scale is read off the image itself,
// so an emulated device metric or zoom needs no second guess.
// https://chromedevtools.github.io/devtools-protocol/tot/Page/#method-captureScreenshot
import type { FrameCardBoxes } from '../../shared/card-boxes';

export interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** One frame's answer, with the extension's id of the frame and of its parent (-1 for the top frame). */
export interface FrameAnswer {
  frameId: number;
  parentFrameId: number;
  boxes: FrameCardBoxes;
}

/** A box in the top page's viewport (CSS px), or null for a box that could not be placed. */
export interface Placed {
  box: Box | null;
  cards: string[];
}

/**
 * Every frame's boxes in the top page's viewport: each frame's origin is its parent's origin plus
 * where the parent draws it (the parent's children, by the frame's index in window.frames). A frame
 * whose place is unknown (its parent did not answer, the frame moved) gives null boxes: the caller
 * covers the whole image rather than show them.
 */
export function placeBoxes(frames: readonly FrameAnswer[]): Placed[] {
  const byId = new Map(frames.map((f) => [f.frameId, f]));
  const origins = new Map<number, { x: number; y: number } | null>();
  const originOf = (f: FrameAnswer, depth = 0): { x: number; y: number } | null => {
    const known = origins.get(f.frameId);
    if (known !== undefined) return known;
    let o: { x: number; y: number } | null = null;
    if (f.frameId === 0) o = { x: 0, y: 0 };
    else {
      const parent = byId.get(f.parentFrameId);
      const po = parent && depth < 32 ? originOf(parent, depth + 1) : null;
      const at = parent?.boxes.children.find((c) => c.index === f.boxes.index);
      o = po && at && f.boxes.index >= 0 ? { x: po.x + at.x, y: po.y + at.y } : null;
    }
    origins.set(f.frameId, o);
    return o;
  };
  const out: Placed[] = [];
  for (const f of frames) {
    if (f.boxes.boxes.length === 0) continue;
    const o = originOf(f);
    for (const b of f.boxes.boxes) out.push({ box: o ? { x: o.x + b.x, y: o.y + b.y, w: b.w, h: b.h } : null, cards: b.cards });
  }
  return out;
}

export interface Clip {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Extra CSS px around each box: anti-aliased glyph edges and a caret sit just outside the text's rect. */
const PAD = 2;

/**
 * The boxes (top viewport, CSS px) as integer pixel rects of the image: clip is in document
 * coordinates (the viewport's origin is at scroll), the image is width x height pixels. Rects
 * outside the image are left out.
 */
export function toImageRects(
  boxes: readonly Box[],
  view: { scrollX: number; scrollY: number; width: number; height: number },
  clip: Clip | undefined,
  image: { width: number; height: number },
): Box[] {
  const region = clip ?? { x: view.scrollX, y: view.scrollY, width: view.width, height: view.height };
  if (region.width <= 0 || region.height <= 0) return [];
  const sx = image.width / region.width;
  const sy = image.height / region.height;
  const out: Box[] = [];
  for (const b of boxes) {
    const left = Math.max(0, Math.floor((b.x - PAD + view.scrollX - region.x) * sx));
    const top = Math.max(0, Math.floor((b.y - PAD + view.scrollY - region.y) * sy));
    const right = Math.min(image.width, Math.ceil((b.x + b.w + PAD + view.scrollX - region.x) * sx));
    const bottom = Math.min(image.height, Math.ceil((b.y + b.h + PAD + view.scrollY - region.y) * sy));
    if (right > left && bottom > top) out.push({ x: left, y: top, w: right - left, h: bottom - top });
  }
  return out;
}

/** Whether any box (top viewport, CSS px) meets the captured region: when none does, the image is returned undecoded. */
export function anyInRegion(
  boxes: readonly Box[],
  view: { scrollX: number; scrollY: number; width: number; height: number },
  clip: Clip | undefined,
): boolean {
  const region = clip ?? { x: view.scrollX, y: view.scrollY, width: view.width, height: view.height };
  return boxes.some((b) => {
    const x = b.x + view.scrollX;
    const y = b.y + view.scrollY;
    return x + b.w + PAD > region.x && x - PAD < region.x + region.width && y + b.h + PAD > region.y && y - PAD < region.y + region.height;
  });
}
