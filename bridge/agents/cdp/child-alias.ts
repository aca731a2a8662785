// A client's alias of one of Chrome's child sessions in a tab (an out-of-process frame or a worker;
// why aliases exist: child-sessions.ts). Its commands go to that child under Chrome's id; auto-attach
// and detach of nested children are answered per client, as a real browser gives each client session
// children of its own (puppeteer's CdpCDPSession per target is the model).
import type { CdpCommand } from './cdp-protocol';
import { paramsOf } from './cdp-protocol';
import type { PageSession } from './cdp-sessions';
import type { ChildAlias, ChromeChild } from './child-sessions';
import { dropAliasDomains, relayDomainCommand } from './session-domains';
import type { SessionHost } from './session-host';

export class CdpChildAlias implements ChildAlias {
  autoAttach = false;

  constructor(
    private readonly host: SessionHost,
    readonly alias: string,
    readonly child: ChromeChild,
    readonly owner: PageSession,
  ) {}

  handle(c: CdpCommand): void {
    if (c.method === 'Target.setAutoAttach') {
      this.autoAttach = paramsOf(c, 'Target.setAutoAttach').autoAttach === true;
      if (this.autoAttach) replayChildren(this.host, this.owner, this.child.id, this.alias);
    } else if (c.method === 'Target.detachFromTarget') {
      const nested = this.host.children.alias(String(paramsOf(c, 'Target.detachFromTarget').sessionId));
      if (nested && nested.owner === this.owner) return detachAlias(this.host, nested, c);
    }
    if (relayDomainCommand(this.host, this, c, this.child.tabId, this.child.id, this.alias)) return;
    this.host.forward(this.child.tabId, c, this.child.id);
  }
}

/**
 * Chrome reports a tab's frames and workers once, to its one session: a client session that asks
 * for auto-attach later gets the ones already there, under aliases of its own.
 */
export function replayChildren(host: SessionHost, owner: PageSession, parent: string | null, eventSession: string | undefined): void {
  for (const child of host.children.childrenOf(owner.tab.tabId, parent)) {
    if (host.children.aliasFor(child.id, owner)) continue;
    const a = host.children.addAlias(child, owner);
    host.out.event(eventSession, 'Target.attachedToTarget', {
      sessionId: a.alias,
      targetInfo: child.targetInfo,
      waitingForDebugger: false,
    });
  }
}

/**
 * A client detached its alias of a child: only that client loses it (as with Chrome's own child
 * sessions); Chrome's session is detached when no client knows the child any more.
 */
export function detachAlias(host: SessionHost, a: ChildAlias, c: CdpCommand): void {
  const last = host.children.removeAlias(a);
  // The last alias takes Chrome's child session with it; otherwise only this client's domains go.
  if (last) host.domains.forgetChild(a.child.tabId, a.child.id);
  else dropAliasDomains(host, a);
  host.out.event(c.sessionId === '' ? undefined : c.sessionId, 'Target.detachedFromTarget', {
    sessionId: a.alias,
    targetId: a.child.targetInfo.targetId,
  });
  host.out.reply(c, {});
  if (last) void host.tabs.request(a.child.tabId, 'Target.detachFromTarget', { sessionId: a.child.id }, a.child.parent ?? undefined);
}
