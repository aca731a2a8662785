// An agent's end ends its presence in the page. Script a client put into a page (a keydown listener,
// a timer, an inline handler) lives as long as the document, whatever happens to the debugger: Chrome
// drops a session's overrides and init scripts on detach, never what already ran. So every tab in
// which a client ran or planted script is marked here (a CDP client's command that succeeded, or the
// classic evaluate action), and when that client ends (detach, lease end, Stop, revoke, the bridge
// or worker gone, the person's Cancel on Chrome's debugging bar) the tab is reloaded once the
// debugger has left it, or, if the person chose to keep pages in Settings, kept with a warning. Either
// way the side panel gets a line saying which tab and what happened (shared/script-ends.ts).
// Marks live in storage.session: the worker may restart between the command and the end.
import { type AgentSessionInfo, PANEL_KEYS, SETTING_KEYS } from '../../shared/panel-messages';
import { MAX_SCRIPT_END_LINES, scriptEndChoice, type ScriptEndLine } from '../../shared/script-ends';
import { attachedNow, relayHolds } from './debugger-attachments';

interface Mark {
  /** The agent's hello.client name (the panel words it), once known. */
  agent: string | null;
}

const STORAGE_KEY = 'bux_client_script_marks';

const always = (): boolean => true;
const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const jsUrl = (v: unknown): boolean => /^\s*javascript:/i.test(str(v));

/**
 * DevTools commands that can leave something of the client running in the page once they succeeded.
 * Deliberately not here: Runtime.compileScript (compiles, runs nothing; Runtime.runScript is here),
 * Runtime.addBinding (a function that only posts to the client's session; with the session gone its
 * calls go nowhere), Page.createIsolatedWorld (an empty world: what runs in it comes through
 * Runtime.evaluate/callFunctionOn, here), Input.* (the page's own handlers react; nothing of the
 * client stays), and overrides (Emulation.*, Network.*, Fetch interception), which Chrome clears with
 * the session.
 */
const LEAVES_SCRIPT: Readonly<Record<string, (params: Record<string, unknown>) => boolean>> = {
  'Runtime.evaluate': always,
  'Runtime.callFunctionOn': always,
  'Runtime.runScript': always,
  'Debugger.evaluateOnCallFrame': always,
  // Live edit: the page keeps calling the client's version of its own function.
  'Debugger.setScriptSource': always,
  // Runs in this document too when the client reloads or navigates while attached.
  'Page.addScriptToEvaluateOnNewDocument': always,
  'Page.addScriptToEvaluateOnLoad': always,
  // document.write of the client's HTML: its scripts run.
  'Page.setDocumentContent': always,
  // Inline handlers in the client's HTML (<img src=x onerror=...>) run and stay.
  'DOM.setOuterHTML': always,
  'DOM.setAttributeValue': (p) => /^(on|srcdoc$)/i.test(str(p['name'])) || jsUrl(p['value']),
  'DOM.setAttributesAsText': (p) => /\bon[a-z]+\s*=|srcdoc|javascript:/i.test(str(p['text'])),
  // The page runs the body the client wrote (Playwright route.fulfill, puppeteer request.respond).
  'Fetch.fulfillRequest': always,
  'Network.continueInterceptedRequest': (p) => p['rawResponse'] !== undefined,
  'Page.navigate': (p) => jsUrl(p['url']),
};

/** Whether a command that succeeded may have left the client's script in the page. */
export function leavesScript(method: string, params: Record<string, unknown> | undefined): boolean {
  return LEAVES_SCRIPT[method]?.(params ?? {}) ?? false;
}

let cache: Promise<Record<string, Mark>> | null = null;
function marks(): Promise<Record<string, Mark>> {
  cache ??= chrome.storage.session
    .get(STORAGE_KEY)
    .then((got) => {
      const v = got[STORAGE_KEY] as Record<string, Mark> | undefined;
      return v && typeof v === 'object' ? v : {};
    })
    .catch(() => ({}));
  return cache;
}
/** Known now without waiting (undefined until the first load). */
let known: Record<string, Mark> | undefined;

/** One change after another, so a mark and an end on the same tab never cross. */
let chain: Promise<unknown> = Promise.resolve();
function serially(fn: (all: Record<string, Mark>) => Promise<boolean>): Promise<void> {
  const next = chain.then(async () => {
    const all = await marks();
    known = all;
    if (await fn(all)) await chrome.storage.session.set({ [STORAGE_KEY]: all }).catch(() => undefined);
  });
  chain = next.catch((e: unknown) => console.warn('[browser-use-ext] agent script bookkeeping failed', e));
  return chain.then(() => undefined);
}

