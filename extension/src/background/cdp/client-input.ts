// The privacy filter protects the person's data, not the agent's own input. A CDP client that fills a
// card field (Playwright's fill() sends Input.insertText, browser_use 0.13 types one Input.dispatchKeyEvent
// "char" per character) and reads it back must get what it typed, as on Chrome's own endpoint, or its
// checks fail (Playwright's inputValue(), browser_use's "the value differs"). So every card
// number a client sent into a tab is kept here, per tab (one client holds a tab at a time), and a card
// number found in that tab's answers and events passes unmasked when it is one of them, whole. A card
// already on the page, or typed by the person, is masked as before; a long run of digits that merely
// contains a card does not count (it would let a client test many guesses at once), and the number
// spared per tab is bounded (MAX_SPARED_PER_TAB). Forgotten when the client's hold of the tab ends.
// In the worker's memory only: after a worker restart the tab's hold has ended anyway (cdp-relay.ts).
import { findCardRanges, isCardNumber } from '../../shared/redaction';

/**
 * The most card numbers a tab's clients may have spared, over every hold of the tab. Sparing answers
 * "is this number on the page?", so without a bound a client that knows part of a card (its first six
 * and last four digits are often shown) could send every candidate and read back the one that
 * matches. Sixteen numbers are more than any form a client fills; past them what it types is masked
 * like the rest (the safe direction), and a new hold of the tab does not start the count again.
 */
const MAX_SPARED_PER_TAB = 16;
/** A string longer than this (an injected library's source) is not searched for what the client typed. */
const MAX_SCAN_CHARS = 256 * 1024;
/** The longest card number (shared/card-shape.ts): a keystroke stream longer than this is no card. */
const CARD_MAX_DIGITS = 19;

interface Typed {
  /** The digits of each card number the client sent, exactly: a number spared must be one of them whole. */
  cards: Set<string>;
  /** Digits typed one key at a time since the last key, click or insert that was not a digit. */
  stream: string;
}
const byTab = new Map<number, Typed>();
/** Card numbers spared per tab so far, kept across holds (see MAX_SPARED_PER_TAB). */
const sparedCount = new Map<number, number>();

const digitsOf = (text: string): string => text.replace(/\D/g, '');

function typedIn(tabId: number): Typed {
  let t = byTab.get(tabId);
  if (!t) byTab.set(tabId, (t = { cards: new Set(), stream: '' }));
  return t;
}

/** Keeps the card's digits for the tab while its budget lasts (past it the number stays masked). */
function keep(tabId: number, digits: string): void {
  const t = typedIn(tabId);
  if (t.cards.has(digits)) return;
  const used = sparedCount.get(tabId) ?? 0;
  if (used >= MAX_SPARED_PER_TAB) return;
  sparedCount.set(tabId, used + 1);
  t.cards.add(digits);
}

/** The card numbers written in text the client sent (any grouping; Luhn and an issuer's length, as the filter reads them). */
export function cardsIn(text: string): string[] {
  return findCardRanges(text, true).map(([s, e]) => digitsOf(text.slice(s, e)));
}

/** Every string in the params (depth-limited), up to a total length: what the command puts into the page. */
function stringsOf(v: unknown, out: string[], budget: { left: number }, depth = 0): void {
  if (depth > 16 || budget.left <= 0) return;
  if (typeof v === 'string') {
    if (v.length >= 13 && v.length <= budget.left) {
      out.push(v);
      budget.left -= v.length;
    }
  } else if (Array.isArray(v)) for (const x of v) stringsOf(x, out, budget, depth + 1);
  else if (v !== null && typeof v === 'object') for (const x of Object.values(v)) stringsOf(x, out, budget, depth + 1);
}

/** One key's text: digits extend the stream (a number typed key by key is known once whole); any other key ends it. */
function noteKey(tabId: number, text: string): void {
  const t = typedIn(tabId);
  if (!/^\d+$/.test(text)) {
    // A separator the page may show between groups does not end the number.
    if (!/^[ -]$/.test(text)) t.stream = '';
    return;
  }
  t.stream += text;
  if (t.stream.length > CARD_MAX_DIGITS) t.stream = '';
  else if (isCardNumber(t.stream)) keep(tabId, t.stream);
}

/**
 * A command the client sends to the tab (before Chrome runs it: the page's answer, an input event or
 * a console line, may come before the result). Keystrokes build a number one key at a time (a click
 * or another key starts a new one); every other string the command carries (insertText, an evaluated
 * expression, a function's arguments, an attribute value) adds the card numbers written in it.
 */
export function noteClientInput(tabId: number, method: string, params: Record<string, unknown> | undefined): void {
  if (!params) return;
  const text = params['text'];
  if (method === 'Input.dispatchKeyEvent') {
    if (params['type'] !== 'keyDown' && params['type'] !== 'char' && params['type'] !== 'rawKeyDown') return;
    if (typeof text === 'string' && text !== '') noteKey(tabId, text);
    // A key that types nothing (Tab, Enter, Backspace, an arrow) ends the number; a printable key's own
    // keyDown without text comes with the char event that carries it, and modifiers change nothing.
    else if (typeof params['key'] === 'string' && params['key'].length > 1 && !/^(Shift|Control|Alt|Meta|CapsLock)$/.test(params['key'])) {
      const t = byTab.get(tabId);
      if (t) t.stream = '';
    }
    return;
  }
  if (method === 'Input.dispatchMouseEvent' || method === 'Input.dispatchTouchEvent') {
    // A click or touch moves to another field: the next keys start a new number.
    const t = byTab.get(tabId);
    if (t && (params['type'] === 'mousePressed' || params['type'] === 'touchStart')) t.stream = '';
    return;
  }
  const strings: string[] = [];
  stringsOf(params, strings, { left: MAX_SCAN_CHARS });
  for (const s of strings) for (const card of cardsIn(s)) keep(tabId, card);
}

/** Whether this card number (as found in page text: any separators) is one the client sent to the tab, whole. */
export function clientSent(tabId: number, card: string): boolean {
  return byTab.get(tabId)?.cards.has(digitsOf(card)) ?? false;
}

/** The redaction's spare test for the tab's answers and events; undefined while the client sent no card number. */
export function spareFor(tabId: number): ((card: string) => boolean) | undefined {
  if (!byTab.get(tabId)?.cards.size) return undefined;
  return (card) => clientSent(tabId, card);
}

/** The client's hold of the tab ended: what it typed there is masked again for whoever reads the tab next. */
export function forgetClientInput(tabId: number): void {
  byTab.delete(tabId);
}
