// The agent side of the bridge: every kind of agent (Python shim, TypeScript client, MCP clients
// through mcp/bridge-link.ts, seed 000/001 connectors, the seed 002 agent) is an ordinary agent
// session here, with one interface: sessions lease tabs (sessions.ts), actions for one
// tab run one at a time (tab-queue.ts) and go to the extension through extension-link.ts, tasks a
// person submits are relayed (tasks.ts), and the person's controls from the side panel
// apply (agent-sessions.ts). server.ts routes an agent's messages here after its handshake.
// Each session works in one browser (browsers.ts: the one it named, else the default rule), and
// everything it does goes to that browser's link: tab ids, queues, the tab limit, tasks, Stop.
import type {
  ActionMessage,
  ActionResultMessage,
  BrowserInfo,
  CdpCommandMessage,
  CdpEventMessage,
  CdpResultMessage,
  ErrorInfo,
  HelloMessage,
  PersistenceStatusMessage,
  ProtocolMessage,
  SessionControlMessage,
  StateUpdateMessage,
  TabReleasedMessage,
  TaskControlMessage,
  TaskProgressMessage,
  UserTaskSubmissionMessage,
} from '../../schemas/generated/protocol';
import { PROTOCOL_VERSION } from '../../schemas/generated/registry';
import { CLOSE_CODES } from '../../schemas/lib/close-codes';
import { errorInfo } from '../../schemas/lib/wire';
import { cdpTraceMark } from '../common/cdp-trace';
import type { Logger } from '../common/log';
import { BRIDGE_NAME, BRIDGE_VERSION } from '../common/version';
import { cappedMaxTabs, holderDescription, resolveControl, type SessionsPublisher, takeOverFromPredecessor } from './agent-sessions';
import { answerMismatch, BROWSER_LEVEL, closeAnswerForAgent, mismatchError } from './answer-check';
import { type BrowserRegistry, sameName } from './browsers';
import { cdpFailure } from './cdp-in-flight';
import { errorResult, type ExtensionLink, noExtension } from './extension-link';
import { CLOSE, type Peer } from './peer';
import { relayText } from './raw-relay';
import type { Released, Session, SessionRegistry } from './sessions';
import { tabLimitRefusal } from './tab-limit';
import { TabQueues } from './tab-queue';
import { childrenOf, linkToTask, taskParent } from './task-children';
import { FINAL_TASK_STATUSES, type TaskRegistry } from './tasks';

type Target = { ok: true; tabId: number | null } | { ok: false; error: ErrorInfo };

export interface AgentGatewayOptions {
  log: Logger;
  sessions: SessionRegistry;
  tasks: TaskRegistry;
  publisher: SessionsPublisher;
  browsers: BrowserRegistry;
  /** Default tab limit per agent session (seed 002); hello.max_tabs overrides it per session. */
  maxTabsPerSession: number;
  /** Default per-action timeout when the action has no timeout_ms. */
  defaultTimeoutMs: number;
  /** How long a disconnected agent's session waits to be resumed (named in messages). */
  sessionGraceMs: number;
}

export class AgentGateway {
  private readonly agents = new Set<Peer>();
  private readonly sessionOf = new Map<Peer, Session>();
  /** Keyed on browser and tab (or the browser's active tab): two browsers' tab 5 are two queues. */
  private readonly queues = new TabQueues<string>();
  /** The person's cap on tabs per agent, per browser (its extension's settings, session_control set_tab_limit). */
  private readonly personMaxTabs = new Map<string, number | null>();
  /** What cannot be saved right now (sessions.json, the action journal) and why (an errno code). */
  private readonly notSaving = new Map<'sessions' | 'actions', string>();

  constructor(private readonly o: AgentGatewayOptions) {}

  broadcast(message: ProtocolMessage): void {
    for (const a of this.agents) if (a.ready) a.send(message);
  }

  /** To the agents working in one browser only (its extension left or came back), naming it. */
  broadcastToBrowser(browserId: string, message: ProtocolMessage): void {
    const browser = this.o.browsers.info(browserId);
    const named = message.type === 'extension_status' && browser ? { ...message, browser } : message;
    for (const a of this.agents) if (a.ready && this.sessionOf.get(a)?.browserId === browserId) a.send(named);
  }

  /** Agents and held tabs per browser (BrowserInfo counts). */
  countsOf(browserId: string): { agents: number; heldTabs: number } {
    const mine = this.o.sessions.all().filter((s) => s.browserId === browserId);
    return { agents: mine.length, heldTabs: mine.reduce((n, s) => n + s.tabs.size, 0) };
  }

  /**
   * A browser's extension is up: sessions waiting for a first browser (none named, none connected at
   * their handshake) and sessions that named this browser now work in it, and are told so.
   */
  onBrowserUp(browserId: string): void {
    const name = this.o.browsers.nameOf(browserId);
    for (const session of this.o.sessions.all()) {
      if (session.browserId !== null) continue;
      if (session.wantedBrowser !== null && (name === null || !sameName(session.wantedBrowser, name))) continue;
      this.bind(session, browserId);
      const browser = this.o.browsers.info(browserId);
      session.peer?.send({
        type: 'extension_status',
        connected: true,
        message: `The browser "${name ?? browserId}" connected to the bridge; your session works in it.`,
        ...(browser ? { browser } : {}),
      });
    }
  }

