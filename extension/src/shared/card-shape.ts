// What makes a run of digits a payment card number rather than an order, account or tracking id.
// Luhn alone passes one random number in ten, so the privacy filter (redaction.ts) also asks for
// the number a card network issues (an issuer prefix and a length that issuer uses) and for a sign
// that it is written as a card: the digit groups printed on cards (4-4-4-4, 4-6-5), or card
// context (a field or JSON key, or words just before it, naming a card).

/** An issuer's number range: prefixes from..to (equal digit counts) and the lengths it issues. */
interface Issuer {
  name: string;
  ranges: [string, string][];
  lengths: number[];
}

const span = (from: number, to: number): number[] => Array.from({ length: to - from + 1 }, (_, i) => from + i);

// ISO/IEC 7812 issuer ranges of the networks in use (as listed in Wikipedia's "Payment card number",
// https://en.wikipedia.org/wiki/Payment_card_number#Issuer_identification_number_(IIN)).
const ISSUERS: Issuer[] = [
  { name: 'visa', ranges: [['4', '4']], lengths: [13, 16, 19] },
  {
    name: 'mastercard',
    ranges: [
      ['51', '55'],
      ['2221', '2720'],
    ],
    lengths: [16],
  },
  {
    name: 'amex',
    ranges: [
      ['34', '34'],
      ['37', '37'],
    ],
    lengths: [15],
  },
  {
    name: 'discover',
    ranges: [
      ['6011', '6011'],
      ['644', '649'],
      ['65', '65'],
      ['622126', '622925'],
    ],
    lengths: span(16, 19),
  },
  {
    name: 'diners',
    ranges: [
      ['300', '305'],
      ['3095', '3095'],
      ['36', '36'],
      ['38', '39'],
    ],
    lengths: span(14, 19),
  },
  { name: 'jcb', ranges: [['3528', '3589']], lengths: span(16, 19) },
  { name: 'unionpay', ranges: [['62', '62']], lengths: span(16, 19) },
  { name: 'mir', ranges: [['2200', '2204']], lengths: span(16, 19) },
  {
    name: 'maestro',
    ranges: [
      ['5018', '5018'],
      ['5020', '5020'],
      ['5038', '5038'],
      ['5893', '5893'],
      ['6304', '6304'],
      ['6759', '6759'],
      ['6761', '6763'],
    ],
    lengths: span(13, 19),
  },
];

/** The card network that issues this many digits starting so, or null. */
export function cardIssuer(digits: string): string | null {
  for (const issuer of ISSUERS) {
    if (!issuer.lengths.includes(digits.length)) continue;
    for (const [from, to] of issuer.ranges) {
      const head = digits.slice(0, from.length);
      if (head >= from && head <= to) return issuer.name;
    }
  }
  return null;
}

/** The Luhn check digit test (ISO/IEC 7812-1 annex B). */
export function passesLuhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/** The fewest digits a card number has: text with fewer holds none. */
export const CARD_MIN_DIGITS = 13;

/** 13 to 19 digits a card network issues: an issuer's prefix and length, and Luhn. */
export function hasCardDigits(digits: string): boolean {
  if (!/^\d{13,19}$/.test(digits)) return false;
  if (/^(\d)\1+$/.test(digits)) return false; // 0000 0000 0000 0000 is a placeholder, not a card
  return cardIssuer(digits) !== null && passesLuhn(digits);
}

/**
 * Whether digit groups of these sizes are how a card is printed or typed: fours (the last group
 * shorter: 4-4-4-4, 4-4-4-4-3, 4-4-4-1), three fours and the rest (4-4-4-7), 4-6-rest for 14 and 15
 * digits (Amex, Diners) or 4-4-5 for 13.
 */
export function isCardGrouping(groups: number[]): boolean {
  const total = groups.reduce((a, b) => a + b, 0);
  const n = groups.length;
  if (n < 2) return false;
  const fours = (upTo: number) => groups.slice(0, upTo).every((g) => g === 4);
  const last = groups[n - 1] ?? 0;
  if (fours(n - 1) && last >= 1 && last <= 4) return true;
  if (n === 4 && fours(3)) return true;
  if (n === 3 && groups[0] === 4 && groups[1] === 6 && (total === 14 || total === 15)) return true;
  return n === 3 && total === 13 && groups[0] === 4 && groups[1] === 4;
}

// Words that name a card, whole (after splitting camelCase and snake_case): "Card number:",
// "credit", "Visa ending", cardNumber, cc_num, paymentMethod. Not "cardinal", "accept" or "pay".
const CARD_WORDS = new Set([
  'card',
  'cards',
  'cardnumber',
  'cardno',
  'cardnum',
  'credit',
  'creditcard',
  'debit',
  'visa',
  'mastercard',
  'amex',
  'discover',
  'diners',
  'jcb',
  'unionpay',
  'maestro',
  'cc',
  'ccnum',
  'ccnumber',
  'payment',
  'payments',
]);

function words(text: string): string[] {
  return text
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z]+/);
}

// Every word of CARD_WORDS holds one of these: the worker asks namesCard of every key of every
// message, and almost none needs splitting into words.
const CARD_WORD_HINT = /card|cc|credit|debit|visa|amex|discover|diners|jcb|unionpay|maestro|payment/i;

/** Whether a field or JSON key, or a label, names a card (cardNumber, cc-number, "Credit card"). */
export function namesCard(text: string): boolean {
  return CARD_WORD_HINT.test(text) && words(text).some((w) => CARD_WORDS.has(w));
}

/** How far before a number a word naming a card counts ("Credit card number (required): " fits). */
export const CARD_CONTEXT_CHARS = 32;
/** ...and how many words back: a label is next to its number ("Your Visa card number is"). */
const CARD_CONTEXT_WORDS = 4;
// A sentence ends before the number ("We accept credit cards. Your order is ..."), but not at an
// abbreviation before it ("Card no. 4111...").
const SENTENCE_END = /[.!?]\s+(?=[A-Z])/g;

/** Whether the text just before a number (at index `at`) names a card. */
export function cardContextBefore(text: string, at: number): boolean {
  const from = Math.max(0, at - CARD_CONTEXT_CHARS);
  let window = text.slice(from, at);
  // A word cut by the window's edge ("...rd") is no word: start at the first word boundary.
  if (from > 0 && /[a-z]/i.test(text[from - 1] ?? '')) window = window.replace(/^[a-z]+/i, '');
  if (!CARD_WORD_HINT.test(window)) return false;
  const sentences = window.split(SENTENCE_END);
  const last = words(sentences[sentences.length - 1] ?? '').filter(Boolean);
  return last.slice(-CARD_CONTEXT_WORDS).some((w) => CARD_WORDS.has(w));
}
