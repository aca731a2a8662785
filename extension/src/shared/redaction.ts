// Card numbers in free text, and the visible redaction marker: pure functions shared by the page's
// privacy filter (content/snapshot/privacy.ts) and the worker, which runs redactCardNumbers over every
// string that leaves the extension (background/bridge-connection.ts).
import type { Redaction } from '../../../schemas/generated/protocol';

export const redactedMarker = (reason: Redaction['reason']) => `[redacted:${reason}]`;

/** Luhn (ISO/IEC 7812) over 13 to 19 digits, spaces and dashes allowed between them. */
export function isCardNumber(text: string): boolean {
  const digits = text.replace(/[\s-]/g, '');
  if (!/^\d{13,19}$/.test(digits)) return false;
  if (/^(\d)\1+$/.test(digits)) return false; // 0000 0000 0000 0000 is a placeholder, not a card
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

// 13-19 digits, optionally grouped by single spaces or dashes, not part of a longer digit run.
const CARD_RUN = /(?<![\d.,-])\d(?:[ -]?\d){12,18}(?![\d,]|\.\d)/g;

/** Replaces every Luhn-valid card number inside free text with the payment_card marker. */
export function redactCardNumbers(text: string): string {
  if (text.length < 13 || !/\d{4}/.test(text)) return text;
  return text.replace(CARD_RUN, (m) => (isCardNumber(m) ? redactedMarker('payment_card') : m));
}