  private bind(session: Session, browserId: string): void {
    this.o.sessions.bind(session, browserId);
    session.maxTabs = cappedMaxTabs(session.requestedMaxTabs, this.personMaxTabs.get(browserId) ?? null);
    this.o.publisher.schedule();
  }

  /**
   * The browser the session acts in: the one it is bound to, else (binding it now) the connected one it
   * named or the default rule's. 'wait': it named none and none is connected, but one was here and
   * left (or sessions were just restored): the action waits for the first browser within its timeout.
   */
  private bindNow(session: Session): { ok: true; link: ExtensionLink } | { ok: false; error: ErrorInfo } | 'wait' {
    const { browsers } = this.o;
    if (session.browserId === null) {
      const id = session.wantedBrowser === null ? browsers.defaultBrowser() : browsers.forAgentName(session.wantedBrowser);
      if (id !== null) this.bind(session, id);
      else if (session.wantedBrowser !== null)
        return { ok: false, error: browserNotConnected(session.wantedBrowser, browsers.connectedNames()) };
      else if (browsers.anyAway()) return 'wait';
      else return { ok: false, error: noExtension() };
    }
    return { ok: true, link: browsers.link(session.browserId as string) };
  }

  private linkOf(session: Session): ExtensionLink {
    return this.o.browsers.link(session.browserId as string);
  }

  /**
   * A store started failing (error) or works again (null). Agents are told when the bridge goes from
   * saving everything to not (persistence_status durable false) and back, once each way: a full disk
   * fails every write, and an agent needs one notice, not one per action.
   */
  onPersistence(store: 'sessions' | 'actions', error: unknown): void {
    const before = this.notSaving.size > 0;
    if (error === null) this.notSaving.delete(store);
    else this.notSaving.set(store, errnoCode(error));
    if (before !== this.notSaving.size > 0) this.broadcast(this.persistenceStatus());
  }

  private persistenceStatus(): PersistenceStatusMessage {
    if (this.notSaving.size === 0)
      return {
        type: 'persistence_status',
        durable: true,
        message: 'The bridge saves sessions and action ids to disk again: your session and its tabs survive a bridge restart.',
      };
    const why = [...this.notSaving.entries()].map(([store, code]) => `${store === 'sessions' ? 'sessions' : 'action ids'}: ${code}`);
    return {
      type: 'persistence_status',
      durable: false,
      message: `The bridge cannot save to its config dir right now (${why.join('; ')}; a full disk or a read-only folder). Everything works as before while it runs. If the bridge restarts before saving works again, your session is not resumed (you start a new one; your tabs stay open but must be leased again), and an action re-sent across that restart may run a second time: after a restart, take a new state before repeating anything. You are told when saving works again.`,
    };
  }

  /** Closes every agent connection (bridge shutdown); sessions stay on disk to be resumed. */
  closeAll(): void {
    for (const a of this.agents) a.close(CLOSE.goingAway, 'bridge shutting down');
  }

  // --- handshake done: a new or resumed session ----------------------------------------------

  onReady(peer: Peer, hello: HelloMessage): void {
    const { sessions } = this.o;
    let session = hello.session_token ? sessions.find(hello.session_token) : null;
    const resumed = session !== null;
    if (session) {
      const old = session.peer;
      sessions.attach(session, peer);
      if (old && old !== peer) {
        this.sessionOf.delete(old);
        old.close(CLOSE.normal, 'session resumed by a newer connection');
      }
      if (hello.max_tabs !== undefined) session.requestedMaxTabs = hello.max_tabs;
    } else {
      session = sessions.create(peer, hello.max_tabs ?? this.o.maxTabsPerSession);
    }
    // A session not bound yet follows what its latest hello names; a bound one stays in its browser.
    if (session.browserId === null) session.wantedBrowser = hello.browser_name ?? null;
    // Bound now when its browser is connected; else when that browser connects (onBrowserUp) or it acts.
    if (session.browserId === null) {
      const id = session.wantedBrowser === null ? this.o.browsers.defaultBrowser() : this.o.browsers.forAgentName(session.wantedBrowser);
      if (id !== null) this.o.sessions.bind(session, id);
    }
    if (hello.task_id !== undefined) linkToTask(session, taskParent(session, hello.task_id, this.o.tasks, sessions), hello.task_id);
    session.maxTabs = cappedMaxTabs(
      session.requestedMaxTabs,
      session.browserId === null ? null : (this.personMaxTabs.get(session.browserId) ?? null),
    );
    this.o.publisher.schedule();
    this.sessionOf.set(peer, session);
    this.agents.add(peer);
    peer.send({
      type: 'hello_ack',
      protocol_version: PROTOCOL_VERSION,
      bridge: { name: BRIDGE_NAME, version: BRIDGE_VERSION },
      session_id: session.id,
      extension_connected: session.browserId !== null && this.linkOf(session).connected,
      session_token: session.token ?? hello.session_token ?? '',
      resumed,
      max_tabs: session.maxTabs,
      leased_tab_ids: [...session.tabs.keys()],
      ...this.browserAck(session),
    });
    if (this.notSaving.size > 0) peer.send(this.persistenceStatus());
    this.o.log.info(resumed ? 'agent resumed its session' : 'agent connected', {
      peer: peer.id,
      session: session.id,
      client: peer.client,
      browser: this.o.browsers.nameOf(session.browserId),
    });
  }

