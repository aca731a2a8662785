// The scope of a CDP client inside the tabs it holds: what the tab's top document, each of its
// child sessions (out-of-process frames, workers) and each navigation may show, judged by the one
// allow list (agent-scope.ts). chrome.debugger keeps an extension attached to its own pages (they
// run with the extension's permissions: every tab, every cookie, the pairing secret), and attaches
// child sessions to whatever a page frames; so scope is checked where Chrome does not:
//   - a top-level navigation out of scope (history, a script, a link, a redirect: Page.navigate is
//     judged before it is sent) ends the attachment as soon as Chrome announces it
//     (webNavigation.onBeforeNavigate, before the commit; onCommitted for a server redirect), and
//     nothing of that tab reaches the client from then on (its events are dropped, its commands
//     refused) until the detach is done;
//   - a child session is judged by its target's URL when Chrome attaches it: out of scope, it is
//     detached at once and the client never hears of it; a frame that navigates out of scope later
//     takes its session with it (the client is told Target.detachedFromTarget);
//   - a command to a session the relay never announced is refused (the allow list: unknown is out).
// Blocked sites never load in a held tab at all (held-tab-rules.ts): this is the rule for what
// Chrome's network rules cannot see (extension pages, chrome://, local files), and the last word
// for anything that still commits out of scope.
import type { ErrorInfo } from '../../../../schemas/generated/protocol';
import { errorInfo } from '../../../../schemas/lib/errors';
import type { ScopeVerdict } from '../policy/agent-scope';
import { onPolicyChanged, scopeNow } from '../policy/person-policy';

type Params = Record<string, unknown>;

interface Child {
  targetId: string;
  /** The session the child was attached under (undefined: the tab's own). */
  parent: string | undefined;
  url: string;
}

interface HeldTab {
  /** The top document's URL as last committed. */
  url: string;
  /** Set when the top frame started to leave scope: the URL and why. Everything of the tab is refused from then on. */
  leaving: { url: string; verdict: NonNullable<ScopeVerdict> } | null;
  /** Child sessions announced to the client. */
  children: Map<string, Child>;
  /** Child sessions judged out of scope (events dropped, commands refused). */
  closed: Set<string>;
  /** Execution contexts Chrome announced, by "<session>|<id>" and by uniqueId: the origin each runs in. */
  contexts: Map<string, string>;
}

const held = new Map<number, HeldTab>();

/** Called when the tab leaves scope: the relay detaches it and tells the client why. */
let onLeave: (tabId: number, why: string) => void = () => undefined;
export function onTabLeavesScope(fn: (tabId: number, why: string) => void): void {
  onLeave = fn;
}

/** The relay attached the tab for a client (the tab's URL as Chrome reports it then). */
export function scopeAttached(tabId: number, url: string): void {
  held.set(tabId, { url, leaving: null, children: new Map(), closed: new Set(), contexts: new Map() });
}

export function scopeDetached(tabId: number): void {
  held.delete(tabId);
}

const describe = (url: string, v: NonNullable<ScopeVerdict>) => `${url} is out of reach: ${v.why}`;

function leave(tabId: number, t: HeldTab, url: string, verdict: NonNullable<ScopeVerdict>): void {
  if (t.leaving) return;
  t.leaving = { url, verdict };
  onLeave(tabId, `the tab started to show ${describe(url, verdict)}`);
}

/** A refusal for a command to this tab (and session), or null. Synchronous: it runs on every command. */
export function scopeRefusal(tabId: number, sessionId: string | undefined, method: string): ErrorInfo | null {
  const t = held.get(tabId);
  if (!t) return null; // not attached: cdp-command.ts answers that
  if (t.leaving)
    return refused(
      method,
      tabId,
      `tab ${tabId} ${describe(t.leaving.url, t.leaving.verdict)}, so the client's attachment ended (Inspector.detached). Open or pick a tab on a web page`,
      t.leaving.verdict.reason,
    );
  if (sessionId === undefined || t.children.has(sessionId)) return null;
  if (!t.closed.has(sessionId)) {
    // A session this client was never given: answered as Chrome answers an id it does not know,
    // without asking Chrome, which may know ids the relay never announced.
    const cdpError = { code: -32001, message: 'Session with given id not found.' };
    return errorInfo(
      'CDP_ERROR',
      `Chrome answered ${method} with an error: ${cdpError.message}. Use a session id from Target.attachedToTarget.`,
      'background_script',
      {
        cdp_error: cdpError,
        method,
        tab_id: tabId,
      },
    );
  }
  return refused(
    method,
    tabId,
    `session ${sessionId} is a frame or worker showing a page out of this client's reach`,
    'out_of_scope_session',
  );
}

