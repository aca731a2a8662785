// The privacy filter, one for the whole product. Two layers:
//   1. On the page, element-aware (this module's sensitiveReason and reading helpers), used by the
//      snapshot, get (value/attribute/html/text), extract_content and the fill/type result messages:
//        password fields: the value never leaves the page (always); a field is a password when it
//        is type=password now or ever was (password-history.ts: a "show password" button switches
//        it to text), has autocomplete current-password/new-password, or is named like one
//        (name, id, label: password, passwd, pwd);
//        payment card / one-time code / PIN fields: withheld by default (redact_card_and_otp), found
//        by autocomplete cc-* / one-time-code AND, without such hints, by the field's name, id,
//        placeholder, aria-label, label or aria-labelledby text (a short digit box also by its
//        fieldset's legend), by a value that is a card number (an issuer's prefix and length,
//        Luhn), or by being one of several boxes (a fieldset, one aria-labelledby, one name with a
//        running number) whose values together are one;
//        card numbers in page text (grouped like a card or after words naming one, so an order id
//        is left alone), also split over inline elements (<span>4242</span> <span>4242</span>),
//        in get html, the browser_use tree and screenshots (masked boxes while capturing);
//        redact_pii: e-mail addresses and phone numbers inside values and text become [email]/[phone].
//   2. In the service worker, on every message that leaves the extension (bridge-connection.ts):
//      redactText over every string (card numbers with any separator, secrets in URL queries), so
//      a card number printed as page text, a URL of a GET form, a tab list entry, an error or a
//      message is caught whatever produced it. Request bodies (api_activity) are filtered where
//      they are recorded, in the main world (main-world/hooks.ts), with the same shared/redaction.ts.
// Every redaction is reported (Redaction object or TextItem.redacted, or the visible marker), never
// a silent blank. The pure rules (card shapes, secret key names, URLs, bodies) live in
// shared/redaction.ts.
import { CARD_MASK_COLOR } from '../../shared/card-boxes';
import { CARD_MIN_DIGITS } from '../../shared/card-shape';
import { findCardRanges, isCardNumber, mayHoldCard, redactCardNumbers, redactedMarker } from '../../shared/redaction';
import { flatChildren, flatParent, shadowRootsIn } from '../shadow-root';
import { wasPassword } from './password-history';

export { isCardNumber, redactCardNumbers, redactedMarker };

export interface PrivacyOptions {
  redactPii: boolean;
  redactCardAndOtp: boolean;
}

export type SensitiveReason = 'password' | 'payment_card' | 'one_time_code';

/** Reading actions (get, extract_content, result messages) use the snapshot's defaults. */
export const DEFAULT_PRIVACY: PrivacyOptions = { redactPii: false, redactCardAndOtp: true };

// Field hints without autocomplete (what checkout and 2FA forms are actually named). Word edges are
// letters, so "pin" matches user_pin / pin-code but not spinner or pinterest.
const CARD_HINT =
  /(^|[^a-z])(card.?(number|num|no)|cc.?(num|number)|credit.?card|debit.?card|cardnumber|cvc2?|cvv2?|csc|cid|security.?code|card.?code|card.?verification)([^a-z]|$)/i;
const OTP_HINT =
  /(^|[^a-z])(otp|one.?time|verification.?code|verify.?code|2fa|mfa|totp|auth.?code|sms.?code|security.?pin|pin|pincode|pin.?code|passcode|tan)([^a-z]|$)/i;
const FIELD_TYPES_WITH_SECRETS = new Set(['text', 'tel', 'number', 'search', '']);

const PASSWORD_HINT = /(^|[^a-z])(password|passwd|pwd|passphrase)([^a-z]|$)/i;
const PASSWORD_AUTOCOMPLETE = new Set(['current-password', 'new-password']);

/** The text of the elements el's aria-labelledby names. */
function labelledByText(el: Element): string[] {
  const root = el.getRootNode() as Document | ShadowRoot;
  const out: string[] = [];
  for (const id of (el.getAttribute('aria-labelledby') ?? '').split(/\s+/).filter(Boolean)) {
    const t = root.getElementById?.(id)?.textContent;
    if (t) out.push(t);
  }
  return out;
}