  private browserAck(session: Session): { browser?: BrowserInfo; browsers: BrowserInfo[] } {
    const browser = session.browserId === null ? undefined : this.o.browsers.info(session.browserId);
    return { ...(browser ? { browser } : {}), browsers: this.o.browsers.list() };
  }

  // --- actions -------------------------------------------------------------------

  onAction(peer: Peer, action: ActionMessage, waitedUntil?: number): void {
    const { sessions } = this.o;
    const session = this.sessionOf.get(peer);
    if (!session) return;
    // Idempotent ids: a re-sent action (same session, same action_id) gets the recorded result.
    const recorded = session.results.get(action.action_id);
    if (recorded) {
      peer.send(recorded);
      return;
    }
    // Still running (the agent reconnected and re-sent it): the running one answers session.peer.
    if (session.running.has(action.action_id)) return;
    const bound = this.bindNow(session);
    if (bound === 'wait') {
      // No browser yet: wait for the first one within the action's timeout, then act as if just sent.
      const until = waitedUntil ?? Date.now() + (action.timeout_ms ?? this.o.defaultTimeoutMs);
      session.running.add(action.action_id);
      void this.o.browsers.waitForAny(until).then((id) => {
        session.running.delete(action.action_id);
        if (id !== null) return this.onAction(peer, action, until);
        session.running.add(action.action_id);
        sessions.beginAction(session, action);
        this.finishAction(session, action, null, errorResult(action, noExtension()));
      });
      return;
    }
    if (!bound.ok) {
      // Recorded like any answer: a re-sent id gets the same refusal.
      session.running.add(action.action_id);
      sessions.beginAction(session, action);
      return this.finishAction(session, action, null, errorResult(action, bound.error));
    }
    if (action.action === 'get_cookies') {
      const scoped = this.cookieScope(session, action);
      if (!scoped.ok) return void peer.send(errorResult(action, scoped.error));
      action = scoped.action;
    }
    const target = this.targetOf(session, action);
    if (!target.ok) {
      peer.send(errorResult(action, target.error));
      return;
    }
    const pastLimit = tabLimitRefusal(session, action, target.tabId);
    if (pastLimit) return void peer.send(errorResult(action, pastLimit));
    session.running.add(action.action_id);
    // On disk before the extension can act on it: a bridge crashing from here on never reruns it.
    sessions.beginAction(session, action);
    const timeoutMs = action.timeout_ms ?? this.o.defaultTimeoutMs;
    const deadline = waitedUntil ?? Date.now() + timeoutMs;
    void this.queues
      .run(`${session.browserId}\n${target.tabId ?? 'active'}`, () => this.execute(session, action, target.tabId, deadline, timeoutMs))
      .then(({ result, sentTab }) => this.finishAction(session, action, sentTab, result));
  }

  /**
   * get_cookies reads only the sites of this session's own tabs: every tab it names must be leased by
   * this session already (no hand-over of the active tab or of a free tab, unlike other actions), and
   * without tab_ids the extension gets all of them. So an agent never reads the cookies of a site
   * only the person or another agent has open.
   */
  private cookieScope(session: Session, action: ActionMessage): { ok: true; action: ActionMessage } | { ok: false; error: ErrorInfo } {
    const { sessions } = this.o;
    const held = [...session.tabs.keys()];
    const asked = (action.params as { tab_ids?: number[] }).tab_ids;
    const named = [...(asked ?? []), ...(action.tab_id === undefined ? [] : [action.tab_id])];
    for (const tabId of named) {
      if (sessions.ownerOf(session.browserId, tabId) === session) continue;
      const owner = sessions.ownerOf(session.browserId, tabId);
      return {
        ok: false,
        error: owner
          ? notLeased(tabId, holderDescription(owner, this.o.sessionGraceMs))
          : errorInfo(
              'TAB_NOT_LEASED',
              `Tab ${tabId} is not one of this session's tabs, and get_cookies reads only the sites of your own tabs. Act on the tab first (get_state with its tab_id leases it), or leave tab_ids out to read all of yours (hello_ack.leased_tab_ids, open_tab results).`,
              'bridge',
              { tab_id: tabId },
            ),
      };
    }
    const tabIds = asked?.length ? asked : held;
    if (tabIds.length === 0)
      return {
        ok: false,
        error: errorInfo(
          'TAB_NOT_LEASED',
          'This session holds no tab yet, so there is no site to read cookies of. Take a state (get_state) or open a tab (open_tab) on the site first.',
          'bridge',
        ),
      };
    // Routed through a tab the session holds, its current tab when it has one (the answer leases the
    // routing tab as current again: nothing changes); the extension reads params.tab_ids.
    const via = action.tab_id ?? session.currentTab ?? tabIds[0];
    return { ok: true, action: { ...action, tab_id: via, params: { ...action.params, tab_ids: tabIds } } };
  }

