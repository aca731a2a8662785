// Redaction happens here, on the page, before anything is serialised (issue 3 "Privacy"):
//   password fields: the value never leaves the page (always);
//   autocomplete cc-* / one-time-code: withheld by default (redact_card_and_otp);
//   redact_pii: e-mail addresses and phone numbers inside values and text become [email]/[phone].
// Every redaction is reported (Redaction object or TextItem.redacted), never a silent blank.
import type { Redaction } from '../../../../schemas/generated/protocol';

export interface PrivacyOptions {
  redactPii: boolean;
  redactCardAndOtp: boolean;
}

export type SensitiveReason = 'password' | 'payment_card' | 'one_time_code';

/** Why this field's value must be withheld, or null. */
export function sensitiveReason(el: Element, opts: PrivacyOptions): SensitiveReason | null {
  if (el instanceof HTMLInputElement && el.type === 'password') return 'password';
  if (!opts.redactCardAndOtp) return null;
  const ac = (el.getAttribute('autocomplete') ?? '').toLowerCase();
  if (!ac) return null;
  const tokens = ac.split(/\s+/);
  if (tokens.some((t) => t.startsWith('cc-'))) return 'payment_card';
  if (tokens.includes('one-time-code')) return 'one_time_code';
  return null;
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

export const redactedMarker = (reason: Redaction['reason']) => `[redacted:${reason}]`;
