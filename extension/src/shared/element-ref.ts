// Element ids on the wire carry their frame, so refs from different frames never collide and the
// service worker can route an action to the frame that owns the element.
//   top frame:  "e12"        (frameId 0)
//   subframe:   "f7e3"       (chrome frameId 7, local ref e3 in that frame's registry)
// The content script of each frame only ever sees and issues local refs ("e<N>").
export interface ParsedRef {
  frameId: number;
  local: string;
}

const REF = /^(?:f(\d+))?(e\d+)$/;

export function parseElementId(id: string): ParsedRef | null {
  const m = REF.exec(id);
  if (!m) return null;
  return { frameId: m[1] === undefined ? 0 : Number(m[1]), local: m[2] as string };
}

export function formatElementId(frameId: number, local: string): string {
  return frameId === 0 ? local : `f${frameId}${local}`;
}