  /** Which tab the action goes to, refusing another session's tabs (TAB_NOT_LEASED). */
  private targetOf(session: Session, action: ActionMessage): Target {
    const { sessions } = this.o;
    const paramTab = numberField(action.params, 'tab_id');
    for (const tabId of [action.tab_id, paramTab]) {
      if (tabId === undefined) continue;
      const owner = sessions.ownerOf(session.browserId, tabId);
      if (owner && owner !== session && !takeOverFromPredecessor(sessions, owner, session))
        return { ok: false, error: notLeased(tabId, holderDescription(owner, this.o.sessionGraceMs)) };
    }
    if (action.tab_id !== undefined) return { ok: true, tabId: action.tab_id };
    if (session.currentTab !== null) return { ok: true, tabId: session.currentTab };
    // Implicit hand-over: a session with no tab yet gets the browser's active tab (execute() checks
    // it is nobody else's when other sessions hold tabs).
    return { ok: true, tabId: null };
  }

  /** Runs the action; sentTab: the tab it was meant for (null: the browser or its active tab). */
  private async execute(
    session: Session,
    action: ActionMessage,
    target: number | null,
    deadline: number,
    timeoutMs: number,
  ): Promise<{ result: ActionResultMessage; sentTab: number | null }> {
    const { sessions } = this.o;
    let tabId = target;
    // Checked again here, in the tab's queue: two sessions that name the same free tab at once both
    // pass targetOf, and the first one's action leases it. The second must not act on it then.
    const owner = tabId === null ? null : sessions.ownerOf(session.browserId, tabId);
    if (tabId !== null && owner && owner !== session && !takeOverFromPredecessor(sessions, owner, session))
      return { result: errorResult(action, notLeased(tabId, holderDescription(owner, this.o.sessionGraceMs))), sentTab: target };
    if (tabId === null && sessions.othersHoldTabs(session) && !BROWSER_LEVEL.has(action.action)) {
      const active = await this.linkOf(session).activeTab(deadline);
      if (!active.ok) return { result: errorResult(action, active.error), sentTab: target };
      const owner = sessions.ownerOf(session.browserId, active.tabId);
      if (owner && owner !== session && !takeOverFromPredecessor(sessions, owner, session)) {
        const refused = errorResult(
          action,
          errorInfo(
            'TAB_NOT_LEASED',
            `The active tab (${active.tabId}) belongs to another agent session, so it cannot be handed to you. ${holderDescription(owner, this.o.sessionGraceMs)} Or open a tab of your own with open_tab, or pass the tab_id of one of yours.`,
            'bridge',
            { tab_id: active.tabId, holder_session_id: owner.id },
          ),
        );
        return { result: refused, sentTab: target };
      }
      tabId = active.tabId;
    }
    const message: ActionMessage = tabId === null ? { ...action } : { ...action, tab_id: tabId };
    const result = await this.relayChecked(session, message, deadline, timeoutMs);
    // The session's current tab closed without its doing (a page's window.close(), the person): a
    // browser-level action (open_tab, list_tabs) does not need that tab, so it must not fail for it.
    // The stale lease goes (the agent is told, tab_closed) and the action runs on the browser as for a
    // session without a tab. Any other action keeps its TAB_NOT_FOUND: it was meant for that tab.
    if (
      action.tab_id === undefined &&
      tabId !== null &&
      BROWSER_LEVEL.has(action.action) &&
      result.error_info?.error_code === 'TAB_NOT_FOUND' &&
      sessions.ownerOf(session.browserId, tabId) === session
    ) {
      const url = session.tabs.get(tabId)?.url ?? null;
      sessions.release(session.browserId, tabId);
      session.peer?.send(tabReleased(session, { tabId, url, reason: 'tab_closed' }));
      return { result: await this.relayChecked(session, { ...action }, deadline, timeoutMs), sentTab: null };
    }
    return { result, sentTab: target };
  }

  /**
   * Relays the action; an answer naming a tab of another agent session is refused (the link checked
   * the rest against the request: answer-check.ts). The agent never sees another session's tab.
   */
  private async relayChecked(session: Session, message: ActionMessage, deadline: number, timeoutMs: number): Promise<ActionResultMessage> {
    return this.checkRelayed(session, message, await this.linkOf(session).relay(message, { deadline, timeoutMs, validated: true }));
  }

  private checkRelayed(session: Session, message: ActionMessage, relayed: ActionResultMessage): ActionResultMessage {
    if (!this.o.browsers.isRelayed(relayed)) return relayed; // made by the bridge (TIMEOUT, ...)
    const { sessions } = this.o;
    const foreign = (tabId: number) => {
      const owner = sessions.ownerOf(session.browserId, tabId);
      return owner !== null && owner !== session;
    };
    const result = message.action === 'close_tab' ? closeAnswerForAgent(relayed, foreign) : relayed;
    const why = answerMismatch(message, result, foreign);
    if (why === null) return result;
    this.o.log.warn('extension answered something that does not match the request', {
      session: session.id,
      action: message.action,
      mismatch: why,
    });
    return errorResult(message, mismatchError(message.action, why));
  }

