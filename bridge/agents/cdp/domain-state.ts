// Which client session enabled which domain on one Chrome session. Chrome keeps domains per DevTools
// session: Playwright's own session on a page keeps its Network, Runtime and Fetch events while a
// user's CDPSession on the same page disables them. chrome.debugger gives the relay ONE session per
// tab (and one per frame or worker inside it), shared by every client session on that target, so the
// relay keeps the per-session part: a disable reaches Chrome only when no session still needs the
// domain, and an event of a tracked domain goes only to the sessions that enabled it. Pure
// bookkeeping (no I/O): session-domains.ts applies the plans to the tab; the event router asks who gets
// an event.
//
// Tracked: the domains whose X.enable starts a stream of events to the enabling session and whose
// X.disable stops it (Network, Page, Runtime, Log, DOM, CSS, Debugger, Console, Audits, Security,
// Animation, Media, Performance, Preload, DOMStorage, LayerTree), Page.setLifecycleEventsEnabled, and
// Fetch (interception, below). Not tracked, their events go to every session as before: domains
// whose events Chrome sends without an enable (Target, Inspector), and the rest, which no client we
// know of enables from two sessions at once. Within a tracked domain, events Chrome sends without its
// enable go to everyone too (EVERYONE).
//
// Replayed: a second session's Runtime.enable is answered by the relay with the execution contexts
// there are, as Chrome answers each session's own enable (forwarding it would announce nothing: the
// shared session has Runtime on already). Not replayed: what Chrome re-sends on an enable from its
// own stores (Log.entryAdded, Runtime.consoleAPICalled of earlier messages, Debugger.scriptParsed of
// loaded scripts): a second session sees only what happens after its enable.
//
// Fetch: Chrome gets the union of every session's patterns; a paused request goes to the first
// session (in enable order) whose patterns match it, so it is continued exactly once; a session's
// Fetch.disable narrows Chrome's patterns to the others' and continues the requests paused for it
// (as Chrome's own Fetch.disable lets them go). Chrome chains interception through every matching
// session in turn; here one session handles each request.
import type { Params } from './cdp-protocol';
import { isObject } from './cdp-protocol';

/** A client session (page session or child alias): compared by identity. */
export type Sub = object;

const DOMAINS = [
  'Network',
  'Page',
  'Runtime',
  'Log',
  'DOM',
  'CSS',
  'Debugger',
  'Console',
  'Audits',
  'Security',
  'Animation',
  'Media',
  'Performance',
  'Preload',
  'DOMStorage',
  'LayerTree',
] as const;
const TRACKED = new Set<string>([...DOMAINS, 'Fetch']);

/** The pseudo-domain Page.setLifecycleEventsEnabled turns on and off (its one event's name). */
const LIFECYCLE = 'Page.lifecycleEvent';

/** Events of tracked domains that Chrome sends without the domain's enable (another command turns them on). */
const EVERYONE = new Set([
  'Runtime.bindingCalled', // Runtime.addBinding works without Runtime.enable
  'Page.screencastFrame', // Page.startScreencast
  'Page.screencastVisibilityChanged',
]);

/** Commands the relay looks at before they go to Chrome (one Set lookup on the hot path). */
const FETCH_HANDLED = ['continueRequest', 'failRequest', 'fulfillRequest', 'continueResponse', 'continueWithAuth'];
export const DOMAIN_COMMANDS = new Set<string>([
  ...[...TRACKED].flatMap((d) => [`${d}.enable`, `${d}.disable`]),
  'Page.setLifecycleEventsEnabled',
  // Chrome enables the DOM agent for the session that asks for the document.
  'DOM.getDocument',
  'DOM.getFlattenedDocument',
  ...FETCH_HANDLED.map((m) => `Fetch.${m}`),
]);

