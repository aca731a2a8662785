// Chrome's child sessions inside a tab (out-of-process frames, workers), seen by several client
// sessions at once. chrome.debugger holds ONE session per tab, so Chrome creates one child session per
// frame or worker, while a real browser gives each client session that asked for auto-attach a child
// session of its own. Two client sessions on one tab (chrome-devtools-mcp's second session on a page
// puppeteer already drives, or two clients) would otherwise get the same child id, and puppeteer then
// files the frame under the wrong parent and waits for it forever. So each client session gets its
// own alias of each child: events are fanned out under the aliases, commands map back to Chrome's id,
// and a client detaching its alias leaves the others attached. An alias is a session the client sends
// commands to (child-alias.ts); this registry is handed the function that makes one.
import type { TargetInfo, Untrusted } from './cdp-protocol';
import type { CommandTarget, PageSession } from './cdp-sessions';
import { mintId } from './cdp-sessions';

export interface ChromeChild {
  /** Chrome's session id (cdp_command session_id). */
  id: string;
  tabId: number;
  /** The Chrome child session it was attached under; null: the tab itself. */
  parent: string | null;
  /** As Chrome sent it in Target.attachedToTarget (passed on to the clients unchanged). */
  targetInfo: Untrusted<TargetInfo>;
}

export interface ChildAlias extends CommandTarget {
  /** The session id this client session knows the child by. */
  readonly alias: string;
  readonly child: ChromeChild;
  /** The client page session under which it was attached (directly or nested). */
  readonly owner: PageSession;
  /** The client asked to auto-attach this child's own children (Target.setAutoAttach on the alias). */
  autoAttach: boolean;
}

export type MakeAlias = (alias: string, child: ChromeChild, owner: PageSession) => ChildAlias;

export class ChildSessions {
  private readonly children = new Map<string, ChromeChild>();
  private readonly aliases = new Map<string, ChildAlias>();
  private readonly aliasesOfChild = new Map<string, ChildAlias[]>();

  constructor(private readonly makeAlias: MakeAlias) {}

  /** Chrome attached a child (Target.attachedToTarget of the tab or of another child). */
  addChild(id: string, tabId: number, parent: string | null, targetInfo: Untrusted<TargetInfo>): ChromeChild {
    const child: ChromeChild = { id, tabId, parent, targetInfo };
    this.children.set(id, child);
    return child;
  }

  child(id: string): ChromeChild | undefined {
    return this.children.get(id);
  }

  /** Children Chrome attached under a parent (null: the tab), for a client session that asks later. */
  childrenOf(tabId: number, parent: string | null): ChromeChild[] {
    return [...this.children.values()].filter((c) => c.tabId === tabId && c.parent === parent);
  }

  /** Chrome detached a child: its aliases go with it (answered so each owner can be told). */
  removeChild(id: string): ChildAlias[] {
    this.children.delete(id);
    const gone = this.aliasesOfChild.get(id) ?? [];
    this.aliasesOfChild.delete(id);
    for (const a of gone) this.aliases.delete(a.alias);
    return gone;
  }

  addAlias(child: ChromeChild, owner: PageSession): ChildAlias {
    const a = this.makeAlias(mintId(), child, owner);
    this.aliases.set(a.alias, a);
    const list = this.aliasesOfChild.get(child.id);
    if (list) list.push(a);
    else this.aliasesOfChild.set(child.id, [a]);
    return a;
  }

  alias(alias: string): ChildAlias | undefined {
    return this.aliases.get(alias);
  }

  aliasesOf(childId: string): readonly ChildAlias[] {
    return this.aliasesOfChild.get(childId) ?? [];
  }

  aliasFor(childId: string, owner: PageSession): ChildAlias | undefined {
    return this.aliasesOf(childId).find((a) => a.owner === owner);
  }

  /** A client detached its alias; true when no client knows the child any more. */
  removeAlias(a: ChildAlias): boolean {
    this.aliases.delete(a.alias);
    const left = this.aliasesOf(a.child.id).filter((x) => x !== a);
    if (left.length) this.aliasesOfChild.set(a.child.id, left);
    else this.aliasesOfChild.delete(a.child.id);
    return left.length === 0;
  }

  /** A client page session ended: its aliases go. */
  removeOwner(owner: PageSession): void {
    for (const a of [...this.aliases.values()]) if (a.owner === owner) this.removeAlias(a);
  }

  /** A tab ended: every child of it goes. */
  removeTab(tabId: number): void {
    for (const c of [...this.children.values()]) if (c.tabId === tabId) this.removeChild(c.id);
  }
}