  /** Updates leases from what the action did, records the result and delivers it. */
  private finishAction(session: Session, action: ActionMessage, sentTab: number | null, relayedResult: ActionResultMessage): void {
    const { sessions } = this.o;
    let result = relayedResult;
    const released: (Released & { reason: 'tab_limit' | 'tab_closed' })[] = [];
    /** A tab this action took past a refusing session's limit (it raced another past the check in onAction). */
    let pastLimit: ErrorInfo | null = null;
    const lease = (tabId: number, url: string | null, makeCurrent: boolean) => {
      const r = sessions.lease(session, tabId, url);
      if (!r.ok && action.action !== 'open_tab' && sessions.ownerOf(session.browserId, tabId) === null)
        pastLimit ??= tabLimitRefusal(session, action, tabId);
      if (!r.ok) return;
      released.push(...r.released.map((x) => ({ ...x, reason: 'tab_limit' as const })));
      if (makeCurrent) session.currentTab = tabId;
    };
    const state = result.new_simplified_state ?? null;
    const actedTab = result.tab_id ?? state?.tab_id ?? sentTab;
    const resultFields = (result.outcome_details?.result ?? null) as Record<string, unknown> | null;
    if (result.status === 'success') {
      // list_tabs/open_tab without a tab act on the browser, not on the active tab: no hand-over.
      const browserLevel = sentTab === null && BROWSER_LEVEL.has(action.action);
      if (actedTab !== null && actedTab !== undefined && !browserLevel)
        lease(actedTab, state?.url ?? result.state_delta?.facts?.url ?? null, action.action !== 'close_tab');
      if (action.action === 'open_tab' || action.action === 'open_tool' || action.action === 'switch_tab') {
        const opened = numberField(resultFields, 'tab_id');
        if (opened !== undefined) lease(opened, state?.tab_id === opened ? state.url : urlParam(action.params), true);
      }
      const popup = numberField(result.outcome_details, 'new_tab_id');
      if (popup !== undefined) lease(popup, null, false);
      if (action.action === 'close_tab') {
        const closed = numberField(resultFields, 'closed_tab_id') ?? numberField(action.params, 'tab_id') ?? sentTab ?? undefined;
        if (closed !== undefined && sessions.ownerOf(session.browserId, closed) === session) sessions.release(session.browserId, closed);
      }
    } else if (
      result.error_info?.error_code === 'TAB_NOT_FOUND' &&
      actedTab !== null &&
      actedTab !== undefined &&
      sessions.ownerOf(session.browserId, actedTab) === session
    ) {
      const url = session.tabs.get(actedTab)?.url ?? null;
      sessions.release(session.browserId, actedTab);
      released.push({ tabId: actedTab, url, reason: 'tab_closed' });
    }
    // Not leased: the client must not go on as if it held the tab (the extension lets go of an
    // attachment nobody leases).
    if (pastLimit) result = errorResult(action, pastLimit);
    this.o.publisher.schedule();
    const answer: ActionResultMessage = { ...result, original_action_id: action.action_id };
    sessions.recordResult(session, action.action_id, answer);
    session.running.delete(action.action_id);
    sessions.changed();
    const peer = session.peer;
    if (!peer) return; // recorded: a re-send after the agent reconnects gets it
    for (const r of released) peer.send(tabReleased(session, r));
    // The extension's validated bytes with the agent's id (raw-relay.ts), else serialized.
    const relayed = this.o.browsers.isRelayed(result) ? relayText(result, action.action_id) : null;
    if (relayed === null || !peer.sendText(relayed)) peer.send(answer, this.o.browsers.isRelayed(result));
  }

  /**
   * A DevTools command of a CDP client (bridge/agents/cdp): only to a tab this session holds (it
   * leased it with cdp_attach), and not queued behind the tab's other actions, since a CDP client keeps
   * many commands in flight (a waitForSelector's long Runtime.evaluate must not block the clicks that
   * follow). Not journaled and not remembered for re-sends: a CDP client never re-sends an id, and its
   * results (screenshots, DOM snapshots) are large.
   */
  onCdpCommand(peer: Peer, command: CdpCommandMessage): void {
    cdpTraceMark('b_gw_in');
    const session = this.sessionOf.get(peer);
    if (!session) return;
    const bound = this.bindNow(session);
    if (bound !== 'wait' && !bound.ok) return void peer.send(cdpFailure(command, bound.error));
    const { sessions } = this.o;
    const tabId = command.tab_id;
    const owner = sessions.ownerOf(session.browserId, tabId);
    if (owner !== session) {
      const error = owner
        ? notLeased(tabId, holderDescription(owner, this.o.sessionGraceMs))
        : errorInfo(
            'TAB_NOT_LEASED',
            `Tab ${tabId} is not held by this session (it was released, closed, or never attached): attach it with cdp_attach first.`,
            'bridge',
            { tab_id: tabId },
          );
      peer.send(cdpFailure(command, error));
      return;
    }
    // Delivered the moment the extension's answer is received, not a few promise hops later: the
    // tab's events are passed on as they arrive (onCdpEvent), and an answer that waited for those
    // hops would reach the client after events Chrome sent after it. Playwright drops an
    // out-of-process frame's execution contexts that arrive before its Page.getFrameTree answer,
    // and then waits for that frame forever.
    void this.linkOf(session).relayCdp(command, command.timeout_ms ?? this.o.defaultTimeoutMs, (result) =>
      this.deliverCdpResult(session, command, result),
    );
  }

