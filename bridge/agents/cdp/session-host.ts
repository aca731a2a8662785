// What a session and a browser method may ask of the browser model (browser-model.ts implements it).
// The session classes and the method table depend on this interface, never on the model itself, so
// the model can build them without an import running back up (Playwright's dispatchers see their
// scope the same way: through what it hands them, not through its module).
import type { CdpCommand, CdpError, CommandResult, Params, TargetInfo } from './cdp-protocol';
import type { CdpSessions, ClientSession, Scope, TabTarget } from './cdp-sessions';
import type { CdpWriter } from './cdp-writer';
import type { ChildSessions } from './child-sessions';
import type { DomainState } from './domain-state';
import type { Downloads } from './downloads';
import type { TabChannel } from './tab-channel';

/** A browser-level answer; `after` runs once it is sent (events Chrome sends after the answer). */
export type Answer = { result: object; after?: () => void } | { error: CdpError };

export interface SessionHost {
  readonly out: CdpWriter;
  readonly sessions: CdpSessions;
  readonly children: ChildSessions;
  readonly tabs: TabChannel;
  /** Which client session enabled which domain on each Chrome session (domain-state.ts). */
  readonly domains: DomainState;
  /** The relay's hot path: the command to the tab (or Chrome's child session in it), Chrome's answer back. */
  forward(tabId: number, c: CdpCommand, childSession: string | undefined): void;
  /** Target.* and Browser.* answered for the browser, in the given browser-level scope. */
  browserCommand(scope: Scope, c: CdpCommand): void;
  /** A held tab as Chrome lists it: its tab target or the page inside it. */
  info(tab: TabTarget, type: 'tab' | 'page'): TargetInfo;
  /** The client detached one session (a tab session takes its page session with it). */
  detachSession(s: ClientSession): void;
  /** Chrome's answer for Storage.getCookies over these tabs (never the whole profile's). */
  cookiesOfTabs(p: Params, tabs: TabTarget[]): Promise<Answer>;
  /** A rejected call as the client sees it (the person's Stop ends the session). */
  rejection(e: unknown): CdpError;
}

/** What the Target.* / Browser.* method table needs beyond a session's view. */
export interface BrowserHost extends SessionHost {
  readonly downloads: Downloads;
  readonly windowIds: ReadonlyMap<number, number>;
  browserInfo(): TargetInfo;
  browserVersion(): Promise<{ product: string; jsVersion: string; userAgent: string }>;
  windowOf(tab: TabTarget): Promise<{ result: CommandResult<'Browser.getWindowForTarget'> } | { error: CdpError }>;
  /** targetCreated to a scope that just started discovering, for a held tab. */
  announceTo(scope: Scope, tab: TabTarget): void;
  autoAttach(scope: Scope, tab: TabTarget): void;
  attachSession(tab: TabTarget, type: 'page' | 'tab', parent: string | undefined): ClientSession;
  attachBrowser(parent: string | undefined): string;
  createTarget(c: CdpCommand): Promise<Answer>;
  targetGone(tab: TabTarget): void;
}
