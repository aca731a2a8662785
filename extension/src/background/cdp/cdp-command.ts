// cdp_command: one DevTools command of a CDP client, relayed to chrome.debugger as is, answered by one
// cdp_result. A raw relay on the hot path: no settling, no page state, no re-read, no queue behind the
// tab's other actions (a CDP client keeps many commands in flight), so it is not an action and does
// not pass through run/dispatch.ts. Refused before Chrome sees them: commands not on the allow list
// (cdp-policy.ts) and navigations the person's settings forbid (person-policy.ts, the same verdict as
// the navigate action's).
import type { CdpCommandMessage, CdpResultMessage, ErrorInfo } from '../../../../schemas/generated/protocol';
import { errorInfo } from '../../../../schemas/lib/errors';
import { cdpTraceMark } from '../../shared/cdp-trace';
import { domainPolicyNow, hasDomainPolicy, policyError, scopeError, scopeIfRead, scopeNow, scopeWhenRead } from '../policy/person-policy';
import { cdpFileRefusal } from '../policy/upload-policy';
import { maskedCapture } from './capture-mask';
import { hostOf, judgeMethod, siteShown } from './cdp-policy';
import { lostAttachment } from './cdp-relay';
import { frameRefusal, noteAnswer, scopeRefusal } from './cdp-scope';
import { noteClientInput } from './client-input';
import { noteClientCommand } from './client-script-marks';
import { relayHolds } from './debugger-attachments';

const WS = 'background_script' as const;

type Debuggee = chrome.debugger.DebuggerSession;
type Params = Record<string, unknown>;

/**
 * The command's answer. In the common case nothing is awaited before chrome.debugger.sendCommand:
 * every check below runs on every command, synchronously, on what the worker keeps current (the
 * relay's attachments, the scope of each held tab, the person's settings as last read); a check that
 * needs Chrome (the tab's frames, its URL under the person's site lists) or settings being read
 * again waits, as before. Each await costs a turn of the worker's event loop under load.
 */
export function runCdpCommand(command: CdpCommandMessage): Promise<CdpResultMessage> {
  cdpTraceMark('w_decoded', command.command_id);
  const { tab_id: tabId, method, session_id: sessionId } = command;
  const base = { type: 'cdp_result', original_command_id: command.command_id, tab_id: tabId } as const;
  const fail = (error: ErrorInfo): CdpResultMessage => ({ ...base, error_info: error });
  const failed = (e: unknown) => fail(chromeFailure(method, tabId, e));
  try {
    if (!relayHolds(tabId)) return notAttached(tabId).then(fail, failed);
    const target: Debuggee = sessionId === undefined ? { tabId } : { tabId, sessionId };
    // What the tab (or the session's frame) shows now must be in the client's scope: synchronous, every command.
    const outOfScope = scopeRefusal(tabId, sessionId, method);
    if (outOfScope) return Promise.resolve(fail(outOfScope));
    const refused = refusal(command, target);
    if (refused instanceof Promise) return refused.then((r) => (r ? fail(r) : relay(command, target, base)), failed).catch(failed);
    if (refused) return Promise.resolve(fail(refused));
    return relay(command, target, base).catch(failed);
  } catch (e) {
    return Promise.resolve(failed(e));
  }
}

/** Sends the judged command to Chrome (called synchronously: the await is on Chrome's answer) and builds its answer. */
async function relay(
  command: CdpCommandMessage,
  target: Debuggee,
  base: Pick<CdpResultMessage, 'type' | 'original_command_id' | 'tab_id'>,
): Promise<CdpResultMessage> {
  const { tab_id: tabId, method, session_id: sessionId } = command;
  noteClientInput(tabId, method, command.params);
  const params = method === 'Network.getCookies' ? await scopedParams(command) : command.params;
  cdpTraceMark('w_before');
  const sent = (await chrome.debugger.sendCommand(target, method, params)) as Params | undefined;
  cdpTraceMark('w_after');
  const result = method === 'Page.captureScreenshot' ? await maskedCapture(tabId, sessionId, method, command.params, sent) : sent;
  noteClientCommand(tabId, method, command.params);
  noteAnswer(tabId, sessionId, method, result);
  return { ...base, result: result ?? {} };
}