  private deliverCdpResult(session: Session, command: CdpCommandMessage, result: CdpResultMessage): void {
    const { sessions } = this.o;
    const tabId = command.tab_id;
    if (result.error_info?.error_code === 'TAB_NOT_FOUND' && sessions.ownerOf(session.browserId, tabId) === session) {
      const url = session.tabs.get(tabId)?.url ?? null;
      sessions.release(session.browserId, tabId);
      this.o.publisher.schedule();
      session.peer?.send(tabReleased(session, { tabId, url, reason: 'tab_closed' }));
    }
    const to = session.peer;
    if (!to) return;
    const relayed = this.o.browsers.isRelayed(result) ? relayText(result, command.command_id) : null;
    if (relayed === null || !to.sendText(relayed))
      to.send({ ...result, original_command_id: command.command_id }, this.o.browsers.isRelayed(result));
  }

  /** A DevTools event of an attached tab of browserId reaches only the session holding that tab. */
  onCdpEvent(browserId: string, event: CdpEventMessage): void {
    // A CDP client's navigations never pass through a state: the lease learns the tab's URL from
    // the main frame's commit, so /status and the panel show where its tabs are. Only the origin and
    // path: the worker's URL redactor does not run on DevTools events, and a query may hold a secret.
    if (event.method === 'Page.frameNavigated' && event.session_id === undefined) {
      const frame = event.params['frame'] as { parentId?: unknown; url?: unknown } | undefined;
      if (frame && frame.parentId === undefined && typeof frame.url === 'string')
        this.o.sessions.noteUrl(browserId, event.tab_id, withoutQuery(frame.url));
    }
    const owner = this.o.sessions.ownerOf(browserId, event.tab_id);
    owner?.peer?.send(event, true);
    // Chrome detached a client's tab because the tab closed (the person closed it or its window):
    // the lease goes now, not at the client's next command to it, so a closed page never counts
    // against a tab limit that refuses (a client that closed its window could open no page again).
    if (owner && event.method === 'Inspector.detached' && event.session_id === undefined && event.params['reason'] === 'target_closed') {
      const url = owner.tabs.get(event.tab_id)?.url ?? null;
      this.o.sessions.release(browserId, event.tab_id);
      this.o.publisher.schedule();
      owner.peer?.send(tabReleased(owner, { tabId: event.tab_id, url, reason: 'tab_closed' }));
    }
  }

  /** state_update reaches only the session leasing that tab of that browser (no cross-talk between agents). */
  onStateUpdate(browserId: string, update: StateUpdateMessage): void {
    this.o.sessions.noteUrl(browserId, update.tab_id, update.state.url);
    const owner = this.o.sessions.ownerOf(browserId, update.tab_id);
    owner?.peer?.send(update);
  }

  // --- tasks ---------------------------------------------------------------------

  /** A task typed in browserId's panel runs in that browser: by an agent working there, or one not bound yet (it binds there). */
  onTaskSubmission(from: Peer, browserId: string, submitted: UserTaskSubmissionMessage): void {
    // The person may pick the agent (agent_session_id, the panel's "Run with"); else the oldest taker.
    const chosen = submitted.agent_session_id ?? null;
    const name = this.o.browsers.nameOf(browserId);
    const here = (s: Session) =>
      s.browserId === browserId ||
      (s.browserId === null && (s.wantedBrowser === null || (name !== null && sameName(s.wantedBrowser, name))));
    const taker = this.o.sessions
      .all()
      .find((s) => s.connected && s.capabilities.includes('accepts_tasks') && here(s) && (chosen === null || s.id === chosen));
    if (!taker?.peer && chosen !== null) {
      from.sendError(
        errorInfo(
          'NO_TASK_AGENT',
          `The agent you chose to run the task (session ${chosen}) is not connected or does not accept tasks any more. Pick another agent under "Run with", or start one, then submit the task again.`,
          'bridge',
          { agent_session_id: chosen },
        ),
        submitted.task_id ?? 'user_task_submission',
      );
      return;
    }
    if (!taker?.peer) {
      from.sendError(
        errorInfo(
          'NO_TASK_AGENT',
          'No agent that accepts tasks is connected. Start one with `python -m browser_use_ext serve`, or with no Python `browser-use-ext agent --base-url <OpenAI-compatible URL> --model <model>`, then submit the task again.',
          'bridge',
        ),
        submitted.task_id ?? 'user_task_submission',
      );
      return;
    }
    if (taker.browserId === null) this.bind(taker, browserId);
    const task: UserTaskSubmissionMessage = { ...submitted, task_id: submitted.task_id ?? this.o.tasks.newId() };
    this.o.tasks.assign(task.task_id as string, taker.id);
    taker.peer.send(task);
    this.o.publisher.schedule();
  }

