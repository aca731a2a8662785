// Where card numbers are drawn in this frame, for the worker to paint over in a CDP client's
// screenshot (background/cdp/capture-mask.ts). Unlike the classic screenshot (privacy.ts
// maskSecretFields, which restyles the page around its own capture), a CDP client's page must stay
// untouched: its screenshot is already taken, so this only reads. Boxes are in this frame's viewport
// (CSS px), the whole document (a full-page capture shows text below the fold); a frame also says
// which of its parent's frames it is and where its own iframes sit, so the worker can place a
// cross-origin frame's boxes in the top page (WindowProxy identity is comparable across origins).
import { CARD_BOXES_GLOBAL, type CardBox, type FrameCardBoxes } from '../../shared/card-boxes';
import { findCardRanges, mayHoldCard } from '../../shared/redaction';
import { pageShadowRoots } from '../shadow-root';
import { tabHeld } from '../unseen-watch';
import { cardTextRects, DEFAULT_PRIVACY, mayHoldCardAcross, sensitiveReason } from './privacy';

// An iframe inside a shadow root is no document-tree child: it is not in window.frames (HTML:
// "document-tree child navigables"), so neither side can name it by its index there. Its parent gives
// each such iframe a number of its own (random, above any window.frames index) and posts it to the
// frame's window; the frame says it as its index, and the parent lists the iframe's place under it.
// The frame asks for its number when its script starts, and the parent posts it when it observes the
// root (card-push.ts) and at each load of the iframe, whichever script starts last; both only while
// an agent or a CDP client holds the tab (a page sees these messages: in other tabs it must see no
// sign of us), and else at the next read of boxes (a capture). Until the frame knows its number, its
// boxes cannot be placed and the worker paints over the whole picture.
/** The message key: a number from the parent, or 'ask' from the frame. */
const SHADOW_FRAME_KEY = '__bux_card_shadow_frame';
const SHADOW_FRAME_BASE = 2 ** 20;
const shadowFrameNumbers = new WeakMap<HTMLIFrameElement, number>();
/** This frame's number from its parent, when it sits in one of the parent's shadow roots; -1 until told. */
let ownShadowNumber = -1;

function numberOf(el: HTMLIFrameElement): number {
  let n = shadowFrameNumbers.get(el);
  if (n === undefined) {
    n = SHADOW_FRAME_BASE + ((crypto.getRandomValues(new Uint32Array(1))[0] ?? 0) % 2 ** 30);
    shadowFrameNumbers.set(el, n);
  }
  return n;
}

function tell(el: HTMLIFrameElement): void {
  if (!tabHeld()) return;
  const first = !shadowFrameNumbers.has(el);
  try {
    el.contentWindow?.postMessage({ [SHADOW_FRAME_KEY]: numberOf(el) }, '*');
  } catch {
    // a frame being removed: it is asked again if it comes back
  }
  // A new document in the frame (a navigation) starts without its number.
  if (first) el.addEventListener('load', () => tell(el));
}

/** Tells each iframe directly inside this shadow root its number (card-push.ts, as it observes the root). */
export function tellShadowFrames(root: ShadowRoot): void {
  for (const el of root.querySelectorAll('iframe')) tell(el);
}

addEventListener('message', (e: MessageEvent) => {
  const v = (e.data as Record<string, unknown> | null)?.[SHADOW_FRAME_KEY];
  if (v === 'ask' && e.source) {
    for (const root of pageShadowRoots()) for (const el of root.querySelectorAll('iframe')) if (el.contentWindow === e.source) tell(el);
  } else if (typeof v === 'number' && v >= SHADOW_FRAME_BASE && e.source === window.parent && window !== window.top) ownShadowNumber = v;
});

function indexInParent(): number {
  if (window === window.top) return -1;
  try {
    const siblings = window.parent.frames;
    for (let i = 0; i < siblings.length; i++) if (siblings[i] === window) return i;
  } catch {
    // a parent that went away: not placeable
  }
  return ownShadowNumber;
}

/** This frame's index for its parent, asking for a number when it has none yet (placed from the next read on). */
function index(): number {
  const i = indexInParent();
  if (i < 0) askNumber();
  return i;
}

/** A frame inside one of its parent's shadow roots asks for its number (only while the tab is held). */
function askNumber(): void {
  if (window === window.top || ownShadowNumber >= 0 || !tabHeld() || indexInParent() >= 0) return;
  try {
    window.parent.postMessage({ [SHADOW_FRAME_KEY]: 'ask' }, '*');
  } catch {
    // a parent that went away
  }
}
askNumber();

