// Which of the person's browsers a CDP URL is answered as. One bridge serves several browsers (Chrome
// profiles, Edge, Brave...), and a URL made with `cdp-url --browser B` works in B: its /json/version and
// Browser.getVersion must name B's product and user agent, not those of whichever browser connected
// last. The endpoint is an agent beside the relay and learns the browsers as any agent does, from the
// handshake (hello_ack.browser, hello_ack.browsers) and extension_status; this keeps what it learned.
import type { BrowserInfo, ExtensionStatusMessage, HelloAckMessage } from '../../../schemas/generated/protocol';
import { type BrowserVersion, versionOfBrowser } from './discovery';

/** The browser's version as /json/version and Browser.getVersion give it; null when the bridge did not say its product. */
export function versionOfInfo(b: BrowserInfo | undefined): BrowserVersion | null {
  if (!b?.product) return null;
  return versionOfBrowser({ product: b.product, user_agent: b.user_agent ?? '' });
}

const key = (name: string): string => name.toLowerCase();

export class BrowserVersions {
  /** By browser_id, in the order the bridge listed them (its "connected first" order). */
  private readonly known = new Map<string, BrowserInfo>();
  /** What a client's own Browser.getVersion answered, by browser_id: a tab's word, kept for /json/version. */
  private readonly told = new Map<string, BrowserVersion>();
  /** Whether the bridge names browsers at all (a bridge from before several browsers sends no hello_ack.browsers). */
  namesBrowsers = false;
  /** Whether any handshake answer was seen: after one without browsers, asking again would tell nothing new. */
  heardBridge = false;

  /** A handshake's answer: every browser it lists, and the one the session works in. */
  learnAck(ack: HelloAckMessage | null): void {
    if (!ack) return;
    this.heardBridge = true;
    if (ack.browsers !== undefined) this.namesBrowsers = true;
    for (const b of ack.browsers ?? []) this.known.set(b.browser_id, b);
    if (ack.browser) this.known.set(ack.browser.browser_id, ack.browser);
  }

  /** A browser went away or came back (extension_status.browser). */
  learnStatus(m: ExtensionStatusMessage): void {
    if (m.browser) this.known.set(m.browser.browser_id, { ...m.browser, connected: m.connected });
  }

  /** A client's Browser.getVersion answer for a session working in `browser`. */
  remember(browser: BrowserInfo | undefined, v: BrowserVersion): void {
    if (browser) this.told.set(browser.browser_id, v);
  }

  /**
   * The browser a URL's client would work in: the one named (case-insensitive, as the bridge compares),
   * else the bridge's rule for an agent that names none: the only connected browser, or the one with the
   * newest last_focused_at (ties and none: the one connected first). undefined when none is known.
   */
  pick(name: string | null): BrowserInfo | undefined {
    const all = [...this.known.values()];
    if (name !== null) return all.find((b) => key(b.name) === key(name));
    const connected = all.filter((b) => b.connected);
    let best: BrowserInfo | undefined;
    for (const b of connected) if (!best || (b.last_focused_at ?? -1) > (best.last_focused_at ?? -1)) best = b;
    return best;
  }

  /** The version to answer for a browser: the bridge's word, else what a client's Browser.getVersion said. */
  versionOf(b: BrowserInfo | undefined): BrowserVersion | null {
    if (!b) return null;
    const told = this.told.get(b.browser_id);
    const said = versionOfInfo(b);
    // The bridge's product with a tab's user agent when the bridge did not pass the user agent on.
    if (said && !b.user_agent && told) return { ...said, userAgent: told.userAgent, revision: told.revision };
    return said ?? told ?? null;
  }
}
