// The name a person calls a browser by, shared by the bridge (the name it gives a browser that sent
// none) and the extension (the name pairing suggests): one rule, so both sides agree on it.

/** Browser names are 1 to 64 characters (hello.browser_name, BrowserInfo.name). */
export const BROWSER_NAME_MAX = 64;

/** Chromium browsers a person calls by one word, whatever the vendor's full brand says ("Brave Browser"). */
const WORDS = ['Edge', 'Brave', 'Opera', 'Vivaldi', 'Chromium', 'Chrome'];

/** The brand's short word (Google Chrome -> Chrome, Microsoft Edge -> Edge, Brave Browser -> Brave); another brand as it is. */
export function suggestedName(brand: string | undefined): string {
  const text = (brand ?? '').trim();
  // An old extension that sends no brand: most people run Chrome.
  if (!text) return 'Chrome';
  if (/^headless/i.test(text)) return 'Chromium'; // HeadlessChrome, as navigator's brands say it
  for (const w of WORDS) if (new RegExp(`\\b${w}\\b`, 'i').test(text)) return w;
  const short = text.replace(/^(Google|Microsoft)\s+/i, '').trim();
  return (short || 'Chrome').slice(0, BROWSER_NAME_MAX);
}

export type NameCheck = { ok: true; name: string } | { ok: false; message: string };

/** A name the person typed, as the bridge takes it (1 to 64 characters, no control characters). */
export function checkBrowserName(raw: string): NameCheck {
  const name = raw.trim().replace(/\s+/g, ' ');
  if (!name) return { ok: false, message: 'Give this browser a name, such as Work or Personal: agents choose it by that name.' };
  if (name.length > BROWSER_NAME_MAX) return { ok: false, message: `Use at most ${BROWSER_NAME_MAX} characters for the name.` };
  // eslint-disable-next-line no-control-regex -- the wire refuses control characters in a name
  if (/[\u0000-\u001f\u007f]/.test(name)) return { ok: false, message: 'Use letters, digits, spaces and punctuation only.' };
  return { ok: true, name };
}
