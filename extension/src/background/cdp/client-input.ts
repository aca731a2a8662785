// The privacy filter protects the person's data, not the agent's own input. A CDP client that fills a
// card field (Playwright's fill() sends Input.insertText, browser_use 0.13 types one Input.dispatchKeyEvent
// "char" per character) and reads it back must get what it typed, as on Chrome's own endpoint, or its
// checks fail (Playwright's inputValue(), browser_use's "the value differs"). So every card-like digit
// run a client sent into a tab is kept here, per tab (one client holds a tab at a time), and a card
// number found in that tab's answers and events passes unmasked when its digits are among them.
// Sparing only digits the client itself sent tells it nothing it did not know; a card already on the
// page, or typed by the person, is masked as before. Forgotten when the client's hold of the tab ends.
// In the worker's memory only: after a worker restart the tab's hold has ended anyway (cdp-relay.ts).

/** Digit runs kept per tab (the newest win), and the digits of its keystrokes (the newest win). */
const MAX_RUNS = 64;
const MAX_KEY_DIGITS = 512;
/** A string longer than this (an injected library's source) is not searched for what the client typed. */
const MAX_SCAN_CHARS = 256 * 1024;
/** The fewest digits of a card number (shared/card-shape.ts). */
const CARD_MIN_DIGITS = 13;
/** The longest separator between a card's digit groups (&nbsp;), as redaction.ts mayHoldCard. */
const MAX_GAP = 6;

interface Typed {
  runs: string[];
  keys: string;
}
const byTab = new Map<number, Typed>();

/**
 * The digits of every stretch of text with 13 digits or more, at most 6 other characters between two
 * of them: where a card number written in any form ("4242 4242 ...", "4242-4242-...") can be.
 */
export function digitRuns(text: string): string[] {
  const out: string[] = [];
  let run = '';
  let gap = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 48 && c <= 57) {
      if (gap > MAX_GAP) {
        if (run.length >= CARD_MIN_DIGITS) out.push(run);
        run = '';
      }
      run += text[i];
      gap = 0;
    } else gap++;
  }
  if (run.length >= CARD_MIN_DIGITS) out.push(run);
  return out;
}

const digitsOf = (text: string): string => text.replace(/\D/g, '');

function typedIn(tabId: number): Typed {
  let t = byTab.get(tabId);
  if (!t) byTab.set(tabId, (t = { runs: [], keys: '' }));
  return t;
}

/** Every string in the params (depth-limited), up to a total length: what the command puts into the page. */
function stringsOf(v: unknown, out: string[], budget: { left: number }, depth = 0): void {
  if (depth > 16 || budget.left <= 0) return;
  if (typeof v === 'string') {
    if (v.length >= CARD_MIN_DIGITS && v.length <= budget.left) {
      out.push(v);
      budget.left -= v.length;
    }
  } else if (Array.isArray(v)) for (const x of v) stringsOf(x, out, budget, depth + 1);
  else if (v !== null && typeof v === 'object') for (const x of Object.values(v)) stringsOf(x, out, budget, depth + 1);
}

/**
 * A command the client sends to the tab (before Chrome runs it: the page's answer, an input event or
 * a console line, may come before the result). Keystrokes add their text's digits to one stream, so a
 * number typed one key at a time is known whole; every other string the command carries (insertText,
 * an evaluated expression, a function's arguments, an attribute value) adds its card-like digit runs.
 */
export function noteClientInput(tabId: number, method: string, params: Record<string, unknown> | undefined): void {
  if (!params) return;
  const text = params['text'];
  if (
    typeof text === 'string' &&
    ((method === 'Input.dispatchKeyEvent' && (params['type'] === 'keyDown' || params['type'] === 'char')) ||
      method === 'Input.insertText' ||
      method === 'Input.imeSetComposition')
  ) {
    const d = digitsOf(text);
    if (d) {
      const t = typedIn(tabId);
      t.keys = (t.keys + d).slice(-MAX_KEY_DIGITS);
    }
  }
  if (method === 'Input.dispatchKeyEvent' || method === 'Input.dispatchMouseEvent' || method === 'Input.dispatchTouchEvent') return;
  const strings: string[] = [];
  stringsOf(params, strings, { left: MAX_SCAN_CHARS });
  for (const s of strings) {
    const runs = digitRuns(s);
    if (runs.length === 0) continue;
    const t = typedIn(tabId);
    for (const r of runs) if (!t.runs.includes(r)) t.runs.push(r);
    if (t.runs.length > MAX_RUNS) t.runs.splice(0, t.runs.length - MAX_RUNS);
  }
}

/** Whether this card number (as found in page text: any separators) is made of digits the client sent to the tab. */
export function clientSent(tabId: number, card: string): boolean {
  const t = byTab.get(tabId);
  if (!t) return false;
  const d = digitsOf(card);
  if (d.length < CARD_MIN_DIGITS) return false;
  return t.keys.includes(d) || t.runs.some((r) => r.includes(d));
}

/** The redaction's spare test for the tab's answers and events; undefined while the client sent no card-like digits. */
export function spareFor(tabId: number): ((card: string) => boolean) | undefined {
  if (!byTab.has(tabId)) return undefined;
  return (card) => clientSent(tabId, card);
}

/** The client's hold of the tab ended: what it typed there is masked again for whoever reads the tab next. */
export function forgetClientInput(tabId: number): void {
  byTab.delete(tabId);
}