const refused = (method: string, tabId: number, why: string, reason: string): ErrorInfo =>
  errorInfo('NOT_PERMITTED', `${method} is refused: ${why}.`, 'background_script', {
    reason,
    method,
    tab_id: tabId,
    cdp_error: { code: -32000, message: `${method} is refused: ${why}.` },
  });

/**
 * Whether a DevTools event of a held tab may reach the client. Side effects: a child session out of
 * scope is detached (Chrome is told through its parent session), a frame gone out of scope takes its
 * session with it. `send` forwards an event the client must get instead (Target.detachedFromTarget).
 */
export function passEvent(
  tabId: number,
  sessionId: string | undefined,
  method: string,
  params: Params,
  send: (sessionId: string | undefined, method: string, params: Params) => void,
): boolean {
  const t = held.get(tabId);
  if (!t) return true;
  if (t.leaving) return false;
  if (sessionId !== undefined && (t.closed.has(sessionId) || !t.children.has(sessionId))) return false;
  if (method === 'Target.attachedToTarget') return childAttached(tabId, t, sessionId, params, send);
  if (method.startsWith('Runtime.executionContext')) noteContext(t, sessionId, method, params);
  if (method === 'Target.detachedFromTarget' && typeof params['sessionId'] === 'string') {
    const child = params['sessionId'];
    t.children.delete(child);
    // A session the client never heard of ends unheard of.
    if (t.closed.delete(child)) return false;
    return true;
  }
  if (method === 'Target.targetInfoChanged') {
    const info = isObject(params['targetInfo']) ? params['targetInfo'] : {};
    const entry = [...t.children].find(([, c]) => c.targetId === info['targetId']);
    if (entry && typeof info['url'] === 'string') {
      entry[1].url = info['url'];
      if (closeIfOutOfScope(tabId, t, entry[0], entry[1], send)) return false;
    }
    return true;
  }
  // A child's own frame committing a new document: its URL is judged again.
  if (method === 'Page.frameNavigated' && sessionId !== undefined) {
    const frame = isObject(params['frame']) ? params['frame'] : {};
    const child = t.children.get(sessionId);
    if (child && frame['parentId'] === undefined && typeof frame['url'] === 'string') {
      child.url = frame['url'];
      if (closeIfOutOfScope(tabId, t, sessionId, child, send)) return false;
    }
  }
  return true;
}

function noteContext(t: HeldTab, sessionId: string | undefined, method: string, params: Params): void {
  const prefix = `${sessionId ?? ''}|`;
  if (method === 'Runtime.executionContextsCleared') {
    for (const key of [...t.contexts.keys()]) if (key.startsWith(prefix)) t.contexts.delete(key);
    return;
  }
  const ctx = isObject(params['context']) ? params['context'] : null;
  if (method === 'Runtime.executionContextCreated' && ctx && typeof ctx['id'] === 'number') {
    const origin = typeof ctx['origin'] === 'string' ? ctx['origin'] : '';
    t.contexts.set(prefix + String(ctx['id']), origin);
    if (typeof ctx['uniqueId'] === 'string') t.contexts.set(ctx['uniqueId'], origin);
  } else if (method === 'Runtime.executionContextDestroyed' && typeof params['executionContextId'] === 'number')
    t.contexts.delete(prefix + String(params['executionContextId']));
}

/** An origin as Chrome names a context's ("" and "null": about:blank, data:, sandboxed frames, which have none of their own). */
const originOutOfScope = (origin: string) => (origin === '' || origin === 'null' || origin === '://' ? null : scopeNow(origin));

/** Methods that read into the documents of every in-process frame of the page. */
const PIERCING = new Set(['DOMSnapshot.captureSnapshot', 'DOMSnapshot.getSnapshot', 'Page.captureSnapshot']);
const PIERCE_PARAM = new Set(['DOM.getDocument', 'DOM.getFlattenedDocument', 'DOM.describeNode', 'DOM.requestChildNodes']);

/**
 * A refusal for a command that reaches into a frame out of scope, or null. A frame of another site
 * runs in its own process and has its own child session (judged in passEvent); a frame of the same
 * site as the page shares the page's session, so the commands that name a frame, an execution
 * context, or read into every frame are judged here. Asks Chrome for the frame tree only for those.
 */
