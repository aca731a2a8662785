// A CDP URL the person stopped: when they press Disconnect on its client in the side panel, or Stop
// in the page it drives, the client must not walk straight back in with the same URL and be handed the
// tab they just took back. The URL's entry in cdp-clients.json is marked stopped (it survives a
// restart), every request and upgrade with it is refused with the reason, and it works again only when
// the person allows it in the side panel or a new URL of that name is made.
import type { Logger } from '../../common/log';
import { type CdpClientRecord, setCdpClientStopped } from './cdp-clients-file';

/** When the URL works again: what the stopped client is told, at the Stop and on every later try. */
const UNTIL =
  'until the person allows it again in the browser-use-ext side panel ("Allow again" on its row) ' +
  'or a new URL of that name is made with `browser-use-ext cdp-url --name NAME`.';

/** The answer to every command after the Stop, on the connection that was stopped (no tab is held any more). */
export const STOPPED_CLIENT_MESSAGE = `The person stopped this client in the browser; it no longer drives their browser, and this URL is refused ${UNTIL}`;

/** The refusal of a request or upgrade with a stopped URL (HTTP 403 body: clients print it). */
export function stoppedUrlMessage(r: CdpClientRecord): string {
  const when = r.stopped_at ? ` at ${r.stopped_at}` : '';
  return `The person stopped the client of the CDP URL "${r.name}" in the browser${when}; this URL is refused ${UNTIL.replace('NAME', r.name)}`;
}

/**
 * How a WebSocket with a stopped URL ends: accepted, then closed with this reason (1008), which clients
 * print ("received 1008 (policy violation) ..." in browser_use), where a refused upgrade shows them only
 * "HTTP 403". At most 123 bytes (RFC 6455 5.5).
 */
export const STOPPED_CLOSE_REASON =
  'the person stopped this client: "Allow again" in the side panel, or make a new URL (browser-use-ext cdp-url)';

/**
 * How long the stopped client's own socket stays open after the Stop: long enough to read why on its next
 * commands, short enough that browser_use 0.13 (which goes on while the socket is open) ends its run soon.
 */
export const STOPPED_SOCKET_GRACE_MS = 500;

/**
 * The 403 body of /json/* with a stopped URL. browser_use reads webSocketDebuggerUrl whatever the
 * status, so it is given one: on it the client gets the close reason above, and prints it.
 */
export function stoppedHttpBody(message: string, wsUrl: string): Record<string, string> {
  return { error: message, webSocketDebuggerUrl: wsUrl };
}

/** Marks the URL a connection authenticated with as stopped; a failure to write is logged (the live client still ends). */
export function markStopped(configDir: string, name: string, sha256: string, log: Logger): void {
  try {
    if (setCdpClientStopped(configDir, name, new Date(), sha256)) log.info('cdp URL stopped by the person', { name });
  } catch (e) {
    log.warn('cdp: could not mark the URL stopped; it still works after the Stop', {
      name,
      error: e instanceof Error ? e.message : String(e),
    });
  }
}
