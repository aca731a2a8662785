// The privacy filter's pure parts, shared by every context that lets page data out: the page's
// element-aware filter (content/snapshot/privacy.ts), the main-world request hooks (api_activity
// bodies and URLs) and the worker, which runs redactText over every string that leaves the extension
// (background/connection/bridge-connection.ts). Card numbers are found by shape (card-shape.ts: an issuer's
// prefix and length, Luhn, and card grouping by any one separator, also URL- or HTML-encoded, or
// card context), so order and account ids stay as they are; secrets in JSON and form bodies and in
// URL queries by their key's name.
import type { Redaction } from '../../../schemas/generated/protocol';
import { cardContextBefore, hasCardDigits, isCardGrouping, namesCard } from './card-shape';

export const redactedMarker = (reason: Redaction['reason']) => `[redacted:${reason}]`;

// A separator between digit groups: one character that is neither a letter nor a digit (space, U+00A0
// and the other Unicode spaces, dot, slash, dash, plus...), or one encoded as a GET form or an HTML
// serializer writes it (%20, %2B, %2D, %2E, %2F, %C2%A0, &nbsp;, &#160;).
const SEP_SRC = String.raw`(?:%(?:20|2[bBdDeEfF]|[cC]2%[aA]0)|&(?:nbsp|#160|#[xX][aA]0);|[^\p{L}\p{N}\n\r])`;
const SEP_ANY = new RegExp(SEP_SRC, 'gu');

/**
 * Whether the value, with any separators between its digits, holds the digits of a card: an issuer's
 * prefix and length, and Luhn (card-shape.ts). Alone this decides only a whole field value the person
 * typed (privacy.ts); inside text a number must also be grouped like a card or named as one.
 */
export function isCardNumber(text: string): boolean {
  return hasCardDigits(text.replace(SEP_ANY, ''));
}

/** Whether a match is written as a card: digit groups of a card's sizes, joined by one separator throughout. */
function isCardGrouped(m: string): boolean {
  const seps = new Set(m.match(SEP_ANY) ?? []);
  if (seps.size !== 1) return false;
  return isCardGrouping(m.split(SEP_ANY).map((g) => g.length));
}

// 13-19 digits, optionally grouped by single spaces or dashes, not part of a longer digit run.
const CARD_RUN = /(?<![\d.,-])\d(?:[ -]?\d){12,18}(?![\d,]|\.\d)/g;
// Digit groups (2 to 7 digits) joined by one separator, the same one throughout (a card written
// 4242.4242.4242.4242, 4242+4242+... in a query, 4242&nbsp;4242 in HTML), not inside a longer run.
const CARD_GROUPS = new RegExp(String.raw`(?<![\p{N}])\d{2,7}(${SEP_SRC})\d{2,7}(?:\1\d{1,7}){1,7}(?!\p{N})(?!\1\d)`, 'gu');

/** Whether the groups read as one number with thousands separators (1,234,567,890,123,456), not a card. */
function isThousands(m: string): boolean {
  const groups = m.split(SEP_ANY).filter(Boolean);
  return groups.length > 2 && groups.slice(1).every((g) => g.length === 3) && (groups[0]?.length ?? 0) <= 3;
}

/**
 * Whether the text has 13 digits close together (at most 6 other characters between two of them,
 * the longest separator: &nbsp;): one linear pass that spares the regular expressions almost every
 * string the worker scrubs.
 */
export function mayHoldCard(text: string): boolean {
  let digits = 0;
  let gap = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 48 && c <= 57) {
      digits = gap > 6 ? 1 : digits + 1;
      if (digits >= 13) return true;
      gap = 0;
    } else gap++;
  }
  return false;
}

/**
 * [start, end) of every card number inside free text: card digits (isCardNumber) written as a card
 * (grouped 4-4-4-4, 4-6-5, ...) or named as one (cardContext: the text sits in a field or under a key
 * naming a card; or a word naming a card just before the number). An ungrouped id in plain text,
 * "Order 1234567812345670" or {"id":"4111111111111111"}, is no card.
 */
