// Events from the held tabs (cdp_event) to the client sessions that should see them: the tab's own
// events to each page session of it, a child's to each client alias of it (an event of a tracked
// domain only to the sessions that enabled it, as Chrome: domain-state.ts), children attached and
// detached under aliases of each client session that asked, downloads as Browser.* events, and the
// url/title each target reports kept current. Event params are serialized once however many sessions
// get them. A debugger the extension lost (not the person's choice) is attached again as a new target.
import type { Protocol } from 'devtools-protocol';

import type { CdpEventMessage } from '../../../schemas/generated/protocol';
import type { BrowserModel } from './browser-model';
import { eventParams, isObject, objectOf, type Params, type TargetInfo } from './cdp-protocol';
import type { PageSession, TabTarget } from './cdp-sessions';
import { POPUP_EVENT, Popups } from './popups';

export class EventRouter {
  private readonly popups: Popups;

  constructor(
    private readonly model: BrowserModel,
    private readonly log: { info(message: string, fields?: Record<string, unknown>): void },
    /** False once the connection is disposed: nothing more is routed. */
    private readonly live: () => boolean,
  ) {
    this.popups = new Popups(model, log, live);
  }

  route(m: CdpEventMessage): void {
    const { model } = this;
    if (!this.live() || model.ended !== null) return;
    const tab = model.sessions.tab(m.tab_id);
    if (!tab || tab.gone) return;
    const { method, params } = m;
    const from = m.session_id ?? null;
    if (method === POPUP_EVENT && from === null) return this.popups.opened(tab, params);
    if (method === 'Inspector.detached' && from === null) {
      model.targetGone(tab);
      const reason = eventParams(params, 'Inspector.detached').reason;
      if (reason === 'worker_restarted' || reason === 'bridge_disconnected') void this.reattach(tab.tabId);
      return;
    }
    if (method === 'Target.attachedToTarget' && typeof eventParams(params, method).sessionId === 'string')
      return this.childAttached(tab, from, params);
    if (method === 'Target.detachedFromTarget' && typeof eventParams(params, method).sessionId === 'string')
      return this.childDetached(tab, from, params);
    const json = JSON.stringify(params);
    // Only the sessions that enabled the event's domain get it, as each has its own in Chrome (domain-state.ts).
    const domains = model.domains.find(tab.tabId, from ?? undefined);
    if (from !== null) {
      const aliases = model.children.aliasesOf(from);
      for (const a of domains ? domains.recipients(method, params, json, aliases) : aliases) model.out.eventJson(a.alias, method, json);
      return;
    }
    this.noteTabEvent(tab, method, params);
    const pages = model.sessions.pageSessions(tab.tabId);
    for (const ps of domains ? domains.recipients(method, params, json, pages) : pages)
      model.out.eventJson(ps.id === '' ? undefined : ps.id, method, json);
  }

  /**
   * Chrome attached a frame or worker of the tab (from: null) or of a child: each client session that
   * asked for auto-attach there gets it under an alias of its own. Nobody asked: a child Chrome paused
   * for a debugger is let go, or the person's frame would stay blank.
   */
  private childAttached(tab: TabTarget, from: string | null, params: Params): void {
    const { model } = this;
    if (from !== null && !model.children.child(from)) return;
    const p = eventParams(params, 'Target.attachedToTarget');
    const child = model.children.addChild(String(p.sessionId), tab.tabId, from, objectOf<TargetInfo>(p.targetInfo));
    const to: { owner: PageSession; session: string | undefined }[] =
      from === null
        ? model.sessions
            .pageSessions(tab.tabId)
            .filter((ps) => ps.autoAttach)
            .map((ps) => ({ owner: ps, session: ps.id === '' ? undefined : ps.id }))
        : model.children
            .aliasesOf(from)
            .filter((a) => a.autoAttach)
            .map((a) => ({ owner: a.owner, session: a.alias }));
    for (const { owner, session } of to)
      model.out.event(session, 'Target.attachedToTarget', { ...params, sessionId: model.children.addAlias(child, owner).alias });
    if (to.length === 0 && p.waitingForDebugger === true)
      void model.tabs.request(tab.tabId, 'Runtime.runIfWaitingForDebugger', {}, child.id);
  }

