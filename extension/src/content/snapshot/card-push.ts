// Tells the worker which frames draw a card number, so a CDP client's screenshot reads card boxes
// only from those frames (background/cdp/card-frames.ts) and a page that never had one pays no
// question to its frames at all. Nothing is sent by a frame that has no card and had none.
//
// A frame watches (reports watch) while it draws a card number (field value or page text) or holds
// a field classified as a card number (autocomplete cc-number, its name or label): a page script
// may set such a field's value without any event we could see, so the worker keeps reading it.
// A frame that holds any other text field says so too (fields): a script may set that field's value
// to a card number silently as well, so the worker reads those frames' field values (not their text,
// which this script reports as it changes) at each capture: cheap, and never an unmasked value.
// A change that may bring a card into a frame that does not watch (an added field or text with 13
// digits close together, a value typed or set, an attribute that may make a field a card field) is
// sent at once as pending, from the MutationObserver's or the event's own callback: that callback
// runs in the same task as the page change (a client's Runtime.evaluate is answered only after its
// microtasks ran), so the note leaves before the client could have asked for its screenshot, and
// the worker reads this frame from then on. The boxes themselves are read one frame later
// (debounced: a burst of changes costs one read), and the note that follows says whether the frame
// keeps watching. Our own UI (agent bar, overlay) is never a card.
import { CARD_CHANNEL, type CardFrameNote } from '../../shared/card-boxes';
import { mayHoldCard } from '../../shared/redaction';
import { frameCardBoxes } from './card-boxes';

/** Attributes that can make a field hold or count as a card number. */
const FIELD_ATTRIBUTES = ['value', 'type', 'autocomplete', 'name', 'id', 'aria-label', 'placeholder'];
/** The shortest card number (shared/card-shape.ts): a shorter value holds none. */
const CARD_MIN_CHARS = 13;

let watching = false;
/** Whether the worker was told this frame holds a field that can hold a card number. */
let fieldsTold = false;
let pendingSent = false;
let readTimer: ReturnType<typeof setTimeout> | undefined;

function send(note: Omit<CardFrameNote, 'channel'>): void {
  try {
    void chrome.runtime.sendMessage({ channel: CARD_CHANNEL, ...note } satisfies CardFrameNote).catch(() => undefined);
  } catch {
    // The extension was reloaded: this script is orphaned and the new worker reads every frame on its first capture.
  }
}

/** Reads this frame's boxes and tells the worker when it watches or stopped watching. */
function read(): void {
  readTimer = undefined;
  const boxes = frameCardBoxes();
  const watch = boxes.boxes.length > 0 || boxes.cardField;
  const fields = boxes.textFields;
  if (watch || watching || pendingSent || fields !== fieldsTold) send({ watch, fields, pending: false, boxes: watch ? boxes : null });
  watching = watch;
  fieldsTold = fields;
  pendingSent = false;
}

/** A change that may bring or move a card: a note now when the worker does not read this frame yet, the read one frame later. */
function changed(mayBring: boolean): void {
  if (!watching && !mayBring) return;
  if (!watching && !pendingSent) {
    pendingSent = true;
    send({ watch: true, fields: fieldsTold, pending: true, boxes: null });
  }
  // Timers, not requestAnimationFrame: rAF does not run in background tabs.
  readTimer ??= setTimeout(read, 16);
}

function isField(n: Node): boolean {
  return n instanceof HTMLInputElement || n instanceof HTMLTextAreaElement;
}

/** Text as the snapshot's walk joins it (card-boxes.ts): whitespace collapsed, more than is shown, never less. */
const joined = (n: Node | null): string => (n?.textContent ?? '').replace(/\s+/g, ' ');

/**
 * Whether a change may show a card number: a field added or changed, or text with 13 digits close
 * together in the changed node's container (a number written in parts, spans added one by one or a
 * text node typed into, is whole there), read once per record; the whole document's text only
 * through the added nodes themselves, as reading all of it on every change would cost too much.
 */
function mayBringCard(records: MutationRecord[]): boolean {
  const isTop = (n: Node | null) => !n || n === document || n === document.documentElement || n === document.body;
  for (const r of records) {
    if (r.type === 'attributes') {
      if (isField(r.target)) return true;
    } else if (r.type === 'characterData') {
      const parent = r.target.parentNode;
      if (mayHoldCard(joined(isTop(parent) ? r.target : parent))) return true;
    } else if (r.addedNodes.length > 0) {
      for (const n of r.addedNodes) if (n instanceof Element && (isField(n) || n.querySelector('input, textarea'))) return true;
      if (!isTop(r.target)) {
        if (mayHoldCard(joined(r.target))) return true;
      } else for (const n of r.addedNodes) if (mayHoldCard(joined(n))) return true;
    }
  }
  return false;
}

function start(): void {
  new MutationObserver((records) => changed(mayBringCard(records))).observe(document, {
    subtree: true,
    childList: true,
    characterData: true,
    attributes: true,
    attributeFilter: FIELD_ATTRIBUTES,
  });
  const onInput = (e: Event) => {
    const t = e.target;
    changed((t instanceof HTMLInputElement || t instanceof HTMLTextAreaElement) && t.value.length >= CARD_MIN_CHARS);
  };
  addEventListener('input', onInput, true);
  addEventListener('change', onInput, true);
  // A watched frame's boxes move with its scroll and size; the worker reads them again at capture.
  addEventListener('scroll', () => changed(false), { capture: true, passive: true });
  addEventListener('resize', () => changed(false), { passive: true });
  read();
}

start();