export function findCardRanges(text: string, cardContext = false): [number, number][] {
  if (text.length < 13 || !mayHoldCard(text)) return [];
  const out: [number, number][] = [];
  const overlaps = (s: number, e: number) => out.some(([a, b]) => s < b && e > a);
  for (const re of [CARD_RUN, CARD_GROUPS]) {
    re.lastIndex = 0;
    for (let m = re.exec(text); m; m = re.exec(text)) {
      const s = m.index;
      const e = s + m[0].length;
      if (overlaps(s, e) || !isCardNumber(m[0]) || (re === CARD_GROUPS && isThousands(m[0]))) continue;
      if (isCardGrouped(m[0]) || cardContext || cardContextBefore(text, s)) out.push([s, e]);
    }
  }
  return out.sort((a, b) => a[0] - b[0]);
}

/**
 * Replaces every card number inside free text (findCardRanges) with the payment_card marker. spare: a
 * card number the reader itself put into the page (a CDP client's own typing) stays as it is.
 */
export function redactCardNumbers(text: string, cardContext = false, spare?: (card: string) => boolean): string {
  const found = findCardRanges(text, cardContext);
  const ranges = spare ? found.filter(([s, e]) => !spare(text.slice(s, e))) : found;
  if (!ranges.length) return text;
  let out = '';
  let at = 0;
  for (const [s, e] of ranges) {
    out += text.slice(at, s) + redactedMarker('payment_card');
    at = e;
  }
  return out + text.slice(at);
}

// ---- secrets by key name (request bodies, URL queries) -------------------------------------------

// Whole words of a key (camelCase and snake_case split), so "shipping" is not "pin" and "passport"
// is not "pass".
const PASSWORD_WORDS =
  /^(password|passwd|pwd|pass|passphrase|secret|token|apikey|credential|credentials|authorization|auth|privatekey|sessionid)$/;
const PASSWORD_PHRASES = /(^| )(pass ?word|api ?key|access ?token|refresh ?token|id ?token|client ?secret|private ?key|session ?id)( |$)/;
const CARD_WORDS = /^(cvc|cvc2|cvv|cvv2|csc|cid|cardnumber|ccnumber|ccnum|pan|cardno)$/;
const CARD_PHRASES =
  /(^| )(card ?(number|num|no)|cc ?(num|number)|security ?code|card ?code|card ?verification|credit ?card|debit ?card)( |$)/;
const OTP_WORDS = /^(otp|totp|pin|pincode|passcode|mfa|2fa|tan)$/;
const OTP_PHRASES = /(^| )(one ?time ?(code|password)|verification ?code|sms ?code|auth ?code)( |$)/;

/** Why a value stored under this key (form field, JSON property, query parameter) is a secret, or null. */
export function secretKeyReason(key: string): Redaction['reason'] | null {
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
  if (!words.length) return null;
  const phrase = words.join(' ');
  if (words.some((w) => PASSWORD_WORDS.test(w)) || PASSWORD_PHRASES.test(phrase)) return 'password';
  if (words.some((w) => CARD_WORDS.test(w)) || CARD_PHRASES.test(phrase)) return 'payment_card';
  if (words.some((w) => OTP_WORDS.test(w)) || OTP_PHRASES.test(phrase)) return 'one_time_code';
  return null;
}

export interface TextOptions {
  /** Mask card numbers (false only when the agent asked get_state for them: redact_card_and_otp false). */
  cards?: boolean;
  /** The text sits in a field or under a key that names a card (cardNumber, cc-number): an ungrouped card number counts. */
  cardContext?: boolean;
  /** A card number the reader itself put into the page, left as it is (background/cdp/client-input.ts). */
  spare?: (card: string) => boolean;
}

/** The options for a value stored under this key: a key naming a card (cardNumber, cc_num) is card context. */
export function optionsUnderKey(key: string, opts: TextOptions): TextOptions {
  return !opts.cardContext && namesCard(key) ? { ...opts, cardContext: true } : opts;
}

/** The key=value pairs of a query or form body: secret keys' values masked, card numbers masked anywhere. */
export function redactFormEncoded(body: string, opts: TextOptions = {}): string {
  return body
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      if (eq < 0) return opts.cards === false ? pair : redactCardNumbers(pair, opts.cardContext);
      const rawKey = pair.slice(0, eq);
      const rawValue = pair.slice(eq + 1);
      const key = decodeForm(rawKey);
      const reason = secretKeyReason(key);
      if (reason && (reason === 'password' || opts.cards !== false) && rawValue !== '') return `${rawKey}=${redactedMarker(reason)}`;
      if (opts.cards === false) return pair;
      const value = decodeForm(rawValue);
      const ctx = opts.cardContext || namesCard(key);
      return `${rawKey}=${findCardRanges(value, ctx).length ? redactCardNumbers(value, ctx) : redactCardNumbers(rawValue, ctx)}`;
    })
    .join('&');
}