/** The legends of the fieldsets around el, innermost first. */
function legendText(el: Element): string[] {
  const out: string[] = [];
  for (let fs = el.closest('fieldset'); fs; fs = fs.parentElement?.closest('fieldset') ?? null) {
    const legend = fs.querySelector(':scope > legend')?.textContent;
    if (legend) out.push(legend);
  }
  return out;
}

/** A box for a few digits: short maxlength, numeric keyboard, or digits in it. */
function isDigitBox(el: HTMLInputElement): boolean {
  return (
    (el.maxLength > 0 && el.maxLength <= 7) ||
    el.inputMode === 'numeric' ||
    el.type === 'tel' ||
    el.type === 'number' ||
    /^\d{1,7}$/.test(el.value)
  );
}

const SHORT_DIGITS = /^\d{1,7}$/;

/**
 * The boxes a card number may be split over (four 4-digit inputs): the text-like inputs that share
 * el's fieldset, its aria-labelledby, or its name without a running number (cc1..cc4, card[0]..).
 */
function fieldGroup(el: HTMLInputElement): HTMLInputElement[] {
  const root = el.getRootNode() as Document | ShadowRoot;
  const textLike = (x: Element): x is HTMLInputElement => x instanceof HTMLInputElement && FIELD_TYPES_WITH_SECRETS.has(x.type);
  const groups: HTMLInputElement[][] = [];
  const labelledBy = el.getAttribute('aria-labelledby');
  if (labelledBy) groups.push(Array.from(root.querySelectorAll(`input[aria-labelledby="${CSS.escape(labelledBy)}"]`)).filter(textLike));
  const fs = el.closest('fieldset');
  if (fs) groups.push(Array.from(fs.querySelectorAll('input')).filter(textLike));
  const stem = (el.getAttribute('name') ?? '').replace(/(\[\d*\]|[-_.]?\d+)$/, '');
  if (stem && stem !== el.getAttribute('name')) {
    const scope = el.form ?? root;
    groups.push(
      Array.from(scope.querySelectorAll('input[name]')).filter(
        (x): x is HTMLInputElement => textLike(x) && (x.getAttribute('name') ?? '').replace(/(\[\d*\]|[-_.]?\d+)$/, '') === stem,
      ),
    );
  }
  return groups.find((g) => g.length > 1 && g.length <= 8) ?? [];
}

/** Whether el is one of several short digit boxes whose values, in order, are a card number. */
function isSplitCard(el: HTMLInputElement): boolean {
  if (!SHORT_DIGITS.test(el.value)) return false;
  const group = fieldGroup(el);
  if (!group.includes(el)) return false;
  const digits = group.map((x) => x.value).filter((v) => v !== '');
  return digits.every((v) => SHORT_DIGITS.test(v)) && isCardNumber(digits.join(''));
}

/** Why this field's value must be withheld, or null. */
export function sensitiveReason(el: Element, opts: PrivacyOptions): SensitiveReason | null {
  // Every listed element is asked (a page lists thousands of links): an element that is no
  // input or textarea and has no autocomplete attribute can match none of the rules below, so it
  // is answered by its tag and one attribute lookup (no instanceof, no token arrays).
  const tag = el.localName;
  if (tag !== 'input' && tag !== 'textarea' && el.getAttribute('autocomplete') === null) return null;
  const isInput = el instanceof HTMLInputElement;
  const isField = isInput || el instanceof HTMLTextAreaElement;
  // Passwords, always: by the type the page declared at any time, by autocomplete, by name.
  if (isInput && wasPassword(el)) return 'password';
  const ac = (el.getAttribute('autocomplete') ?? '').toLowerCase();
  const tokens = ac ? ac.split(/\s+/) : [];
  if (isField && tokens.some((t) => PASSWORD_AUTOCOMPLETE.has(t))) return 'password';
  const textLike = (isInput && FIELD_TYPES_WITH_SECRETS.has(el.type)) || el instanceof HTMLTextAreaElement;
  // The field's own names; a fieldset legend ("Card number", "Security PIN") names the short digit
  // boxes inside it, not every field (a cardholder name under "Credit card details" is no card).
  const own = textLike
    ? [
        el.getAttribute('name'),
        el.id,
        el.getAttribute('placeholder'),
        el.getAttribute('aria-label'),
        ...Array.from((el as HTMLInputElement | HTMLTextAreaElement).labels ?? [], (l) => l.textContent),
        ...labelledByText(el),
      ]
        .filter((x): x is string => !!x)
        .join(' ')
    : '';
  if (own && PASSWORD_HINT.test(own) && !/^(e-?mail|user(name)?|login)$/i.test(el.getAttribute('name') ?? '')) return 'password';
  if (!opts.redactCardAndOtp) return null;
  if (tokens.some((t) => t.startsWith('cc-'))) return 'payment_card';
  if (tokens.includes('one-time-code')) return 'one_time_code';
  if (!textLike) return null;
  const hints = isInput && isDigitBox(el) ? [own, ...legendText(el)].join(' ') : own;
  if (hints) {
    if (CARD_HINT.test(hints)) return 'payment_card';
    if (OTP_HINT.test(hints)) return 'one_time_code';
  }
  const value = (el as HTMLInputElement | HTMLTextAreaElement).value ?? '';
  if (value && isCardNumber(value)) return 'payment_card';
  if (isInput && value && isSplitCard(el)) return 'payment_card';
  return null;
}