/** What the relay does with a command (session-domains.ts carries it out). */
export type Plan =
  /** Send as the client sent it; undo on Chrome's error (the session did not get the domain). */
  | { kind: 'forward'; undo?: () => void }
  /** Send this instead and answer the client with Chrome's answer (Fetch's union of patterns). */
  | { kind: 'send'; method: string; params: Params; undo?: () => void; after?: Command[] }
  /** Answer {} without Chrome, after these events to the session (a shared domain stays on). */
  | { kind: 'answer'; replay: string[] };

/** A command of the relay's own to Chrome's session (no client answer). */
export interface Command {
  method: string;
  params: Params;
}

interface FetchSetup {
  patterns: Params[];
  auth: boolean;
}

/** One Chrome session (a tab's page, or a child session in it). */
export class TargetDomains {
  /** Domain (or LIFECYCLE) -> the sessions that have it on, in enable order. */
  readonly subs = new Map<string, Set<Sub>>();
  readonly fetch = new Map<Sub, FetchSetup>();
  /** requestId -> the session a paused request was given to (it continues it). */
  readonly paused = new Map<string, Sub>();
  /** Live execution contexts, id -> executionContextCreated params as Chrome sent them (JSON). */
  readonly contexts = new Map<number, string>();

  has(domain: string, sub: Sub): boolean {
    return this.subs.get(domain)?.has(sub) === true;
  }

  private add(domain: string, sub: Sub): () => void {
    let set = this.subs.get(domain);
    if (!set) this.subs.set(domain, (set = new Set()));
    if (set.has(sub)) return () => undefined;
    set.add(sub);
    return () => this.remove(domain, sub);
  }

  /** true: nobody has the domain on any more. */
  private remove(domain: string, sub: Sub): boolean {
    const set = this.subs.get(domain);
    if (!set) return true;
    set.delete(sub);
    if (set.size > 0) return false;
    this.subs.delete(domain);
    if (domain === 'Runtime') this.contexts.clear();
    return true;
  }

  /** A client command (one of DOMAIN_COMMANDS) from `sub`. */
  plan(sub: Sub, method: string, params: Params): Plan {
    const dot = method.indexOf('.');
    const domain = method.slice(0, dot);
    const verb = method.slice(dot + 1);
    if (domain === 'Fetch') return this.planFetch(sub, verb, params);
    if (method === 'Page.setLifecycleEventsEnabled') {
      if (params['enabled'] === true) return { kind: 'forward', undo: this.add(LIFECYCLE, sub) };
      return this.remove(LIFECYCLE, sub) ? { kind: 'forward' } : { kind: 'answer', replay: [] };
    }
    if (verb === 'getDocument' || verb === 'getFlattenedDocument') {
      this.add('DOM', sub);
      return { kind: 'forward' };
    }
    if (verb === 'disable') return this.remove(domain, sub) ? { kind: 'forward' } : { kind: 'answer', replay: [] };
    // An enable. Runtime's, when Runtime is on already, is answered here with the contexts there are.
    const others = (this.subs.get(domain)?.size ?? 0) - (this.has(domain, sub) ? 1 : 0);
    if (domain === 'Runtime' && others > 0) {
      const replay = this.has(domain, sub) ? [] : [...this.contexts.values()];
      this.add(domain, sub);
      return { kind: 'answer', replay };
    }
    return { kind: 'forward', undo: this.add(domain, sub) };
  }