export function frameRefusal(
  tabId: number,
  target: chrome.debugger.DebuggerSession,
  method: string,
  params: Params,
): ErrorInfo | null | Promise<ErrorInfo | null> {
  const t = held.get(tabId);
  if (!t) return null;
  const prefix = `${target.sessionId ?? ''}|`;
  // A context is named by an id Chrome announced (Runtime.executionContextCreated, or the answer to
  // Page.createIsolatedWorld); any other id is a guess at a context of a frame the client was not
  // shown, and is answered as Chrome answers an id it does not know.
  for (const key of ['contextId', 'executionContextId', 'uniqueContextId']) {
    const id = params[key];
    if (typeof id !== 'number' && typeof id !== 'string') continue;
    const origin = t.contexts.get(typeof id === 'number' ? prefix + String(id) : id);
    if (origin === undefined) return unknownContext(method, tabId);
    const v = originOutOfScope(origin);
    if (v) return refused(method, tabId, `execution context ${String(id)} runs in ${describe(origin, v)}`, v.reason);
  }
  const frameId = typeof params['frameId'] === 'string' ? params['frameId'] : null;
  const pierces = PIERCING.has(method) || (PIERCE_PARAM.has(method) && params['pierce'] === true);
  // Synchronous unless the frame tree must be asked for (a CDP command's hot path: cdp-command.ts).
  if (frameId === null && !pierces) return null;
  return frameTreeRefusal(tabId, target, method, frameId);
}

async function frameTreeRefusal(
  tabId: number,
  target: chrome.debugger.DebuggerSession,
  method: string,
  frameId: string | null,
): Promise<ErrorInfo | null> {
  const frames = await frameUrls(target);
  const bad = frameId !== null ? frames.find((f) => f.id === frameId) : frames.find((f) => scopeNow(f.url) !== null);
  const v = bad ? scopeNow(bad.url) : null;
  if (!bad || !v) return null;
  return refused(
    method,
    tabId,
    frameId !== null
      ? `frame ${frameId} shows ${describe(bad.url, v)}`
      : `a frame of this page shows ${describe(bad.url, v)}, and ${method}${PIERCING.has(method) ? '' : ' with pierce'} would read into it. Read the page without piercing frames, or reload it (a held tab does not load blocked sites)`,
    v.reason,
  );
}

function unknownContext(method: string, tabId: number): ErrorInfo {
  const cdpError = { code: -32000, message: 'Cannot find context with specified id' };
  return errorInfo(
    'CDP_ERROR',
    `Chrome answered ${method} with an error: ${cdpError.message}. Use a context from Runtime.executionContextCreated.`,
    'background_script',
    {
      cdp_error: cdpError,
      method,
      tab_id: tabId,
    },
  );
}

/** A command's answer names a context Chrome made for the client (Page.createIsolatedWorld): it may be used. */
export function noteAnswer(tabId: number, sessionId: string | undefined, method: string, result: Params | undefined): void {
  const t = held.get(tabId);
  const id = result?.['executionContextId'];
  if (t && method === 'Page.createIsolatedWorld' && typeof id === 'number') t.contexts.set(`${sessionId ?? ''}|${String(id)}`, '');
}

/** The in-process frames of a session's page with the URL each shows (about:blank and data: frames are in scope). */
async function frameUrls(target: chrome.debugger.DebuggerSession): Promise<{ id: string; url: string }[]> {
  type Tree = { frame?: { id?: unknown; url?: unknown; urlFragment?: unknown }; childFrames?: Tree[] };
  const got = (await chrome.debugger.sendCommand(target, 'Page.getFrameTree').catch(() => null)) as { frameTree?: Tree } | null;
  const out: { id: string; url: string }[] = [];
  const walk = (n: Tree | undefined) => {
    if (!n) return;
    if (typeof n.frame?.id === 'string' && typeof n.frame.url === 'string') out.push({ id: n.frame.id, url: n.frame.url });
    for (const c of n.childFrames ?? []) walk(c);
  };
  walk(got?.frameTree);
  return out;
}