/** Where a child frame's viewport starts in this frame's: inside its owner's border and padding. */
function originIn(owner: HTMLIFrameElement | HTMLFrameElement): { x: number; y: number } {
  const r = owner.getBoundingClientRect();
  const cs = getComputedStyle(owner);
  return {
    x: r.left + owner.clientLeft + parseFloat(cs.paddingLeft || '0'),
    y: r.top + owner.clientTop + parseFloat(cs.paddingTop || '0'),
  };
}

/** Each child frame's origin: those in window.frames by their index, those inside shadow roots (shadowFrames) by their number. */
function childOrigins(shadowFrames: readonly HTMLIFrameElement[]): FrameCardBoxes['children'] {
  const out: FrameCardBoxes['children'] = [];
  if (window.frames.length > 0) {
    const owners = [...document.querySelectorAll<HTMLIFrameElement | HTMLFrameElement>('iframe, frame')];
    for (let i = 0; i < window.frames.length; i++) {
      const owner = owners.find((f) => f.contentWindow === window.frames[i]);
      if (owner) out.push({ index: i, ...originIn(owner) });
    }
  }
  for (const el of shadowFrames) {
    if (!shadowFrameNumbers.has(el)) tell(el);
    out.push({ index: numberOf(el), ...originIn(el) });
  }
  return out;
}

/** Input types whose value is text a page script could set to a card number (a checkbox's or a date's cannot hold one). */
const NOT_TEXT = new Set(['checkbox', 'radio', 'button', 'submit', 'reset', 'image', 'file', 'hidden', 'color', 'range', 'date', 'time']);

/** A field whose value a page script could set to a card number (a textarea, or an input of a text type). */
export const isTextField = (el: HTMLInputElement | HTMLTextAreaElement): boolean =>
  el instanceof HTMLTextAreaElement || !NOT_TEXT.has(el.type);

/**
 * The card numbers drawn in this frame: field values and page text, as the privacy filter finds them,
 * in the light DOM and in every shadow root (open, closed, nested: a web component's field or text
 * is drawn like any other). fieldsOnly: the field values alone (a frame whose text the worker knows
 * holds no card number: any text that may bring one is reported by card-push.ts as it arrives, a
 * value set by script is not). roots: the frame's shadow roots (shadow-root.ts pageShadowRoots).
 */
export function frameCardBoxes(fieldsOnly = false, roots: readonly ShadowRoot[] = pageShadowRoots()): FrameCardBoxes {
  const boxes: CardBox[] = [];
  let cardField = false;
  let textFields = false;
  const shadowFrames: HTMLIFrameElement[] = [];
  for (const scope of [document, ...roots])
    for (const el of scope.querySelectorAll<HTMLInputElement | HTMLTextAreaElement | HTMLIFrameElement>(
      scope === document ? 'input, textarea' : 'input, textarea, iframe',
    )) {
      if (el instanceof HTMLIFrameElement) {
        shadowFrames.push(el);
        continue;
      }
      textFields ||= isTextField(el);
      const value = el.value;
      const isCard = sensitiveReason(el, DEFAULT_PRIVACY) === 'payment_card';
      cardField ||= isCard;
      if (value.length < 13 || (el instanceof HTMLInputElement && el.type === 'password')) continue;
      const ranges = findCardRanges(value, isCard);
      if (ranges.length === 0) continue;
      const r = el.getBoundingClientRect();
      if (r.width > 0 && r.height > 0)
        boxes.push({ x: r.left, y: r.top, w: r.width, h: r.height, cards: ranges.map(([s, e]) => value.slice(s, e)) });
    }
  // The walk over every text node only when the page's text may hold one (13 digits close together):
  // textContent joins the text without layout, so a page full of numbers costs little; with whitespace
  // collapsed as the walk does, it never misses a card (it joins more than is shown, never less). A
  // shadow root's text is not in its host's textContent: each root is asked on its own, and a number
  // split across a root's boundary (its own text and slotted light-DOM text) as drawn.
  const mayHold = (n: Node | null) => mayHoldCard((n?.textContent ?? '').replace(/\s+/g, ' '));
  if (!fieldsOnly && (mayHold(document.body) || roots.some(mayHold) || mayHoldCardAcross(roots)))
    for (const { rect, text } of cardTextRects(false, roots))
      boxes.push({ x: rect.left, y: rect.top, w: rect.width, h: rect.height, cards: [text] });
  return {
    boxes,
    index: index(),
    children: boxes.length > 0 || window.frames.length > 0 || shadowFrames.length > 0 ? childOrigins(shadowFrames) : [],
    scrollX,
    scrollY,
    width: innerWidth,
    height: innerHeight,
    cardField,
    textFields,
  };
}

// Called by background/cdp/capture-mask.ts through chrome.scripting.executeScript in the frames that
// may draw a card (card-push.ts tells the worker which).
(globalThis as Record<string, unknown>)[CARD_BOXES_GLOBAL] = frameCardBoxes;