  private planFetch(sub: Sub, verb: string, params: Params): Plan {
    if (verb !== 'enable' && verb !== 'disable') {
      const id = params['requestId'];
      if (typeof id === 'string') this.paused.delete(id);
      return { kind: 'forward' };
    }
    const before = this.fetch.get(sub);
    if (verb === 'enable') {
      const patterns = Array.isArray(params['patterns']) ? params['patterns'].filter(isObject) : undefined;
      this.fetch.set(sub, { patterns: patterns ?? [{ urlPattern: '*' }], auth: params['handleAuthRequests'] === true });
      const undo = () => (before ? this.fetch.set(sub, before) : this.fetch.delete(sub));
      if (this.fetch.size === 1) return { kind: 'forward', undo };
      return { kind: 'send', method: 'Fetch.enable', params: this.fetchUnion(), undo };
    }
    if (!before) return this.fetch.size === 0 ? { kind: 'forward' } : { kind: 'answer', replay: [] };
    this.fetch.delete(sub);
    // Chrome lets the requests paused for a session go when it disables Fetch.
    const after: Command[] = [];
    for (const [requestId, owner] of this.paused)
      if (owner === sub) {
        this.paused.delete(requestId);
        after.push({ method: 'Fetch.continueRequest', params: { requestId } });
      }
    if (this.fetch.size === 0) {
      this.paused.clear();
      return { kind: 'forward' };
    }
    return { kind: 'send', method: 'Fetch.enable', params: this.fetchUnion(), after };
  }

  /** Fetch.enable for Chrome: every session's patterns, auth requests when any session handles them. */
  private fetchUnion(): Params {
    const setups = [...this.fetch.values()];
    return { patterns: setups.flatMap((s) => s.patterns), handleAuthRequests: setups.some((s) => s.auth) };
  }

  /** A session went away: what Chrome must be told so that domains nobody needs are off. */
  drop(sub: Sub): Command[] {
    const out: Command[] = [];
    for (const [domain, set] of [...this.subs])
      if (set.has(sub) && this.remove(domain, sub))
        out.push(
          domain === LIFECYCLE
            ? { method: 'Page.setLifecycleEventsEnabled', params: { enabled: false } }
            : { method: `${domain}.disable`, params: {} },
        );
    if (this.fetch.has(sub)) {
      const p = this.planFetch(sub, 'disable', {});
      if (p.kind === 'forward') out.push({ method: 'Fetch.disable', params: {} });
      if (p.kind === 'send') out.push({ method: p.method, params: p.params }, ...(p.after ?? []));
    }
    return out;
  }

  /**
   * The sessions an event goes to, out of all on this Chrome session (hot path: a Map lookup for
   * most events). Also keeps the execution contexts current (json: the params as the client gets them).
   */
  recipients<S extends Sub>(method: string, params: Params, json: string, all: readonly S[]): readonly S[] {
    const dot = method.indexOf('.');
    const domain = method.slice(0, dot);
    if (!TRACKED.has(domain) || EVERYONE.has(method)) return all;
    if (domain === 'Runtime' && method.startsWith('Runtime.executionContext')) this.noteContext(method, params, json);
    if (domain === 'Fetch') return this.fetchRecipient(method, params, all);
    const set = this.subs.get(method === LIFECYCLE ? LIFECYCLE : domain);
    // Nobody enabled it through the relay, yet Chrome sends it: something else turned it on, as before.
    if (!set) return all;
    return all.filter((s) => set.has(s));
  }

  private noteContext(method: string, params: Params, json: string): void {
    if (method === 'Runtime.executionContextsCleared') return this.contexts.clear();
    if (method === 'Runtime.executionContextDestroyed') {
      const id = params['executionContextId'];
      if (typeof id === 'number') this.contexts.delete(id);
      return;
    }
    const ctx = params['context'];
    if (method === 'Runtime.executionContextCreated' && isObject(ctx) && typeof ctx['id'] === 'number') this.contexts.set(ctx['id'], json);
  }

