// Carries out domain-state.ts's plans for one client session's command: a disable another session
// still needs is answered here, a second Runtime.enable gets the contexts there are, Fetch.enable
// becomes the union of every session's patterns, and an enable Chrome refused is not counted. A
// session that goes away (detached, or its page session did) gives up its domains, and Chrome is told
// to turn off those no session needs any more, as Chrome does when a DevTools session closes.
import type { CdpCommand } from './cdp-protocol';
import { SERVER_ERROR } from './cdp-protocol';
import type { PageSession } from './cdp-sessions';
import type { ChildAlias } from './child-sessions';
import { DOMAIN_COMMANDS, type Sub } from './domain-state';
import type { SessionHost } from './session-host';
import { CDP_CALL_TIMEOUT_MS } from './tab-channel';

/**
 * A client command on a tab's page (child undefined) or a Chrome child session: true when handled
 * here, false when it goes to Chrome as it came (the session then forwards it).
 */
export function relayDomainCommand(
  host: SessionHost,
  sub: Sub,
  c: CdpCommand,
  tabId: number,
  child: string | undefined,
  eventSession: string | undefined,
): boolean {
  if (!DOMAIN_COMMANDS.has(c.method)) return false;
  const plan = host.domains.of(tabId, child).plan(sub, c.method, c.params);
  if (plan.kind === 'answer') {
    for (const json of plan.replay) host.out.eventJson(eventSession, 'Runtime.executionContextCreated', json);
    host.out.reply(c, {});
    return true;
  }
  if (plan.kind === 'forward' && plan.undo === undefined) return false;
  const send = plan.kind === 'send' ? plan : { method: c.method, params: c.params, after: [] };
  host.tabs.sendToTab({ tabId, sessionId: child, method: send.method, params: send.params, timeoutMs: CDP_CALL_TIMEOUT_MS }, (a) => {
    if (!a.ok) {
      plan.undo?.();
      return host.out.fail(c.id, c.sessionId, a.error);
    }
    if (!a.result) {
      plan.undo?.();
      return host.out.fail(c.id, c.sessionId, {
        code: SERVER_ERROR,
        message: 'The extension answered without a result; the command may not have run.',
      });
    }
    host.out.reply(c, plan.kind === 'send' ? {} : a.result);
    for (const cmd of send.after ?? []) void host.tabs.request(tabId, cmd.method, cmd.params, child);
  });
  return true;
}

/** A page session ended (detached): its domains and its aliases' go; Chrome turns off what nobody needs. */
export function dropPageDomains(host: SessionHost, s: PageSession): void {
  dropWhere(host, s.tab.tabId, (x) => x === s || ('owner' in x && x.owner === s));
}

/** A client detached its alias of a child session. */
export function dropAliasDomains(host: SessionHost, a: ChildAlias): void {
  dropWhere(host, a.child.tabId, (x) => x === a);
}

function dropWhere(host: SessionHost, tabId: number, gone: (s: Sub) => boolean): void {
  for (const { child, commands } of host.domains.drop(tabId, gone))
    for (const cmd of commands) void host.tabs.request(tabId, cmd.method, cmd.params, child);
}
