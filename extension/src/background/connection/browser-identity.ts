// The browser the extension runs in, told to the bridge in hello.browser: the bridge's CDP endpoint
// answers /json/version with it from the first request, as Chrome's own endpoint does (Browser
// "Chrome/144.0.7559.0", User-Agent), where it could otherwise only ask a tab a client already holds.
// navigator.userAgent says Chrome/<major>.0.0.0 since Chrome's user-agent reduction; the full version
// is in the worker's navigator.userAgentData (https://wicg.github.io/ua-client-hints/#getHighEntropyValues).
// The product is Chrome/<version> even in headless mode, where the user agent says HeadlessChrome:
// that is what Chrome's own Browser.getVersion answers there. The brand (Google Chrome, Microsoft Edge,
// Chromium) lets the bridge and the panel tell several browsers apart and suggest a name for each.
import type { HelloMessage } from '../../../../schemas/generated/protocol';
import { thisBrand } from '../../shared/browser-name';

export type HelloBrowser = NonNullable<HelloMessage['browser']>;

interface UserAgentData {
  getHighEntropyValues(hints: string[]): Promise<{ fullVersionList?: { brand: string; version: string }[] }>;
}

/** What the browser says of itself (the same every time in one worker); null when it is not a Chrome it recognises. */
export async function browserIdentity(nav: Navigator = navigator): Promise<HelloBrowser | null> {
  const ua = nav.userAgent;
  const token = /\b(HeadlessChrome|Chrome)\/(\d+)\.\d+\.\d+\.\d+/.exec(ua);
  if (!token || ua.length > 1000) return null;
  const major = token[2] ?? '0';
  let version = `${major}.0.0.0`;
  try {
    const data = (nav as Navigator & { userAgentData?: UserAgentData }).userAgentData;
    const list = (await data?.getHighEntropyValues(['fullVersionList']))?.fullVersionList ?? [];
    const full = list.find((b) => /Chrom/.test(b.brand) && b.version.startsWith(`${major}.`))?.version;
    if (full && /^\d+\.\d+\.\d+\.\d+$/.test(full)) version = full;
  } catch {
    // Only the reduced version is known then.
  }
  return { product: `Chrome/${version}`, user_agent: ua, brand: thisBrand(nav) };
}