/** The value of a field as reading actions may show it: the marker when the field is sensitive. */
export function readableValue(
  el: Element,
  value: string,
  opts: PrivacyOptions = DEFAULT_PRIVACY,
): { value: string; redacted: SensitiveReason | null } {
  const reason = sensitiveReason(el, opts);
  if (reason) return { value: redactedMarker(reason), redacted: reason };
  return { value: redactCardNumbers(value), redacted: null };
}

// ---- card numbers in page text, also split over inline elements ----------------------------------

// Elements that do not break a line: their text reads as one with their neighbours'
// (<span>4242</span> <span>4242</span> ... is one number on screen and in innerText).
const INLINE = new Set([
  'a',
  'abbr',
  'b',
  'bdi',
  'bdo',
  'cite',
  'code',
  'data',
  'del',
  'dfn',
  'em',
  'font',
  'i',
  'ins',
  'kbd',
  'label',
  'mark',
  'q',
  's',
  'samp',
  'small',
  'span',
  'strong',
  'sub',
  'sup',
  'time',
  'tt',
  'u',
  'var',
  'wbr',
]);

function blockOf(n: Node): Node {
  let p = n.parentNode;
  while (p && p instanceof Element && INLINE.has(p.localName) && p.parentNode) p = p.parentNode;
  return p ?? n;
}

/** The block around n in the flat tree (shadow-root.ts flatParent; a slot is drawn as its contents); null when n is not drawn. */
function flatBlockOf(n: Node): Node | null {
  let p = flatParent(n);
  while (p instanceof Element && (INLINE.has(p.localName) || p.localName === 'slot')) {
    const up = flatParent(p);
    if (!up) return p.parentNode ? null : p;
    p = up;
  }
  return p;
}

/** Whether a nested block's subtree holds text the DOM walk counts (a line break between its neighbours). */
function holdsText(el: Element): boolean {
  // Most elements answer by their first child (an image has none, a paragraph starts with text).
  const first = el.firstChild;
  if (!first) return false;
  if (first instanceof Text) return true;
  const walker = (el.ownerDocument ?? document).createTreeWalker(el, NodeFilter.SHOW_TEXT);
  for (let t = walker.nextNode() as Text | null; t; t = walker.nextNode() as Text | null) {
    const tag = t.parentElement?.localName;
    if (tag !== 'script' && tag !== 'style') return true;
  }
  return false;
}

interface MaskedText {
  /** [start, end) inside the node's data that belong to a card number. */
  ranges: [number, number][];
}

interface BlockMasks {
  masks: WeakMap<Text, MaskedText>;
  /** The flat walk went through a shadow root or a slot's assigned nodes: its text may differ from the DOM walk's. */
  crossed: boolean;
}

// Computed per block and kept until the current task ends (queueMicrotask), so a snapshot that reads
// every text node of a block does the work once, and no later read sees an old answer. One cache for
// the DOM walk, one for the flat tree's.
let cache: { dom: WeakMap<Node, BlockMasks>; flat: WeakMap<Node, BlockMasks> } | null = null;

