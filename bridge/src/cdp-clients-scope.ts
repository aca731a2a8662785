// Each browser's side panel sees and controls only the CDP clients working in that browser. The CDP
// endpoint (bridge/agents/cdp) builds one cdp_clients list of every URL; the relay knows which
// browser each client's agent session works in, so it cuts the list per browser here, and refuses a
// panel's revoke/allow of a URL whose clients all work in another browser.
import type { CdpClientControlMessage, CdpClientsMessage } from '../../schemas/generated/protocol';

/** The browser an agent session works in (null: unknown session, or not bound yet). */
export type SessionBrowser = (sessionId: string) => string | null;
/** The connected browser a URL's browser name (cdp-url --browser) means, or null. */
export type NamedBrowser = (name: string) => string | null;

/** An idle URL made for another connected browser belongs to that browser's panel only. */
const madeForAnother = (c: CdpClientsMessage['clients'][number], browserId: string, named: NamedBrowser) => {
  const b = typeof c.browser === 'string' ? named(c.browser) : null;
  return b !== null && b !== browserId;
};

/** A connection whose agent session works in another browser than browserId (one still connecting, or ended, is nobody's). */
const elsewhere = (sessionId: string | null, browserId: string, browserOf: SessionBrowser) => {
  const b = sessionId === null ? null : browserOf(sessionId);
  return b !== null && b !== browserId;
};

/**
 * The list for browserId's panel: a URL's connections not working in another browser; a URL whose
 * connections all work in other browsers is left out, a URL with none (idle) is shown to every panel.
 */
export function cdpClientsFor(
  message: CdpClientsMessage,
  browserId: string,
  browserOf: SessionBrowser,
  named: NamedBrowser = () => null,
): CdpClientsMessage {
  const clients = message.clients.flatMap((c) => {
    if (c.connections.length === 0) return madeForAnother(c, browserId, named) ? [] : [c];
    const mine = c.connections.filter((k) => !elsewhere(k.session_id, browserId, browserOf));
    return mine.length === 0 ? [] : [{ ...c, connections: mine }];
  });
  return { ...message, clients };
}

/** Whether browserId's panel may act on the URL: it has no connection, or one of them works in this browser. */
export function mayControlCdpClient(
  last: CdpClientsMessage | null,
  control: CdpClientControlMessage,
  browserId: string,
  browserOf: SessionBrowser,
  named: NamedBrowser = () => null,
): boolean {
  const url = last?.clients.find((c) => c.name === control.name);
  if (!url) return true;
  if (url.connections.length === 0) return !madeForAnother(url, browserId, named);
  return url.connections.some((k) => !elsewhere(k.session_id, browserId, browserOf));
}

/** Keeps the endpoint's last full list, sends each connected browser its cut, and answers the panel's control check. */
export class CdpClientsScope {
  private last: CdpClientsMessage | null = null;

  constructor(
    private readonly browserOf: SessionBrowser,
    private readonly targets: () => string[],
    private readonly sendTo: (browserId: string, m: CdpClientsMessage) => boolean,
    private readonly named: NamedBrowser = () => null,
  ) {}

  /** true when at least one browser's extension got its list. */
  send(message: CdpClientsMessage): boolean {
    this.last = message;
    let sent = false;
    for (const id of this.targets()) sent = this.sendTo(id, cdpClientsFor(message, id, this.browserOf, this.named)) || sent;
    return sent;
  }

  /** The answer to one panel's cdp_client_control: cut for that browser. */
  forBrowser(message: CdpClientsMessage, browserId: string): CdpClientsMessage {
    return cdpClientsFor(message, browserId, this.browserOf, this.named);
  }

  mayControl(control: CdpClientControlMessage, browserId: string): boolean {
    return mayControlCdpClient(this.last, control, browserId, this.browserOf, this.named);
  }
}