function chromeFailure(method: string, tabId: number, e: unknown): ErrorInfo {
  const cdp = chromeError(e);
  return errorInfo(
    'CDP_ERROR',
    `Chrome answered ${method} with an error: ${cdp.message}${cdp.data === undefined ? '' : ` (${typeof cdp.data === 'string' ? cdp.data : JSON.stringify(cdp.data)})`}. details.cdp_error is Chrome's error as given; correct the command and send it again.`,
    WS,
    { cdp_error: cdp, method, tab_id: tabId },
  );
}

/**
 * Chrome rejects sendCommand with its protocol error serialized as JSON ('{"code":-32000,"message":
 * "Could not find node with given id"}', Chromium 156), and with plain words for the extension
 * layer's own failures ("Debugger is not attached to the tab with id: 5."): those get -32000, the
 * protocol's generic server error.
 */
export function chromeError(e: unknown): { code: number; message: string; data?: unknown } {
  const text = e instanceof Error ? e.message : String(e);
  try {
    const j = JSON.parse(text) as { code?: unknown; message?: unknown; data?: unknown };
    if (typeof j.code === 'number' && typeof j.message === 'string')
      return { code: j.code, message: j.message, ...(j.data === undefined ? {} : { data: j.data }) };
  } catch {
    // plain words: below
  }
  return { code: -32000, message: text };
}

async function notAttached(tabId: number): Promise<ErrorInfo> {
  // A closed tab says so: the bridge ends the lease on TAB_NOT_FOUND.
  if (!(await chrome.tabs.get(tabId).catch(() => null)))
    return errorInfo('TAB_NOT_FOUND', `Tab ${tabId} was closed. Use another tab of yours, or open one.`, WS, { tab_id: tabId });
  const lost = await lostAttachment(tabId);
  if (lost !== null)
    return errorInfo('CDP_ERROR', lost, WS, { cdp_error: { code: -32000, message: lost }, reason: 'not_attached', tab_id: tabId });
  return errorInfo(
    'CDP_ERROR',
    `Tab ${tabId} is not attached to the DevTools protocol (never attached, detached by cdp_detach, or Chrome detached it: see the Inspector.detached event). Call cdp_attach on it first.`,
    WS,
    { cdp_error: { code: -32000, message: `Tab ${tabId} is not attached: call cdp_attach first.` }, reason: 'not_attached', tab_id: tabId },
  );
}

const refusedError = (method: string, tabId: number, why: string, section: string): ErrorInfo =>
  errorInfo(
    'NOT_PERMITTED',
    `${method} is refused: ${why}. A CDP client of browser-use-ext reaches only the tabs it holds; use the browser endpoint for tabs (Target.createTarget, Target.getTargets) and downloads. What a held tab allows: docs/CDP-METHODS.md#${section}`,
    WS,
    { reason: 'cdp_method_refused', method, tab_id: tabId, section },
  );

type Verdict = ErrorInfo | null;

/**
 * Why the command may not run, or null: synchronously when the checks need nothing from Chrome and
 * the person's settings are read (most commands), else a promise (waitingRefusal, the same checks).
 */
function refusal(command: CdpCommandMessage, target: Debuggee): Verdict | Promise<Verdict> {
  const { method, tab_id: tabId } = command;
  const params = command.params ?? {};
  const verdict = judgeMethod(method, params);
  if (!verdict.allowed) return refusedError(method, tabId, verdict.why, verdict.section);
  const { needs } = verdict;
  // Files to check against the upload folders, sites against the tab's frames, a history entry's URL: Chrome or storage is asked.
  if (needs.files.length > 0 || needs.sites.length > 0 || method === 'Page.navigateToHistoryEntry') return waitingRefusal(command, target);
  const url = method === 'Page.navigate' && typeof params['url'] === 'string' ? params['url'] : null;
  for (const u of absoluteUrls(needs.urls, url)) {
    const out = scopeIfRead(u);
    if (out === undefined) return waitingRefusal(command, target);
    if (out) return scopeError(method, u, out, { method, tab_id: tabId });
  }
  if (url !== null) return null;
  const inFrame = frameRefusal(tabId, target, method, params);
  if (inFrame instanceof Promise) return inFrame.then((r) => r ?? domainRefusal(method, tabId, domainPolicyNow()));
  return inFrame ?? domainRefusal(method, tabId, domainPolicyNow());
}