/** The text of a block as the page shows it (whitespace collapsed, across element edges too), with the node each character comes from. */
class BlockText {
  readonly chars: string[] = [];
  readonly owners: { node: Text | null; index: number }[] = [];
  text(t: Text): void {
    const d = t.data;
    for (let i = 0; i < d.length; i++) {
      const c = d[i] ?? '';
      if (/[ \t\n\r\f]/.test(c)) {
        if (this.chars[this.chars.length - 1] === ' ') continue;
        this.chars.push(' ');
      } else this.chars.push(c);
      this.owners.push({ node: t, index: i });
    }
  }
  /** A nested block breaks the line: the text on either side is not one number. */
  lineBreak(): void {
    if (this.chars[this.chars.length - 1] === '\n') return;
    this.chars.push('\n');
    this.owners.push({ node: null, index: -1 });
  }
}

/** The DOM walk: the block's text nodes in document order (what get html shows). */
function domText(block: Node): BlockText {
  const out = new BlockText();
  const walker = (block.ownerDocument ?? document).createTreeWalker(block, NodeFilter.SHOW_TEXT);
  for (let t = walker.nextNode() as Text | null; t; t = walker.nextNode() as Text | null) {
    const parent = t.parentElement;
    if (!parent || parent.localName === 'script' || parent.localName === 'style') continue;
    if (blockOf(t) !== block) out.lineBreak();
    else out.text(t);
  }
  return out;
}

/**
 * The flat walk: the block's text in the order it is drawn, through shadow roots and slots. Line
 * breaks as the DOM walk makes them (a nested block with text), so where the flat tree is the DOM
 * (crossed false) both find the same numbers.
 */
function flatText(block: Node): { text: BlockText; crossed: boolean } {
  const out = new BlockText();
  let crossed = false;
  const visit = (n: Node, depth: number): void => {
    const kids = flatChildren(n);
    if (kids !== n.childNodes) crossed = true;
    for (let i = 0; i < kids.length; i++) {
      const c = kids[i];
      if (c instanceof Text) {
        if (!(c instanceof CDATASection)) out.text(c);
        continue;
      }
      if (!(c instanceof Element)) continue;
      const tag = c.localName;
      if (tag === 'script' || tag === 'style') continue;
      if ((INLINE.has(tag) || tag === 'slot') && depth < 64) visit(c, depth + 1);
      else if (holdsText(c)) out.lineBreak();
      // A host with text only in its shadow root: the DOM walk joins its neighbours, the flat one
      // breaks the line: both are asked (crossed), so no number the DOM walk finds is lost.
      else if (flatChildren(c) !== c.childNodes) crossed = true;
    }
  };
  visit(block, 0);
  return { text: out, crossed };
}

function maskBlock(block: Node, flat: boolean): BlockMasks {
  const out = new WeakMap<Text, MaskedText>();
  let crossed = false;
  let walked: BlockText;
  if (flat) ({ text: walked, crossed } = flatText(block));
  else walked = domText(block);
  const { chars, owners } = walked;
  const text = chars.join('');
  for (const [s, e] of findCardRanges(text)) {
    for (let i = s; i < e; i++) {
      const o = owners[i];
      if (!o?.node || o.index < 0) continue;
      let m = out.get(o.node);
      if (!m) out.set(o.node, (m = { ranges: [] }));
      const last = m.ranges[m.ranges.length - 1];
      if (last && last[1] >= o.index) last[1] = o.index + 1;
      else m.ranges.push([o.index, o.index + 1]);
    }
  }
  return { masks: out, crossed };
}

/** Both lists of ranges, merged (sorted, overlaps joined). */
function unionRanges(a: [number, number][], b: [number, number][]): [number, number][] {
  if (a.length === 0) return b;
  if (b.length === 0) return a;
  const out: [number, number][] = [];
  for (const [s, e] of [...a, ...b].sort((x, y) => x[0] - y[0])) {
    const last = out[out.length - 1];
    if (last && s <= last[1]) last[1] = Math.max(last[1], e);
    else out.push([s, e]);
  }
  return out;
}

/**
 * The parts of a text node that belong to a card number (alone or with its inline neighbours):
 * joined as drawn (the flat tree: a number split across a shadow boundary, part in a root's own text,
 * part in slotted light-DOM text, in the order the slots render it, is what a screenshot shows), and
 * joined in document order too where that differs (what get html shows): both are masked.
 */
