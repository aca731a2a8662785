// The privacy filter, one for the whole product. Two layers:
//   1. On the page, element-aware (this module's sensitiveReason and reading helpers), used by the
//      snapshot, get (value/attribute/html/text), extract_content and the fill/type result messages:
//        password fields: the value never leaves the page (always);
//        payment card / one-time code / PIN fields: withheld by default (redact_card_and_otp), found
//        by autocomplete cc-* / one-time-code AND, without such hints, by the field's name, id,
//        placeholder, aria-label or label text, or by a value that is a Luhn-valid card number;
//        redact_pii: e-mail addresses and phone numbers inside values and text become [email]/[phone].
//   2. In the service worker, on every message that leaves the extension (bridge-connection.ts):
//      redactCardNumbers over every string, so a card number printed as page text, echoed in an
//      error or a message is caught whatever produced it.
// Every redaction is reported (Redaction object or TextItem.redacted, or the visible marker), never
// a silent blank. The worker's part (card numbers in free text) lives in shared/redaction.ts.
import { isCardNumber, redactCardNumbers, redactedMarker } from '../../shared/redaction';

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

/** Why this field's value must be withheld, or null. */
export function sensitiveReason(el: Element, opts: PrivacyOptions): SensitiveReason | null {
  const isInput = el instanceof HTMLInputElement;
  if (isInput && el.type === 'password') return 'password';
  if (!opts.redactCardAndOtp) return null;
  const ac = (el.getAttribute('autocomplete') ?? '').toLowerCase();
  if (ac) {
    const tokens = ac.split(/\s+/);
    if (tokens.some((t) => t.startsWith('cc-'))) return 'payment_card';
    if (tokens.includes('one-time-code')) return 'one_time_code';
  }
  if (!(isInput && FIELD_TYPES_WITH_SECRETS.has(el.type)) && !(el instanceof HTMLTextAreaElement)) return null;
  const hints = [
    el.getAttribute('name'),
    el.id,
    el.getAttribute('placeholder'),
    el.getAttribute('aria-label'),
    ...(isInput || el instanceof HTMLTextAreaElement ? Array.from(el.labels ?? [], (l) => l.textContent) : []),
  ]
    .filter((x): x is string => !!x)
    .join(' ');
  if (hints) {
    if (CARD_HINT.test(hints)) return 'payment_card';
    if (OTP_HINT.test(hints)) return 'one_time_code';
  }
  const value = (el as HTMLInputElement | HTMLTextAreaElement).value ?? '';
  if (value && isCardNumber(value)) return 'payment_card';
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

/**
 * outerHTML with what the snapshot would withhold taken out: value attributes (and textarea text)
 * of sensitive fields inside (a password prefilled in the page's HTML), card numbers anywhere.
 */
export function readableHtml(el: Element, opts: PrivacyOptions = DEFAULT_PRIVACY): string {
  const fields = [el, ...el.querySelectorAll('input, textarea')].filter(
    (f) => f instanceof HTMLInputElement || f instanceof HTMLTextAreaElement,
  );
  const sensitive = fields.filter((f) => sensitiveReason(f, opts) !== null);
  if (!sensitive.length) return redactCardNumbers(el.outerHTML);
  const clone = el.cloneNode(true) as Element;
  const cloneFields = [clone, ...clone.querySelectorAll('input, textarea')].filter(
    (f) => f instanceof HTMLInputElement || f instanceof HTMLTextAreaElement,
  );
  // querySelectorAll order is document order in both trees, so indexes match.
  fields.forEach((f, i) => {
    const c = cloneFields[i];
    if (!c || !sensitive.includes(f)) return;
    const marker = redactedMarker(sensitiveReason(f, opts) ?? 'password');
    if (c.hasAttribute('value')) c.setAttribute('value', marker);
    if (c instanceof HTMLTextAreaElement) c.textContent = marker;
  });
  return redactCardNumbers(clone.outerHTML);
}

const MASK_ATTR = 'data-bux-masked';

/**
 * Screenshots: while on, card, CVC, one-time-code and PIN fields of this document are
 * drawn as discs (password fields already are); returns how many fields were masked. The worker
 * turns it on right before capturing and off right after.
 */
export function maskSecretFields(on: boolean): number {
  let n = 0;
  if (!on) {
    for (const el of document.querySelectorAll<HTMLElement>(`[${MASK_ATTR}]`)) {
      el.style.removeProperty('-webkit-text-security');
      el.style.removeProperty('color');
      el.removeAttribute(MASK_ATTR);
    }
    return 0;
  }
  for (const el of document.querySelectorAll<HTMLElement>('input, textarea')) {
    const reason = sensitiveReason(el, DEFAULT_PRIVACY);
    if (!reason || reason === 'password') continue;
    el.setAttribute(MASK_ATTR, '');
    el.style.setProperty('-webkit-text-security', 'disc', 'important');
    if (el instanceof HTMLTextAreaElement) el.style.setProperty('color', 'transparent', 'important');
    n++;
  }
  return n;
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