function decodeForm(s: string): string {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    return s.replace(/\+/g, ' ');
  }
}

const FORM_BODY = /^[^=&\s{}[\]"]+=[^&\s]*(?:&[^=&\s]+=[^&\s]*)*$/;

/** A URL with secrets in its query or fragment (a GET form's card number or password, an OAuth token) masked. */
export function redactUrl(url: string, opts: TextOptions = {}): string {
  const hashAt = url.indexOf('#');
  const beforeHash = hashAt < 0 ? url : url.slice(0, hashAt);
  const hash = hashAt < 0 ? null : url.slice(hashAt + 1);
  const qAt = beforeHash.indexOf('?');
  const path = qAt < 0 ? beforeHash : beforeHash.slice(0, qAt);
  const query = qAt < 0 ? null : beforeHash.slice(qAt + 1);
  let out = opts.cards === false ? path : redactCardNumbers(path, opts.cardContext);
  if (query !== null) out += `?${redactFormEncoded(query, opts)}`;
  if (hash !== null)
    out += `#${FORM_BODY.test(hash) ? redactFormEncoded(hash, opts) : opts.cards === false ? hash : redactCardNumbers(hash, opts.cardContext)}`;
  return out;
}

// Cheap test before the URL pass: every key secretKeyReason knows contains one of these.
const SECRET_KEY_HINT = /pass|pwd|secret|token|key|auth|credential|session|cvc|cvv|csc|cid|card|cc|pan|pin|otp|code|mfa|2fa|tan/i;
const URL_IN_TEXT = /\b(?:https?|wss?|ftp):\/\/[^\s"'<>`]+/g;

/**
 * Any text leaving the extension: card numbers, and secrets in the query of every URL inside it. The
 * worker runs it over every string of every message (bridge-connection.ts), so a URL shown in a
 * state, a tab list or an error is covered whatever produced it.
 */
export function redactText(text: string, opts: TextOptions = {}): string {
  let out = opts.cards === false ? text : redactCardNumbers(text, opts.cardContext, opts.spare);
  if (out.includes('://') && out.includes('=') && SECRET_KEY_HINT.test(out)) out = out.replace(URL_IN_TEXT, (u) => redactUrl(u, opts));
  return out;
}

/**
 * JSON values: secret keys' values masked (recursively), card numbers masked in every string, and a
 * number that is a card's digits under a key naming a card (cardContext: {"card": {"number": ...}}).
 */
export function redactJsonValue(v: unknown, depth = 0, cardContext = false): unknown {
  if (depth > 32) return v;
  if (typeof v === 'string') return redactCardNumbers(v, cardContext);
  if (typeof v === 'number') return cardContext && Number.isInteger(v) && isCardNumber(String(v)) ? redactedMarker('payment_card') : v;
  if (Array.isArray(v)) return v.map((x) => redactJsonValue(x, depth + 1, cardContext));
  if (v && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
      const reason = secretKeyReason(k);
      out[k] =
        reason && x !== null && x !== '' && typeof x !== 'object' && typeof x !== 'boolean'
          ? redactedMarker(reason)
          : redactJsonValue(x, depth + 1, cardContext || namesCard(k));
    }
    return out;
  }
  return v;
}

export interface JsonCodec {
  parse(text: string): unknown;
  stringify(value: unknown): string;
}

/**
 * A request body as api_activity may show it: JSON and form-encoded bodies with secret keys' values
 * and card numbers masked; any other text with card numbers and URL secrets masked. json: the
 * codec to use (the main-world hooks pass the browser's own, kept before any page script ran).
 */
export function redactBody(body: string, json: JsonCodec = JSON): string {
  const t = body.trim();
  if ((t.startsWith('{') && t.endsWith('}')) || (t.startsWith('[') && t.endsWith(']'))) {
    try {
      const parsed = json.parse(t);
      const out = json.stringify(redactJsonValue(parsed));
      // Nothing masked: the body as sent, not as parsed again (an id of 17 digits or more is not a
      // safe integer, and JSON.parse would round it).
      return out === json.stringify(parsed) ? body : out;
    } catch {
      // not JSON after all: fall through to the text rules
    }
  }
  if (FORM_BODY.test(t)) return redactFormEncoded(t);
  return redactText(body);
}