function cardRangesOf(node: Text): [number, number][] {
  if (!/\d/.test(node.data)) return [];
  if (!cache) {
    cache = { dom: new WeakMap(), flat: new WeakMap() };
    queueMicrotask(() => (cache = null));
  }
  const { dom, flat } = cache;
  const block = blockOf(node);
  const drawnIn = flatBlockOf(node);
  let drawn: BlockMasks | undefined;
  if (drawnIn) {
    drawn = flat.get(drawnIn);
    if (!drawn) flat.set(drawnIn, (drawn = maskBlock(drawnIn, true)));
    if (drawnIn === block && !drawn.crossed) return drawn.masks.get(node)?.ranges ?? [];
  }
  let inDom = dom.get(block);
  if (!inDom) dom.set(block, (inDom = maskBlock(block, false)));
  return unionRanges(inDom.masks.get(node)?.ranges ?? [], drawn?.masks.get(node)?.ranges ?? []);
}

/**
 * All the text under n in the flat tree, as drawn (nested blocks too: a card never spans one, so
 * this holds each block's numbers whole).
 */
function flatTextContent(n: Node, out: string[], depth = 0): void {
  const kids = flatChildren(n);
  for (let i = 0; i < kids.length; i++) {
    const c = kids[i];
    if (c instanceof Text) out.push(c.data);
    else if (c instanceof Element && c.localName !== 'script' && c.localName !== 'style' && depth < 64) flatTextContent(c, out, depth + 1);
  }
}

/** The digits in text (walk.ts: fewer than a card's in all its text, no card part to look for). */
export function digitCount(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 48 && c <= 57) n++;
  }
  return n;
}

/**
 * Whether a card number may be split across the boundary of one of these shadow roots (part in its
 * own text, part in its host's slotted light-DOM text or around an inline host), which neither the
 * root's text nor the light DOM's holds whole: the text of the block each root is drawn in, joined
 * as drawn, has 13 digits close together. Each block once, and only when its text and the root's
 * hold 13 digits in all.
 */
export function mayHoldCardAcross(roots: readonly ShadowRoot[]): boolean {
  return blocksHoldingCardAcross(roots, true).length > 0;
}

/** The blocks mayHoldCardAcross finds (the first only when `first`). */
function blocksHoldingCardAcross(roots: readonly ShadowRoot[], first: boolean): Node[] {
  const asked = new Set<Node>();
  const out: Node[] = [];
  for (const root of roots) {
    const host = root.host;
    const own = digitCount(root.textContent ?? '');
    const block = INLINE.has(host.localName) || host.localName === 'slot' ? flatBlockOf(host) : host;
    // The block's light-DOM text and the root's own hold every digit drawn there (but those of roots
    // nested in this one, which are asked on their own): fewer than 13 together make no card.
    if (!block || asked.has(block) || own + digitCount(block.textContent ?? '') < CARD_MIN_DIGITS) continue;
    asked.add(block);
    const parts: string[] = [];
    flatTextContent(block, parts);
    if (mayHoldCard(parts.join('').replace(/\s+/g, ' '))) {
      out.push(block);
      if (first) break;
    }
  }
  return out;
}

/**
 * The parts of card numbers split across the boundary of one of these shadow roots, as their text
 * nodes hold them (the walk's page text and a listed element's text join each tree's text on its
 * own, in document order, so no part holds a whole number the worker's scrub would find). Masked
 * wherever they show (walk.ts), as readableElementText does. Empty on almost every page: only blocks
 * mayHoldCardAcross finds are looked at.
 */
export function splitCardParts(roots: readonly ShadowRoot[]): string[] {
  if (roots.length === 0) return [];
  const out = new Set<string>();
  const visit = (n: Node, depth: number): void => {
    const kids = flatChildren(n);
    for (let i = 0; i < kids.length; i++) {
      const c = kids[i];
      if (c instanceof Text) {
        for (const [s, e] of cardRangesOf(c)) {
          const part = c.data.slice(s, e).trim();
          if (part) out.add(part);
        }
      } else if (c instanceof Element && c.localName !== 'script' && c.localName !== 'style' && depth < 64) visit(c, depth + 1);
    }
  };
  for (const block of blocksHoldingCardAcross(roots, false)) visit(block, 0);
  return [...out];
}

/**
 * A text node's text as agents may see it: every part of a card number masked, also when the number
 * is split over inline elements (the browser_use tree and get html show each node on its own).
 */
export function readableTextNode(node: Text): string {
  const ranges = cardRangesOf(node);
  if (!ranges.length) return node.data;
  let out = '';
  let at = 0;
  for (const [s, e] of ranges) {
    out += node.data.slice(at, s) + redactedMarker('payment_card');
    at = e;
  }
  return out + node.data.slice(at);
}

