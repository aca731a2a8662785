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
import { cardTextRects, DEFAULT_PRIVACY, sensitiveReason } from './privacy';

function indexInParent(): number {
  if (window === window.top) return -1;
  try {
    const siblings = window.parent.frames;
    for (let i = 0; i < siblings.length; i++) if (siblings[i] === window) return i;
  } catch {
    // a parent that went away: not placeable
  }
  return -1;
}

function childOrigins(): FrameCardBoxes['children'] {
  const out: FrameCardBoxes['children'] = [];
  if (window.frames.length === 0) return out;
  const owners = [...document.querySelectorAll('iframe, frame')] as HTMLIFrameElement[];
  for (let i = 0; i < window.frames.length; i++) {
    const owner = owners.find((f) => f.contentWindow === window.frames[i]);
    if (!owner) continue;
    const r = owner.getBoundingClientRect();
    const cs = getComputedStyle(owner);
    // The child's viewport starts inside the owner's border and padding.
    const left = r.left + owner.clientLeft + parseFloat(cs.paddingLeft || '0');
    const top = r.top + owner.clientTop + parseFloat(cs.paddingTop || '0');
    out.push({ index: i, x: left, y: top });
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
  for (const scope of [document, ...roots])
    for (const el of scope.querySelectorAll<HTMLInputElement | HTMLTextAreaElement>('input, textarea')) {
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
  // shadow root's text is not in its host's textContent: each root is asked on its own.
  const mayHold = (n: Node | null) => mayHoldCard((n?.textContent ?? '').replace(/\s+/g, ' '));
  if (!fieldsOnly && (mayHold(document.body) || roots.some(mayHold)))
    for (const { rect, text } of cardTextRects(false, roots))
      boxes.push({ x: rect.left, y: rect.top, w: rect.width, h: rect.height, cards: [text] });
  return {
    boxes,
    index: indexInParent(),
    children: boxes.length > 0 || window.frames.length > 0 ? childOrigins() : [],
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
