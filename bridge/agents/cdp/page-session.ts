// A client session on a held tab's page: its commands go to the tab through chrome.debugger, except
// what Chrome answers per browser (the Target methods of the targets this client holds, Browser.*),
// which the browser model answers, and the profile's cookies, which become the page's own.
import type { CdpCommand } from './cdp-protocol';
import { paramsOf } from './cdp-protocol';
import type { PageSession, TabTarget } from './cdp-sessions';
import { detachAlias, replayChildren } from './child-alias';
import { relayDomainCommand } from './session-domains';
import type { SessionHost } from './session-host';

/** Target methods a page session answers from what the endpoint knows (Chrome answers them per browser). */
const BROWSER_WIDE_IN_PAGE = new Set([
  'Target.createTarget',
  'Target.closeTarget',
  'Target.activateTarget',
  'Target.getTargets',
  'Target.getBrowserContexts',
  'Target.createBrowserContext',
  'Target.disposeBrowserContext',
  'Target.attachToBrowserTarget',
]);

export class CdpPageSession implements PageSession {
  readonly kind = 'page';
  autoAttach = false;

  constructor(
    private readonly host: SessionHost,
    /** '' for the page endpoint's own session (commands without sessionId). */
    readonly id: string,
    readonly tab: TabTarget,
    readonly parent: string | undefined,
  ) {}

  /** The session id events of this session carry (none for the page endpoint's own). */
  get eventSession(): string | undefined {
    return this.id === '' ? undefined : this.id;
  }

  handle(c: CdpCommand): void {
    const { host } = this;
    const m = c.method;
    // The profile's cookies are refused in a tab; a page's own are what browser_use reads this way.
    if (m === 'Storage.getCookies') {
      void host.cookiesOfTabs(c.params, [this.tab]).then(
        (a) => ('error' in a ? host.out.fail(c.id, c.sessionId, a.error) : host.out.reply(c, a.result)),
        (e: unknown) => host.out.fail(c.id, c.sessionId, host.rejection(e)),
      );
      return;
    }
    if ((m.startsWith('Target.') || m.startsWith('Browser.')) && this.browserWide(c)) return;
    if (m === 'Target.setAutoAttach') {
      // Set before Chrome answers: it reports the frames and workers there are before its answer.
      this.autoAttach = paramsOf(c, 'Target.setAutoAttach').autoAttach === true;
      if (this.autoAttach) replayChildren(host, this, null, this.eventSession);
    } else if (m === 'Target.detachFromTarget') {
      const a = host.children.alias(String(paramsOf(c, 'Target.detachFromTarget').sessionId));
      if (a && a.owner === this) return detachAlias(host, a, c);
    }
    // Domains are kept per client session, as Chrome keeps them (domain-state.ts).
    if (relayDomainCommand(host, this, c, this.tab.tabId, undefined, this.eventSession)) return;
    host.forward(this.tab.tabId, c, undefined);
  }

  /** Target.* / Browser.* the browser answers for this page; false: the tab's Chrome answers it. */
  private browserWide(c: CdpCommand): boolean {
    const { host, tab } = this;
    const m = c.method;
    if (m === 'Target.getTargetInfo') {
      const targetId = paramsOf(c, 'Target.getTargetInfo').targetId;
      if (targetId === undefined || targetId === tab.targetId) {
        host.out.reply(c, { targetInfo: host.info(tab, 'page') });
        return true;
      }
    }
    if (m === 'Browser.getWindowForTarget' && paramsOf(c, 'Browser.getWindowForTarget').targetId === undefined) {
      host.browserCommand(host.sessions.root, { ...c, params: { ...c.params, targetId: tab.targetId } });
      return true;
    }
    const own =
      m.startsWith('Browser.') ||
      BROWSER_WIDE_IN_PAGE.has(m) ||
      (m === 'Target.attachToTarget' && host.sessions.byTarget(String(paramsOf(c, 'Target.attachToTarget').targetId)) !== undefined) ||
      (m === 'Target.detachFromTarget' && host.sessions.session(String(paramsOf(c, 'Target.detachFromTarget').sessionId)) !== undefined) ||
      (m === 'Target.getTargetInfo' && host.sessions.byTarget(String(paramsOf(c, 'Target.getTargetInfo').targetId)) !== undefined);
    if (own) host.browserCommand(host.sessions.root, c);
    return own;
  }
}
