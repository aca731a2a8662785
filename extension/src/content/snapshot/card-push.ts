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
//
// Shadow roots (open, closed, nested) draw cards like the light DOM, yet a MutationObserver on the
// document sees nothing inside them, and an input event from inside one reaches a document listener
// retargeted to the host (from a closed root, composedPath() hides the field too). So every root is
// observed with the same observer and gets its own input/change listeners, which see the real
// target: the roots present at start, those of added elements (nested ones too), a closed root, or
// an open one attached to an element already in the page, that the main-world hook reports as it is
// attached (shadow-watch.ts, then one walk of the page in the same task), the root of a custom
// element upgraded in place (the page defined it late: looked at again by each capture that reads
// this frame), and, as a fallback where the hook is not linked, any root a read finds. A new root with a
// text field or with 13 digits close together is a change that may bring a card. A capture reads
// the roots observed here rather than walking the page (shadow-root.ts pageShadowRoots).
// A page with web components and no card pays one element walk per added subtree, and sends nothing
// after its first note (it holds text fields: bench/results/cdp-card-shadow.md).
import { CARD_CHANNEL, type CardFrameNote } from '../../shared/card-boxes';
import { CARD_MIN_DIGITS } from '../../shared/card-shape';
import { mayHoldCard } from '../../shared/redaction';
import { setObservedShadowRoots, shadowRootOf, shadowRootsIn } from '../shadow-root';
import { onShadowAttached } from '../shadow-watch';
import { frameCardBoxes, isTextField, tellShadowFrames } from './card-boxes';
import { mayHoldCardAcross } from './privacy';

/** Attributes that can make a field hold or count as a card number. */
const FIELD_ATTRIBUTES = ['value', 'type', 'autocomplete', 'name', 'id', 'aria-label', 'placeholder'];

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
  // The fallback: a root nothing reported is observed from now on (its card, if any, is in these boxes).
  const roots = shadowRootsIn(document);
  noteUndefined(document);
  for (const root of roots) observeRoot(root);
  const boxes = frameCardBoxes(false, roots);
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
      const box = isTop(parent) ? r.target : parent;
      if (box && (mayHoldCard(joined(box)) || mayCompleteSplit(box))) return true;
    } else if (r.addedNodes.length > 0) {
      for (const n of r.addedNodes) if (n instanceof Element && (isField(n) || n.querySelector('input, textarea'))) return true;
      if (!isTop(r.target)) {
        if (mayHoldCard(joined(r.target)) || mayCompleteSplit(r.target)) return true;
      } else for (const n of r.addedNodes) if (mayHoldCard(joined(n))) return true;
    }
  }
  return false;
}

/**
 * Whether text changed in `box` may complete a card number split across a shadow boundary: the box
 * is in a shadow root (its text is drawn with slotted text) or in a host's light DOM (its text is
 * drawn in the host's root). Asked only when the box's text has a digit.
 */
function mayCompleteSplit(box: Node): boolean {
  if (!/\d/.test(box.textContent ?? '')) return false;
  const roots: ShadowRoot[] = [];
  const own = box.getRootNode();
  if (own instanceof ShadowRoot) roots.push(own);
  for (let a: Node | null = box; a && a !== own; a = a.parentNode) {
    const root = a instanceof Element ? shadowRootOf(a) : null;
    if (root) {
      roots.push(root);
      break;
    }
  }
  return roots.length > 0 && mayHoldCardAcross(roots);
}

const OBSERVED: MutationObserverInit = {
  subtree: true,
  childList: true,
  characterData: true,
  attributes: true,
  attributeFilter: FIELD_ATTRIBUTES,
};

// Added hosts' roots first: mayBringCard returns at the first record that may bring a card.
const observer = new MutationObserver((records) => {
  const rootMayBring = observeAdded(records);
  changed(mayBringCard(records) || rootMayBring);
});
/** The shadow roots observed (a root is never taken off its host). */
const observedRoots = new WeakSet<ShadowRoot>();
/** The observed roots whose host may be in the page, for a capture's field read (card-boxes.ts); pruned as it grows. */
const liveRoots = new Set<ShadowRoot>();
let prunedAt = 0;

/**
 * Custom elements not defined yet: when the page defines them, each is upgraded in place and its
 * constructor may attach a root, which no mutation reports; a capture looks at them again.
 */
const undefinedHosts = new Set<Element>();

let undefinedPrunedAt = 0;

function noteUndefined(scope: ParentNode): void {
  if (undefinedHosts.size > 2 * undefinedPrunedAt + 256) {
    for (const el of undefinedHosts) if (!el.isConnected) undefinedHosts.delete(el);
    undefinedPrunedAt = undefinedHosts.size;
  }
  if (scope instanceof Element && scope.localName.includes('-') && !scope.matches(':defined')) undefinedHosts.add(scope);
  for (const el of scope.querySelectorAll(':not(:defined)')) undefinedHosts.add(el);
}