  onTaskProgress(peer: Peer, progress: TaskProgressMessage): void {
    const session = this.sessionOf.get(peer);
    if (!session || this.o.tasks.holderOf(progress.task_id) !== session.id) {
      peer.sendError(
        errorInfo(
          'TASK_NOT_FOUND',
          `Task "${progress.task_id}" is not held by this session (never assigned, already finished, or another agent's). Report progress only for tasks you received in user_task_submission.`,
          'bridge',
          { task_id: progress.task_id },
        ),
        progress.task_id,
      );
      return;
    }
    if (FINAL_TASK_STATUSES.has(progress.status)) {
      this.o.tasks.finish(progress.task_id);
      // The task is over: the session that carried it out ends with it (its tabs are free at once).
      for (const child of childrenOf(this.o.sessions, session.id, progress.task_id)) this.endTaskChild(child);
      this.o.publisher.schedule();
    }
    if (session.browserId === null || !this.linkOf(session).send(progress))
      this.o.log.info('task progress not delivered: no extension connected', { task_id: progress.task_id, status: progress.status });
  }

  onTaskControl(from: Peer, browserId: string, control: TaskControlMessage): void {
    const holderId = this.o.tasks.holderOf(control.task_id);
    const found = holderId === null ? undefined : this.o.sessions.all().find((s) => s.id === holderId);
    if (found && found.browserId !== browserId) {
      from.sendError(
        errorInfo(
          'NOT_PERMITTED',
          `Task "${control.task_id}" runs in another browser; only that browser's side panel can stop or redirect it.`,
          'bridge',
          { task_id: control.task_id },
        ),
        control.task_id,
      );
      return;
    }
    const holder = found;
    if (!holder) {
      from.sendError(
        errorInfo(
          'TASK_NOT_FOUND',
          `No running task "${control.task_id}". It may have finished already; submit a new task instead.`,
          'bridge',
          { task_id: control.task_id },
        ),
        control.task_id,
      );
      return;
    }
    if (!holder.peer?.send(control)) {
      from.sendError(
        errorInfo(
          'NO_TASK_AGENT',
          `The agent running task "${control.task_id}" is disconnected right now; it may resume within ${Math.round(this.o.sessionGraceMs / 1000)} s. Try the command again then.`,
          'bridge',
          { task_id: control.task_id },
        ),
        control.task_id,
      );
    }
  }

  // --- the person's controls over agent sessions (agent-sessions.ts) --------------------------

  /** The side panel of browserId controls only that browser's agents, tabs and tab limit. */
  onSessionControl(from: Peer, browserId: string, control: SessionControlMessage): void {
    const { sessions } = this.o;
    const outcome = resolveControl(control, sessions, browserId);
    if (!outcome.ok) {
      from.sendError(outcome.error, 'session_control');
      return;
    }
    if (outcome.kind === 'tab_limit') {
      this.personMaxTabs.set(browserId, outcome.maxTabs);
      for (const s of sessions.all()) if (s.browserId === browserId) s.maxTabs = cappedMaxTabs(s.requestedMaxTabs, outcome.maxTabs);
    } else if (outcome.kind === 'released') {
      sessions.release(browserId, outcome.tabId);
      this.o.log.info('the person released a tab', { session: outcome.session.id, tab_id: outcome.tabId });
      outcome.session.peer?.send({
        type: 'tab_released',
        tab_id: outcome.tabId,
        url: outcome.url,
        reason: 'released_by_user',
        message: `The person took tab ${outcome.tabId} (${outcome.url ?? 'unknown URL'}) back in the extension; it is no longer yours. Open a tab of your own with open_tab if you still need one.`,
      });
    } else {
      const { session } = outcome;
      this.o.log.info('the person disconnected an agent', { session: session.id, client: session.client });
      // Disconnecting the session that carries out a task stops that task: the agent that holds it is
      // told as by the panel's Stop, so it reports the task stopped instead of failing on a closed session.
      const parent = session.parent === null ? undefined : sessions.all().find((s) => s.id === session.parent?.sessionId);
      if (parent?.peer && session.parent) parent.peer.send({ type: 'task_control', task_id: session.parent.taskId, command: 'stop' });
      const peer = session.peer;
      sessions.end(session);
      if (peer) {
        this.sessionOf.delete(peer);
        this.agents.delete(peer);
        peer.close(CLOSE_CODES.disconnectedByPerson, 'disconnected by the person in the extension side panel');
      }
    }
    this.o.publisher.schedule();
  }

  // --- connection ends ------------------------------------------------------------------------