/** A CDP client's command succeeded in the tab: marked when it may have left script running. */
export function noteClientCommand(tabId: number, method: string, params?: Record<string, unknown>): void {
  if (!leavesScript(method, params)) return;
  noteClientScript(tabId);
}

/** Script of the agent ran in the tab (a CDP command above, or the evaluate action). */
export function noteClientScript(tabId: number): void {
  // The hot path (a client evaluates many times a second): nothing to write once marked and named.
  if (known?.[String(tabId)]?.agent) return;
  void serially(async (all) => {
    const key = String(tabId);
    const mark = all[key] ?? { agent: null };
    let changed = !all[key];
    // A client's first commands may come before its lease is published: named by a later one.
    if (mark.agent === null) {
      mark.agent = await holderName(tabId);
      changed ||= mark.agent !== null;
    }
    all[key] = mark;
    return changed;
  });
}

/** How long an end waits for trusted input's brief attachment to leave the tab before reloading. */
const DEBUGGER_GONE_MS = 10_000;

/**
 * The agent that put script in the tab ended or let go of it (its debugger detached, its lease
 * ended). The tab is reloaded, or kept as the person chose, once the extension's debugger is off it:
 * reloaded under the debugger, the client's init scripts would run again. A tab a CDP client holds by
 * then is left to it (the mark stays, and that client's end reloads it); a closed tab needs nothing.
 * Not awaited by the detach it follows: the client's answer does not wait for the reload.
 */
export function endClientPresence(tabId: number): Promise<void> {
  return serially(async (all) => {
    const key = String(tabId);
    const mark = all[key];
    if (!mark) return false;
    const t0 = Date.now();
    while (attachedNow(tabId) && !relayHolds(tabId) && Date.now() - t0 < DEBUGGER_GONE_MS) await new Promise((r) => setTimeout(r, 100));
    if (relayHolds(tabId)) return false;
    delete all[key];
    const tab = await chrome.tabs.get(tabId).catch(() => null);
    if (!tab) return true;
    const choice = scriptEndChoice((await chrome.storage.local.get(SETTING_KEYS.agentScriptEnd))[SETTING_KEYS.agentScriptEnd]);
    let outcome: ScriptEndLine['outcome'] = 'kept';
    let error: string | undefined;
    if (attachedNow(tabId)) {
      outcome = 'not_reloaded';
      error = 'the extension was still using the tab for real clicks and typing';
    } else if (choice === 'reload' && tab.status === 'loading') {
      // A navigation is already replacing the document (the next agent's navigate, the person's):
      // it ends the script as a reload would, and a reload now would abort it (net::ERR_ABORTED).
      outcome = 'reloaded';
    } else if (choice === 'reload') {
      // bypassCache false: the same page the person had, only without the agent's script.
      outcome = await chrome.tabs.reload(tabId).then(
        () => 'reloaded' as const,
        (e: unknown) => {
          error = e instanceof Error ? e.message : String(e);
          return 'not_reloaded' as const;
        },
      );
    }
    await addLine({
      at: Date.now(),
      tab_id: tabId,
      outcome,
      agent: mark.agent ?? (await holderName(tabId)),
      title: tab.title || 'Untitled',
      site: siteOf(tab.url),
      ...(error === undefined ? {} : { error }),
    });
    return true;
  });
}

/** The hello.client name of the agent holding the tab, from the bridge's latest agent_sessions. */
async function holderName(tabId: number): Promise<string | null> {
  const got = await chrome.storage.session.get(PANEL_KEYS.agents).catch(() => ({}) as Record<string, unknown>);
  const sessions = ((got as Record<string, unknown>)[PANEL_KEYS.agents] as AgentSessionInfo[] | undefined) ?? [];
  return sessions.find((s) => s.tabs.some((t) => t.tab_id === tabId))?.client.name ?? null;
}

function siteOf(url: string | undefined): string {
  try {
    return new URL(url ?? '').host;
  } catch {
    return '';
  }
}

async function addLine(line: ScriptEndLine): Promise<void> {
  const got = await chrome.storage.session.get(PANEL_KEYS.scriptEnds).catch(() => ({}) as Record<string, unknown>);
  const kept = ((got as Record<string, unknown>)[PANEL_KEYS.scriptEnds] as ScriptEndLine[] | undefined) ?? [];
  // One line per tab: the newest end says what the page is now.
  const others = kept.filter((l) => l.tab_id !== line.tab_id);
  await chrome.storage.session.set({ [PANEL_KEYS.scriptEnds]: [line, ...others].slice(0, MAX_SCRIPT_END_LINES) }).catch(() => undefined);
}