/**
 * An element's text (innerText) as reading actions may show it: card numbers masked, also the part
 * of one split over inline elements that this element holds (get text of one <span>4242</span> of
 * four).
 */
export function readableElementText(el: Element, text: string): string {
  let out = text;
  const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
  for (let t = walker.nextNode() as Text | null; t; t = walker.nextNode() as Text | null) {
    for (const [s, e] of cardRangesOf(t)) {
      const part = t.data.slice(s, e).trim();
      // Every occurrence: the same digits elsewhere in the text are masked too, never left in clear.
      if (part) out = out.split(part).join(redactedMarker('payment_card'));
    }
  }
  return redactCardNumbers(out);
}

/**
 * outerHTML with what the snapshot would withhold taken out: value attributes (and textarea text)
 * of sensitive fields inside (a password prefilled in the page's HTML), card numbers anywhere, also
 * split over inline elements.
 */
export function readableHtml(el: Element, opts: PrivacyOptions = DEFAULT_PRIVACY): string {
  const fields = [el, ...el.querySelectorAll('input, textarea')].filter(
    (f) => f instanceof HTMLInputElement || f instanceof HTMLTextAreaElement,
  );
  const sensitive = fields.filter((f) => sensitiveReason(f, opts) !== null);
  const texts: Text[] = [];
  const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
  for (let t = walker.nextNode() as Text | null; t; t = walker.nextNode() as Text | null) texts.push(t);
  const maskedTexts = opts.redactCardAndOtp ? texts.map((t) => (cardRangesOf(t).length ? readableTextNode(t) : null)) : [];
  if (!sensitive.length && !maskedTexts.some((t) => t !== null)) return redactCardNumbers(el.outerHTML);
  const clone = el.cloneNode(true) as Element;
  const cloneFields = [clone, ...clone.querySelectorAll('input, textarea')].filter(
    (f) => f instanceof HTMLInputElement || f instanceof HTMLTextAreaElement,
  );
  // querySelectorAll and TreeWalker order is document order in both trees, so indexes match.
  fields.forEach((f, i) => {
    const c = cloneFields[i];
    if (!c || !sensitive.includes(f)) return;
    const marker = redactedMarker(sensitiveReason(f, opts) ?? 'password');
    if (c.hasAttribute('value')) c.setAttribute('value', marker);
    if (c instanceof HTMLTextAreaElement) c.textContent = marker;
  });
  const cloneWalker = document.createTreeWalker(clone, NodeFilter.SHOW_TEXT);
  for (let i = 0, t = cloneWalker.nextNode() as Text | null; t; i++, t = cloneWalker.nextNode() as Text | null) {
    const masked = maskedTexts[i];
    if (masked != null) t.data = masked;
  }
  return redactCardNumbers(clone.outerHTML);
}

const MASK_ATTR = 'data-bux-masked';
const OVERLAY_ATTR = 'data-bux-mask-overlay';
/** The colour of the boxes drawn over card numbers in screenshots. */
export const MASK_COLOR = CARD_MASK_COLOR;

/**
 * The client rects of every card number in the page's text, with the text each covers (a part of
 * the number when it is split over inline elements); onScreen: only those in the viewport. The text
 * inside shadow roots too, open and closed, nested (a TreeWalker stops at a root's host), all of
 * them found by a walk of the page unless the caller passes them (snapshot/card-boxes.ts): the
 * classic screenshot pays that walk to miss no root.
 */
export function cardTextRects(
  onScreen: boolean,
  roots: readonly ShadowRoot[] = shadowRootsIn(document),
): { rect: DOMRect; text: string }[] {
  const body = document.body;
  if (!body) return [];
  const out: { rect: DOMRect; text: string }[] = [];
  for (const scope of [body, ...roots]) {
    const walker = document.createTreeWalker(scope, NodeFilter.SHOW_TEXT);
    for (let t = walker.nextNode() as Text | null; t; t = walker.nextNode() as Text | null) {
      for (const [s, e] of cardRangesOf(t)) {
        const r = document.createRange();
        r.setStart(t, s);
        r.setEnd(t, e);
        for (const rect of r.getClientRects()) {
          if (rect.width > 0 && rect.height > 0 && (!onScreen || (rect.bottom > 0 && rect.top < innerHeight)))
            out.push({ rect, text: t.data.slice(s, e) });
        }
      }
    }
  }
  return out;
}

