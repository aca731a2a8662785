// What a frame's content script tells the worker about the card numbers it draws, so the worker can
// paint over them in a CDP client's screenshot (content/snapshot/card-boxes.ts answers,
// background/cdp/capture-mask.ts asks through chrome.scripting in every frame).

export interface CardBox {
  x: number;
  y: number;
  w: number;
  h: number;
  /** The card text the box covers (the worker spares what the client itself typed). */
  cards: string[];
}

export interface FrameCardBoxes {
  /** In this frame's viewport, CSS px, the whole document (not only what is on screen). */
  boxes: CardBox[];
  /**
   * This frame's index in its parent's window.frames, or, for a frame inside one of its parent's
   * shadow roots (not in window.frames), the number its parent gave it (content/snapshot/card-boxes.ts);
   * -1 for the top frame (or when not found).
   */
  index: number;
  /** Each child frame's content origin in this frame's viewport, by its index (as the child's own `index` says it). */
  children: { index: number; x: number; y: number }[];
  scrollX: number;
  scrollY: number;
  width: number;
  height: number;
  /** A field classified as a card number is in this frame (empty or not): a page script may fill it without an event. */
  cardField: boolean;
  /**
   * A field that can hold a card number's digits (a text-like input, a textarea) is in this frame: a
   * page script may set its value to one without any event, so its values are read at each capture.
   */
  textFields: boolean;
}

/** The content script's global the worker calls (chrome.scripting shares the isolated world). */
export const CARD_BOXES_GLOBAL = '__buxCardBoxes';

/** The colour of the boxes drawn over card numbers in screenshots (the classic one and a CDP client's). */
export const CARD_MASK_COLOR = '#5f6368';

/** The channel of a frame's card note (content/snapshot/card-push.ts -> background/cdp/card-frames.ts). */
export const CARD_CHANNEL = 'bux-card';

/**
 * Frame -> worker: this frame draws a card number or holds a card field (watch), or no longer does.
 * pending: a change that may bring one was seen and its boxes are not read yet (sent at once, before
 * the read): the worker reads this frame on its next capture either way.
 */
export interface CardFrameNote {
  channel: typeof CARD_CHANNEL;
  watch: boolean;
  /** The frame holds a field that can hold a card number (FrameCardBoxes.textFields): its field values are read at capture. */
  fields: boolean;
  pending: boolean;
  boxes: FrameCardBoxes | null;
}

export function isCardFrameNote(m: unknown): m is CardFrameNote {
  return typeof m === 'object' && m !== null && (m as { channel?: unknown }).channel === CARD_CHANNEL;
}