/** A relative URL (a Location header's "/next") stays on the page's own site: only absolute ones are judged. */
const absoluteUrls = (urls: readonly string[], navigation: string | null): string[] =>
  [...urls, ...(navigation === null ? [] : [navigation])].filter((x) => /^[a-z][a-z0-9+.-]*:/i.test(x));

/** The person's site lists (or a tab showing a local file) judge the tab's page; known: domainPolicyNow(), undefined while being read. */
function domainRefusal(method: string, tabId: number, known: boolean | undefined): Verdict | Promise<Verdict> {
  if (known === false) return null;
  return (async () => {
    if (!(await hasDomainPolicy())) return null;
    const tab = await chrome.tabs.get(tabId).catch(() => null);
    // Named by its method in the refusal ("Page.reload" refused: ...), as an action is by its name.
    return policyError({ action: method }, tab?.url ?? tab?.pendingUrl, tabId);
  })();
}

/** Every check of refusal(), waiting for what it needs (storage, Chrome's frames and history). */
async function waitingRefusal(command: CdpCommandMessage, target: Debuggee): Promise<Verdict> {
  const { method, tab_id: tabId } = command;
  const params = command.params ?? {};
  const verdict = judgeMethod(method, params);
  if (!verdict.allowed) return refusedError(method, tabId, verdict.why, verdict.section);
  // verdict.needs: the sites, URLs and frames the command would reach, each judged by the person's settings.
  const { needs } = verdict;
  // Local files a command puts into the page: only from the folders the person allowed for uploads.
  const upload = await cdpFileRefusal(method, needs.files);
  if (upload) return upload;
  if (needs.sites.length > 0) {
    const frames = (await chrome.webNavigation.getAllFrames({ tabId }).catch(() => null)) ?? [];
    const hosts = frames.flatMap((f) => {
      try {
        return [new URL(f.url).hostname.toLowerCase()];
      } catch {
        return [];
      }
    });
    // Shown in a frame is not enough: a frame of a blocked site is still out of the client's reach.
    const other = needs.sites.find((n) => !siteShown(n, hosts) || hostOutOfScope(n));
    if (other !== undefined)
      return refusedError(method, tabId, `${verdict.sitesWhy ?? 'it names a site this tab does not show'} (${other})`, verdict.section);
  }
  // A navigation is judged by where it goes, as the navigate action is (also away from a blocked page);
  // so is every URL a command loads or fetches for the page.
  const url = await navigationUrl(target, method, params);
  for (const u of absoluteUrls(needs.urls, url)) {
    const out = await scopeWhenRead(u);
    if (out) return scopeError(method, u, out, { method, tab_id: tabId });
  }
  if (url !== null) return null;
  const inFrame = await frameRefusal(tabId, target, method, params);
  return inFrame ?? domainRefusal(method, tabId, undefined);
}

/**
 * Network.getCookies with no urls reads the cookies of every frame of the page, Chrome's error page
 * for a blocked one included (it keeps the blocked URL): the client gets those of the frames in its
 * scope, named explicitly, which is what it asked for on any page without such a frame.
 */
async function scopedParams(command: CdpCommandMessage): Promise<CdpCommandMessage['params']> {
  if (command.method !== 'Network.getCookies' || command.params?.['urls'] !== undefined) return command.params;
  const frames = (await chrome.webNavigation.getAllFrames({ tabId: command.tab_id }).catch(() => null)) ?? [];
  const urls = [...new Set(frames.map((f) => f.url).filter((u) => /^https?:/i.test(u) && scopeNow(u) === null))];
  return { ...command.params, urls };
}

function hostOutOfScope(name: string): boolean {
  const host = hostOf(name);
  return host !== null && scopeNow(`https://${host}/`) !== null;
}

/** Where a navigation command goes; null for any other command (or a history entry Chrome does not know: Chrome answers that). */
async function navigationUrl(target: Debuggee, method: string, params: Params): Promise<string | null> {
  if (method === 'Page.navigate') return typeof params['url'] === 'string' ? params['url'] : null;
  if (method !== 'Page.navigateToHistoryEntry') return null;
  const history = (await chrome.debugger.sendCommand(target, 'Page.getNavigationHistory').catch(() => null)) as {
    entries?: { id: number; url: string }[];
  } | null;
  return history?.entries?.find((e) => e.id === params['entryId'])?.url ?? null;
}