/** Boxes over every card number in the page's text that is on screen (its client rects); roots: the page's shadow roots. */
function overlayCardText(roots: readonly ShadowRoot[]): number {
  const body = document.body;
  if (!body) return 0;
  const boxes = cardTextRects(true, roots).map((b) => b.rect);
  if (!boxes.length) return 0;
  const layer = document.createElement('div');
  layer.setAttribute(OVERLAY_ATTR, '');
  layer.style.cssText = 'position:fixed;inset:0;pointer-events:none;z-index:2147483647;margin:0;padding:0;border:0;background:none';
  for (const b of boxes) {
    const box = document.createElement('div');
    box.style.cssText = `position:fixed;left:${b.left - 2}px;top:${b.top - 1}px;width:${b.width + 4}px;height:${b.height + 2}px;background:${MASK_COLOR};margin:0;padding:0;border:0`;
    layer.appendChild(box);
  }
  (document.documentElement ?? body).appendChild(layer);
  return boxes.length;
}

/** The fields maskSecretFields restyled, to restore them: those inside shadow roots are not found again by a document query. */
const maskedFields = new Set<HTMLElement>();

/**
 * Screenshots: while on, password (also one switched to text), card, CVC, one-time-code and PIN
 * fields of this document, also inside its shadow roots (open, closed, nested), are drawn as discs,
 * and card numbers in the page's text are covered by boxes; returns how many things were masked.
 * The worker turns it on right before capturing and off right after (background/actions/screenshot.ts).
 */
export function maskSecretFields(on: boolean): number {
  let n = 0;
  if (!on) {
    for (const el of [...maskedFields, ...document.querySelectorAll<HTMLElement>(`[${MASK_ATTR}]`)]) {
      el.style.removeProperty('-webkit-text-security');
      el.style.removeProperty('color');
      el.removeAttribute(MASK_ATTR);
    }
    maskedFields.clear();
    for (const el of document.querySelectorAll(`[${OVERLAY_ATTR}]`)) el.remove();
    return 0;
  }
  // One walk of the page for its roots, for the fields and the text (bench/results/cdp-card-shadow.md).
  const roots = shadowRootsIn(document);
  for (const scope of [document, ...roots]) {
    for (const el of scope.querySelectorAll<HTMLElement>('input, textarea')) {
      const reason = sensitiveReason(el, DEFAULT_PRIVACY);
      if (!reason || (el instanceof HTMLInputElement && el.type === 'password')) continue; // native discs already
      el.setAttribute(MASK_ATTR, '');
      el.style.setProperty('-webkit-text-security', 'disc', 'important');
      if (el instanceof HTMLTextAreaElement) el.style.setProperty('color', 'transparent', 'important');
      maskedFields.add(el);
      n++;
    }
  }
  return n + overlayCardText(roots);
}

/** An attribute as reading actions may show it. */
export function readableAttribute(el: Element, name: string, value: string, opts: PrivacyOptions = DEFAULT_PRIVACY): string {
  if (name.toLowerCase() === 'value') return readableValue(el, value, opts).value;
  return redactCardNumbers(value);
}

const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/g;
// International or local numbers with at least 7 digits, separators allowed (+1 (555) 010-2233, 030 1234567).
const PHONE = /(?<![\w/.-])\+?\d[\d\s().-]{5,}\d(?![\w/-])/g;

/** 7 to 15 digits (E.164); a bare run of digits only up to 12, so card and account numbers are left alone. */
function looksLikePhone(m: string): boolean {
  const digits = m.match(/\d/g)?.length ?? 0;
  if (digits < 7 || digits > 15) return false;
  const bare = /^\d+$/.test(m);
  return !bare || digits <= 12;
}

export function maskPii(text: string): { text: string; kinds: ('email' | 'phone')[] } {
  const kinds: ('email' | 'phone')[] = [];
  let out = text;
  if (out.includes('@')) {
    const next = out.replace(EMAIL, '[email]');
    if (next !== out) kinds.push('email');
    out = next;
  }
  if (/\d{3}/.test(out) || /\d[\s().-]\d/.test(out)) {
    const next = out.replace(PHONE, (m) => (looksLikePhone(m) ? '[phone]' : m));
    if (next !== out) kinds.push('phone');
    out = next;
  }
  return { text: out, kinds };
}