  /** Chrome detached a child: every client that knew it is told under its own alias. */
  private childDetached(tab: TabTarget, from: string | null, params: Params): void {
    const { model } = this;
    const id = String(eventParams(params, 'Target.detachedFromTarget').sessionId);
    model.domains.forgetChild(tab.tabId, id);
    for (const a of model.children.removeChild(id)) {
      const session = from === null ? (a.owner.id === '' ? undefined : a.owner.id) : model.children.aliasFor(from, a.owner)?.alias;
      if (from !== null && session === undefined) continue;
      model.out.event(session, 'Target.detachedFromTarget', { ...params, sessionId: a.alias });
    }
  }

  /**
   * The extension lost the tab's debugger through no choice of the person's (its service worker
   * restarted, or the bridge was out of reach long enough that it let go): the tab is still this
   * client's. The old page was reported gone (targetGone) and is not revived: Chrome forgot all the
   * client had set up in it (enabled domains, scripts for new documents, auto-attach, bindings), which
   * the emulator cannot replay in general, and a page that seemed to live on would leave the client
   * waiting for events that never come. Instead the tab is attached again and announced as a new
   * target, the way a newly opened tab is: the client picks it up as it picks up any new page
   * (auto-attach, targetCreated). The person's own detach (the debugging bar's Cancel) and a closed
   * tab are never undone.
   */
  private async reattach(tabId: number): Promise<void> {
    const attached = await this.model.attachTab(tabId);
    if (!this.live() || this.model.ended !== null) return;
    if (!attached.ok) {
      this.log.info('cdp: a tab whose debugger the extension lost could not be attached again', { message: attached.error.message });
      return;
    }
    this.model.announce(attached.tab);
  }

  /** Keeps url/title current (targetInfoChanged, as Chrome) and turns downloads into Browser events. */
  private noteTabEvent(tab: TabTarget, method: string, params: Params): void {
    const { model } = this;
    if (method === 'Page.frameNavigated') {
      const frame = eventParams(params, method).frame;
      const f = objectOf<Protocol.Page.Frame>(frame);
      if (!isObject(frame) || f.parentId !== undefined) return;
      const url = `${String(f.url ?? '')}${typeof f.urlFragment === 'string' ? f.urlFragment : ''}`;
      // At commit Chrome names a page by its URL without the scheme (the <title> is not parsed yet),
      // and sends no event when the title arrives: browser_use 0.13 matches its tab list against the
      // page's title mid-capture, so a late title-only update made it lose its current tab.
      model.setInfo(tab, url, titleAtCommit(url));
    } else if (method === 'Page.navigatedWithinDocument') {
      const p = eventParams(params, method);
      if (p.frameId === tab.targetId && typeof p.url === 'string') model.setInfo(tab, p.url, tab.title);
    } else if (method === 'Target.targetInfoChanged') {
      const info = objectOf<TargetInfo>(eventParams(params, method).targetInfo);
      if (info.targetId === tab.targetId) model.setInfo(tab, String(info.url ?? tab.url), String(info.title ?? tab.title));
    } else if (method === 'Page.loadEventFired' || method === 'Page.domContentEventFired') {
      model.refreshTitleSoon(tab);
    } else if (method.startsWith('Page.download')) {
      const translated = model.downloads.translate(method, params);
      if (translated)
        for (const scope of model.sessions.scopes())
          if (scope.downloadEvents) model.out.event(scope.sessionId, translated.method, translated.params);
    }
  }
}

/** The title Chrome gives a page when it commits: its URL without the scheme (about:blank stays so). */
export function titleAtCommit(url: string): string {
  return /^https?:\/\//.test(url) ? url.replace(/^https?:\/\//, '') : url;
}