  /** A paused request (or auth challenge) goes to the first session whose patterns match it. */
  private fetchRecipient<S extends Sub>(method: string, params: Params, all: readonly S[]): readonly S[] {
    const requestId = params['requestId'];
    if (typeof requestId !== 'string') return all;
    const request = isObject(params['request']) ? params['request'] : {};
    const url = typeof request['url'] === 'string' ? request['url'] : '';
    const stage = params['responseStatusCode'] !== undefined || params['responseErrorReason'] !== undefined ? 'Response' : 'Request';
    const resourceType = params['resourceType'];
    const live = new Set<Sub>(all);
    let pick: Sub | undefined;
    let fallback: Sub | undefined;
    for (const [sub, setup] of this.fetch) {
      if (!live.has(sub) || (method === 'Fetch.authRequired' && !setup.auth)) continue;
      fallback ??= sub;
      if (setup.patterns.some((p) => patternMatches(p, url, stage, resourceType))) {
        pick = sub;
        break;
      }
    }
    // Chrome paused it for the union of patterns: someone must continue it, or the page waits forever.
    pick ??= fallback;
    if (pick === undefined) return all;
    this.paused.set(requestId, pick);
    return all.filter((s) => s === pick);
  }
}

/** Fetch.RequestPattern against a paused request, as Chrome matches it. */
export function patternMatches(p: Params, url: string, stage: 'Request' | 'Response', resourceType: unknown): boolean {
  if ((p['requestStage'] === 'Response' ? 'Response' : 'Request') !== stage) return false;
  if (typeof p['resourceType'] === 'string' && p['resourceType'] !== resourceType) return false;
  const glob = typeof p['urlPattern'] === 'string' ? p['urlPattern'] : '*';
  return globMatches(glob, url);
}

/** Chrome's URL pattern: '*' any run of characters, '?' one character, '\' escapes the next. */
export function globMatches(glob: string, text: string): boolean {
  let re = '^';
  for (let i = 0; i < glob.length; i++) {
    const ch = glob[i] ?? '';
    if (ch === '\\' && i + 1 < glob.length) re += escapeRe(glob[++i] ?? '');
    else if (ch === '*') re += '[\\s\\S]*';
    else if (ch === '?') re += '[\\s\\S]';
    else re += escapeRe(ch);
  }
  return new RegExp(`${re}$`).test(text);
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/** Every held tab's Chrome sessions: the page's, and each child's (frame or worker) inside it. */
export class DomainState {
  private readonly tabs = new Map<number, { page: TargetDomains; children: Map<string, TargetDomains> }>();

  /** The state of a Chrome session, made on first use (child: Chrome's child session id). */
  of(tabId: number, child: string | undefined): TargetDomains {
    let t = this.tabs.get(tabId);
    if (!t) this.tabs.set(tabId, (t = { page: new TargetDomains(), children: new Map() }));
    if (child === undefined) return t.page;
    let c = t.children.get(child);
    if (!c) t.children.set(child, (c = new TargetDomains()));
    return c;
  }

  /** The state if there is any (the event path never makes one). */
  find(tabId: number, child: string | undefined): TargetDomains | undefined {
    const t = this.tabs.get(tabId);
    return child === undefined ? t?.page : t?.children.get(child);
  }

  /** Sessions that went away (a page session and its aliases): what to tell each Chrome session. */
  drop(tabId: number, gone: (s: Sub) => boolean): { child: string | undefined; commands: Command[] }[] {
    const t = this.tabs.get(tabId);
    if (!t) return [];
    const out: { child: string | undefined; commands: Command[] }[] = [];
    const dropFrom = (d: TargetDomains, child: string | undefined) => {
      const subs = new Set<Sub>([...d.fetch.keys()]);
      for (const set of d.subs.values()) for (const s of set) subs.add(s);
      const commands = [...subs].filter(gone).flatMap((s) => d.drop(s));
      if (commands.length) out.push({ child, commands });
    };
    dropFrom(t.page, undefined);
    for (const [id, d] of t.children) dropFrom(d, id);
    return out;
  }

  /** Chrome's child session ended: its state goes with it. */
  forgetChild(tabId: number, child: string): void {
    this.tabs.get(tabId)?.children.delete(child);
  }

  /** The tab is gone or its debugger detached: Chrome forgot every domain of it. */
  forgetTab(tabId: number): void {
    this.tabs.delete(tabId);
  }
}