function childAttached(
  tabId: number,
  t: HeldTab,
  parent: string | undefined,
  params: Params,
  send: (sessionId: string | undefined, method: string, params: Params) => void,
): boolean {
  const id = params['sessionId'];
  if (typeof id !== 'string') return false;
  const info = isObject(params['targetInfo']) ? params['targetInfo'] : {};
  const url = typeof info['url'] === 'string' ? info['url'] : '';
  const targetId = typeof info['targetId'] === 'string' ? info['targetId'] : '';
  // An empty URL is a frame or worker Chrome has not navigated yet: judged when it commits.
  if (url !== '' && scopeNow(url)) {
    t.closed.add(id);
    detachChild(tabId, parent, id);
    // The page's frame tree still names the frame (Page.frameDetached "swap" said a session would
    // follow): without this, Playwright and puppeteer wait for its load forever. An out-of-process
    // frame's target id is its frame id.
    if (info['type'] === 'iframe' && targetId !== '') send(parent, 'Page.frameDetached', { frameId: targetId, reason: 'remove' });
    return false;
  }
  t.children.set(id, { targetId, parent, url });
  return true;
}

function closeIfOutOfScope(
  tabId: number,
  t: HeldTab,
  sessionId: string,
  child: Child,
  send: (sessionId: string | undefined, method: string, params: Params) => void,
): boolean {
  if (child.url === '' || !scopeNow(child.url)) return false;
  t.children.delete(sessionId);
  t.closed.add(sessionId);
  detachChild(tabId, child.parent, sessionId);
  send(child.parent, 'Target.detachedFromTarget', { sessionId, targetId: child.targetId });
  return true;
}

function detachChild(tabId: number, parent: string | undefined, sessionId: string): void {
  const target = parent === undefined ? { tabId } : { tabId, sessionId: parent };
  void chrome.debugger.sendCommand(target, 'Target.detachFromTarget', { sessionId }).catch(() => undefined);
}

/**
 * A frame of a held tab committed a document out of scope: the top frame takes the tab's
 * attachment, a child frame is judged through the sessions Chrome gave for it (their target URL is
 * read again, as Chrome's events may not say it).
 */
function committed(tabId: number, frameId: number, url: string, send: (s: string | undefined, m: string, p: Params) => void): void {
  const t = held.get(tabId);
  if (!t) return;
  const verdict = scopeNow(url);
  if (frameId === 0) {
    t.url = url;
    if (verdict) leave(tabId, t, url, verdict);
    return;
  }
  if (!verdict) return;
  for (const [sessionId, child] of t.children)
    void chrome.debugger
      .sendCommand({ tabId, sessionId }, 'Target.getTargetInfo')
      .then((r) => {
        const info = (r as { targetInfo?: { url?: unknown } } | undefined)?.targetInfo;
        if (typeof info?.url !== 'string') return;
        child.url = info.url;
        closeIfOutOfScope(tabId, t, sessionId, child, send);
      })
      .catch(() => undefined);
}

let forward: (tabId: number, sessionId: string | undefined, method: string, params: Params) => void = () => undefined;

/** Registered once when the worker starts (MV3 wakes a stopped worker only for listeners that exist then). */
export function installScopeGuard(send: (tabId: number, sessionId: string | undefined, method: string, params: Params) => void): void {
  forward = send;
  chrome.webNavigation.onBeforeNavigate.addListener((d) => {
    const t = held.get(d.tabId);
    if (!t || d.frameId !== 0) return;
    const verdict = scopeNow(d.url);
    // A site the person blocked is stopped by the network rules before it commits (held-tab-rules.ts):
    // the tab stays the client's, showing Chrome's "blocked" page. Anything else leaves at once.
    if (verdict && verdict.reason !== 'domain_policy') leave(d.tabId, t, d.url, verdict);
  });
  chrome.webNavigation.onCommitted.addListener((d) => committed(d.tabId, d.frameId, d.url, (s, m, p) => forward(d.tabId, s, m, p)));
  // The person's settings changed: a held tab now on a blocked site is refused from its next command on.
  onPolicyChanged(() => {
    for (const [tabId, t] of held) {
      const verdict = scopeNow(t.url);
      if (verdict) leave(tabId, t, t.url, verdict);
    }
  });
}

/** Forwarding an event the guard makes up (a child session it took away). */
export function scopeForward(tabId: number): (sessionId: string | undefined, method: string, params: Params) => void {
  return (sessionId, method, params) => forward(tabId, sessionId, method, params);
}

const isObject = (v: unknown): v is Params => typeof v === 'object' && v !== null && !Array.isArray(v);