  /** SessionRegistry's end hook: a session ended (goodbye, grace expired, the person's disconnect). */
  onSessionEnded(session: Session, released: Released[]): void {
    this.o.log.info('agent session ended', { session: session.id, released_tabs: released.length });
    this.o.publisher.schedule();
    // Stop is final: the sessions carrying out this session's tasks end with it.
    for (const child of childrenOf(this.o.sessions, session.id)) this.endTaskChild(child);
    for (const taskId of this.o.tasks.heldBy(session.id)) {
      this.o.tasks.finish(taskId);
      if (session.browserId !== null)
        this.linkOf(session).send({
          type: 'task_progress',
          task_id: taskId,
          status: 'failed',
          message: 'The agent running this task disconnected and did not come back. Submit the task again.',
          final_result: null,
        });
    }
  }

  /** Ends a session that carried out a task now over; its agent does not reconnect (a close code of the protocol). */
  private endTaskChild(child: Session): void {
    this.o.log.info('the task a session carried out is over: ending it', { session: child.id, parent: child.parent?.sessionId });
    const peer = child.peer;
    child.parent = null;
    this.o.sessions.end(child);
    if (peer) {
      this.sessionOf.delete(peer);
      this.agents.delete(peer);
      peer.close(CLOSE_CODES.disconnectedByPerson, 'the task this session carried out is over (done, stopped or disconnected)');
    }
  }

  onClosed(peer: Peer, code: number): void {
    this.agents.delete(peer);
    const session = this.sessionOf.get(peer);
    this.sessionOf.delete(peer);
    if (!session) return;
    // A normal close (1000) is a goodbye: the session ends and its tabs are free at once. So is a
    // connection the bridge closed for breaking the protocol (not JSON, too big, too many invalid
    // messages): keeping those for a resume would let a broken client fill the session cap. Any
    // other end (network drop, crash) keeps it for sessionGraceMs so the agent can resume.
    if (ENDS_SESSION.has(code) && session.peer === peer) this.o.sessions.end(session);
    else this.o.sessions.detach(session, peer);
    this.o.publisher.schedule();
  }
}

/** Close codes after which a session is not kept for a resume. */
const ENDS_SESSION = new Set<number>([CLOSE.normal, CLOSE.unsupportedData, CLOSE.policy, CLOSE.tooBig]);

/** The agent named a browser that is not connected (fail fast: waiting would not bring it). */
function browserNotConnected(name: string, connected: string[]): ErrorInfo {
  const list = connected.length === 0 ? 'none' : connected.map((n) => `"${n}"`).join(', ');
  const pick = connected.length === 0 ? '' : 'Name one of them (--browser / BROWSER_USE_EXT_BROWSER), or ';
  return errorInfo(
    'BROWSER_NOT_CONNECTED',
    `No browser named "${name}" is connected to the bridge. Connected: ${list}. ${pick}${pick ? 'open' : 'Open'} the browser named "${name}" with the extension.`,
    'bridge',
    { connected },
  );
}

function notLeased(tabId: number, why: string): ErrorInfo {
  return errorInfo(
    'TAB_NOT_LEASED',
    `Tab ${tabId} belongs to another agent session. ${why} Or open a tab of your own with open_tab, or act on one of your tabs (hello_ack.leased_tab_ids, open_tab results).`,
    'bridge',
    { tab_id: tabId },
  );
}

/** An I/O error's code (ENOSPC, EACCES, EROFS): names the cause without the config dir's path. */
function errnoCode(e: unknown): string {
  const code = (e as NodeJS.ErrnoException | null)?.code;
  return typeof code === 'string' ? code : 'write failed';
}

/** Reads an integer field from an open wire object (params, outcome details) without `any`. */
function numberField(obj: unknown, key: string): number | undefined {
  if (typeof obj !== 'object' || obj === null) return undefined;
  const v = (obj as Record<string, unknown>)[key];
  return typeof v === 'number' && Number.isInteger(v) ? v : undefined;
}

function urlParam(params: unknown): string | null {
  if (typeof params !== 'object' || params === null) return null;
  const v = (params as Record<string, unknown>)['url'];
  return typeof v === 'string' ? v : null;
}

/** What the agent is told when the bridge takes a tab from its session on its own. */
function tabReleased(session: Session, r: Released & { reason: 'tab_limit' | 'tab_closed' }): TabReleasedMessage {
  return {
    type: 'tab_released',
    tab_id: r.tabId,
    url: r.url,
    reason: r.reason,
    ...(r.reason === 'tab_limit' ? { max_tabs: session.maxTabs } : {}),
    message:
      r.reason === 'tab_limit'
        ? `Tab limit (${session.maxTabs}) reached. Released tab: ${r.url ?? `tab ${r.tabId}`}`
        : `Tab ${r.tabId} (${r.url ?? 'unknown URL'}) was closed and is no longer yours.`,
  };
}

/** A URL without its query and fragment (where tokens travel); non-URLs as they are. */
function withoutQuery(url: string): string {
  try {
    const u = new URL(url);
    u.search = '';
    u.hash = '';
    return u.href;
  } catch {
    return url;
  }
}