/** The observed roots in the page now (a root whose host left and came back is observed again as it is added). */
function rootsInPage(): ShadowRoot[] {
  for (const el of undefinedHosts) {
    // A host that left is noted again if it comes back (an added node).
    if (!el.isConnected || el.matches(':defined')) undefinedHosts.delete(el);
    // Upgraded since: its constructor may have attached a root no observer saw. This capture reads
    // its fields; its text from the next one on (the note that follows makes the worker read this
    // frame whole).
    if (el.isConnected && el.matches(':defined') && observeRootsIn(el)) changed(true);
  }
  for (const root of liveRoots) if (!root.host.isConnected) liveRoots.delete(root);
  prunedAt = liveRoots.size;
  return [...liveRoots];
}

/**
 * The roots a screenshot reads (shadow-root.ts pageShadowRoots): those observed, or, while a change waits for its read
 * (which walks the page for roots nothing reported), every root of the page now: the change may have
 * brought its card in one.
 */
function rootsForCapture(): ShadowRoot[] {
  if (readTimer === undefined) return rootsInPage();
  const roots = shadowRootsIn(document);
  for (const root of roots) observeRoot(root);
  return roots;
}

/** An input or change event: a field's value typed or set, which may be a card number. */
function onInput(e: Event): void {
  // composedPath()[0]: the field itself when it is in an open shadow root (e.target is its host).
  const t = e.composedPath()[0] ?? e.target;
  if (t instanceof HTMLInputElement || t instanceof HTMLTextAreaElement) changed(t.value.length >= CARD_MIN_DIGITS);
  // A host as the target: the field is in its closed root. A root we observe has its own listener,
  // which saw the field; one nothing reported yet (the fallback) may have brought a card.
  else if (t instanceof Element && e.currentTarget === window) {
    const own = shadowRootOf(t);
    changed(own !== null && !observedRoots.has(own));
  } else changed(false);
}

const onScroll = (): void => changed(false);

/**
 * Observes a shadow root (once); true when it is new and may draw a card: a text field while the
 * worker does not read this frame's fields yet or one that holds 13 characters, or text with 13
 * digits close together. A checkbox, or an empty field in a frame whose fields the worker reads at
 * each capture, brings none (a web component's list re-rendered sends nothing).
 */
function observeRoot(root: ShadowRoot): boolean {
  liveRoots.add(root);
  if (liveRoots.size > 2 * prunedAt + 256) rootsInPage();
  if (observedRoots.has(root)) return false;
  observedRoots.add(root);
  observer.observe(root, OBSERVED);
  noteUndefined(root);
  // The root's own listeners see the real target, also in a closed root and for events that are not composed.
  root.addEventListener('input', onInput, true);
  root.addEventListener('change', onInput, true);
  root.addEventListener('scroll', onScroll, { capture: true, passive: true });
  tellShadowFrames(root);
  for (const f of root.querySelectorAll<HTMLInputElement | HTMLTextAreaElement>('input, textarea'))
    if (isTextField(f) && (!fieldsTold || f.value.length >= CARD_MIN_DIGITS)) return true;
  return mayHoldCard(joined(root)) || mayHoldCardAcross([root]);
}

/** Observes the shadow roots in and under `from`; true when one of them is new and may draw a card. */
function observeRootsIn(from: Node): boolean {
  let mayBring = false;
  for (const root of shadowRootsIn(from)) mayBring = observeRoot(root) || mayBring;
  return mayBring;
}

/** The added elements' shadow roots (nested ones too), observed before anything else is decided. */
function observeAdded(records: MutationRecord[]): boolean {
  let mayBring = false;
  for (const r of records)
    if (r.type === 'childList')
      for (const n of r.addedNodes)
        if (n instanceof Element) {
          noteUndefined(n);
          mayBring = observeRootsIn(n) || mayBring;
        }
  return mayBring;
}

let closedScan = false;

function start(): void {
  setObservedShadowRoots(rootsForCapture);
  observer.observe(document, OBSERVED);
  // A root reported as it is attached (closed, or open on an element already in the page; still
  // empty, host unknown): one walk of the page once the page's script has run (a microtask: the same
  // task, before a client could ask for a screenshot); a burst of roots in one task costs one walk.
  onShadowAttached(() => {
    if (closedScan) return;
    closedScan = true;
    queueMicrotask(() => {
      closedScan = false;
      changed(observeRootsIn(document));
    });
  });
  addEventListener('input', onInput, true);
  addEventListener('change', onInput, true);
  // A watched frame's boxes move with its scroll and size; the worker reads them again at capture.
  addEventListener('scroll', onScroll, { capture: true, passive: true });
  addEventListener('resize', () => changed(false), { passive: true });
  // The first read observes the roots already in the page.
  read();
}

start();
