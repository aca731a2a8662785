// A browser-level session: the connection itself (no sessionId) or one the client opened with
// Target.attachToBrowserTarget. Each is a scope with its own discovery and auto-attach, as in
// Chrome; every command is the browser model's (its method table answers or refuses it).
import type { CdpCommand } from './cdp-protocol';
import type { BrowserSession, Scope } from './cdp-sessions';
import type { SessionHost } from './session-host';

export class CdpBrowserSession implements BrowserSession {
  readonly kind = 'browser';

  constructor(
    private readonly host: SessionHost,
    readonly id: string,
    readonly scope: Scope,
  ) {}

  handle(c: CdpCommand): void {
    this.host.browserCommand(this.scope, c);
  }
}
