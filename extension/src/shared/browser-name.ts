// Which browser this is, in a person's words. One bridge serves every Chrome profile and Chromium
// browser the person uses at once; agents pick one by its name (--browser Work). The brand comes from
// navigator.userAgentData.brands (https://wicg.github.io/ua-client-hints/#interface), minus the GREASE
// entry Chrome adds to keep sites from matching the list exactly ("Not?A_Brand" and its variants).
// The name the side panel suggests is the brand's short word; the bridge numbers it ("Chrome 2") when
// another browser has it already (the naming rule itself is schemas/lib/browser-names.ts, shared with
// the bridge). Shared by the worker (hello), the side panel (pairing) and Settings.
import { checkBrowserName } from '../../../schemas/lib/browser-names';

export { checkBrowserName, suggestedName } from '../../../schemas/lib/browser-names';

/** chrome.storage.local keys of this browser's identity (each profile has its own storage, so its own id and name). */
export const BROWSER_KEYS = {
  /** string: the stable id, made once by the worker (background/connection/browser-self.ts). */
  id: 'browser_id',
  /** string: the name in force, as the bridge last answered it (or as the person typed it before connecting). */
  name: 'browser_name',
} as const;

/** hello.browser.brand and BrowserInfo.brand allow at most this many characters. */
const BRAND_MAX = 40;

type Brand = { brand: string };
type NavigatorWithBrands = Navigator & { userAgentData?: { brands?: Brand[] } };

/** Chrome's GREASE brand: "Not?A_Brand", "Not_A Brand", "Not)A;Brand", "Not/A)Brand", "Not A(Brand". */
const GREASE = /not.a.brand/i;
/** Brands that only say the engine: a browser that names itself too (Google Chrome, Microsoft Edge) is that one. */
const ENGINE = /^(chromium|headlesschrome)$/i;

/** The browser's brand (Google Chrome, Microsoft Edge, Brave, Chromium, ...): headless Chromium is "Chromium". */
export function brandOf(brands: readonly Brand[] | undefined, userAgent: string): string {
  const real = (brands ?? []).map((b) => b.brand.trim()).filter((b) => b !== '' && !GREASE.test(b));
  const own = real.find((b) => !ENGINE.test(b));
  if (own) return own.slice(0, BRAND_MAX);
  if (real.length) return 'Chromium';
  // No client hints (not a Chromium of the last years): the user agent's own tokens.
  if (/\bEdg\//.test(userAgent)) return 'Microsoft Edge';
  if (/\bOPR\//.test(userAgent)) return 'Opera';
  return 'Chromium';
}

/** This browser's brand, read where the code runs (the worker or an extension page). */
export function thisBrand(nav: Navigator = navigator): string {
  return brandOf((nav as NavigatorWithBrands).userAgentData?.brands, nav.userAgent);
}

/** A stored name, if it is one the bridge would take. */
export function storedBrowserName(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const c = checkBrowserName(value);
  return c.ok ? c.name : null;
}
