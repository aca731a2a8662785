// A client session on a held tab's tab target (puppeteer attaches there first): emulated, since
// chrome.debugger attaches to pages only. Its auto-attach brings the page session inside it, as
// Chrome's tab target does; other Target.* / Browser.* go to the browser, the rest is unknown there.
import type { CdpCommand } from './cdp-protocol';
import { methodNotFound, NO_SESSION_GIVEN, notFlat, paramsOf } from './cdp-protocol';
import type { TabTarget, TabTargetSession } from './cdp-sessions';
import type { SessionHost } from './session-host';

export class CdpTabSession implements TabTargetSession {
  readonly kind = 'tab';
  page: string | null = null;

  constructor(
    private readonly host: SessionHost,
    readonly id: string,
    readonly tab: TabTarget,
    readonly parent: string | undefined,
    /** Makes the page session its auto-attach brings (the model registers it). */
    private readonly attachPage: (tab: TabTarget, parent: string) => string,
  ) {}

  handle(c: CdpCommand): void {
    const { host } = this;
    switch (c.method) {
      case 'Target.setAutoAttach': {
        const p = paramsOf(c, 'Target.setAutoAttach');
        if (p.autoAttach === true && p.flatten !== true) return host.out.fail(c.id, c.sessionId, notFlat());
        if (p.autoAttach === true && this.page === null && !this.tab.gone) {
          this.page = this.attachPage(this.tab, this.id);
          host.out.event(this.id, 'Target.attachedToTarget', {
            sessionId: this.page,
            targetInfo: host.info(this.tab, 'page'),
            waitingForDebugger: false,
          });
        }
        return host.out.reply(c, {});
      }
      case 'Runtime.runIfWaitingForDebugger':
        return host.out.reply(c, {});
      case 'Target.getTargetInfo':
        return host.out.reply(c, { targetInfo: host.info(this.tab, 'tab') });
      case 'Target.detachFromTarget': {
        const id = paramsOf(c, 'Target.detachFromTarget').sessionId;
        const page = typeof id === 'string' ? host.sessions.session(id) : undefined;
        if (!page || page.kind !== 'page' || page.parent !== this.id) return host.out.fail(c.id, c.sessionId, NO_SESSION_GIVEN);
        host.detachSession(page);
        return host.out.reply(c, {});
      }
      default:
        if (c.method.startsWith('Target.') || c.method.startsWith('Browser.')) return host.browserCommand(host.sessions.root, c);
        return host.out.fail(c.id, c.sessionId, methodNotFound(c.method));
    }
  }
}
