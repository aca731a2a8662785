// The worker's side of the person's UI: the side panel (toolbar icon or Alt+Shift+B),
// the "Ask the agent about this" context-menu item, the in-page overlay's Stop, and the bridge
// messages meant for the person (task_progress, agent_sessions, backend_connectors, cdp_clients, errors about tasks). Registered
// synchronously at top level from index.ts (MV3: a worker woken by an event sees only listeners that
// exist when the script first runs).
import type { CdpClientsMessage, ContextElement, ErrorMessage, ProtocolMessage } from '../../../../schemas/generated/protocol';
import { STORAGE_KEYS } from '../../shared/config';
import {
  type AgentSessionInfo,
  cdpClientName,
  type DownloadLine,
  isPanelRequest,
  MAX_DOWNLOAD_LINES,
  PANEL_KEYS,
  type PanelRequest,
  type PanelResponse,
  SETTING_KEYS,
  UI_CHANNEL,
  type UiRequest,
} from '../../shared/panel-messages';
import type { BridgeConnection } from '../connection/bridge-connection';
import { keepBridgeName } from '../connection/browser-self';
import { onAgentDownload } from '../page-watch/downloads';
import { followBadgeState } from './action-badge';
import { onRenameError, onRenameSessions, renameBrowser } from './browser-rename';
import { controllerOf, onAgentSessions, onTabComplete } from './controlled-tabs';
import { clearFinishedTasks, onTaskError, onTaskProgress, runningTaskIds, submitTask, taskControl } from './task-relay';

const MENU_ID = 'bux-ask-agent';

/**
 * Panel requests the bridge answers by request_id (connector_control with backend_connectors,
 * cdp_client_control with cdp_clients, or an error): the answer settles the panel's request.
 */
const bridgeReplies = new Map<string, (r: PanelResponse) => void>();
const BRIDGE_REPLY_MS = 15_000;

function askBridge(
  send: (m: ProtocolMessage) => boolean,
  prefix: string,
  build: (request_id: string) => ProtocolMessage,
): Promise<PanelResponse> {
  const request_id = `${prefix}-${crypto.randomUUID()}`;
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      bridgeReplies.delete(request_id);
      resolve({ ok: false, error: 'The bridge did not answer within 15 s. Check that it runs (connection status above), then try again.' });
    }, BRIDGE_REPLY_MS);
    bridgeReplies.set(request_id, (r) => {
      clearTimeout(timer);
      bridgeReplies.delete(request_id);
      resolve(r);
    });
    if (!send(build(request_id)))
      bridgeReplies.get(request_id)?.({ ok: false, error: 'Not connected to the bridge; see the connection status above.' });
  });
}

function connectorControl(
  send: (m: ProtocolMessage) => boolean,
  m: { command: 'add'; dialect: '000' | '001'; url: string } | { command: 'remove'; connector_id: string },
): Promise<PanelResponse> {
  return askBridge(send, 'conn', (request_id) => ({ type: 'connector_control', request_id, ...m }));
}

/** Names of the URLs a revoke is waiting for, by request_id: the answer must no longer list the name. */
const revoking = new Map<string, string>();

function cdpRevoke(send: (m: ProtocolMessage) => boolean, name: string): Promise<PanelResponse> {
  let id = '';
  return askBridge(send, 'cdp', (request_id) => {
    id = request_id;
    revoking.set(request_id, name);
    return { type: 'cdp_client_control', request_id, op: 'revoke', name };
  }).finally(() => revoking.delete(id));
}

/** Names of the stopped URLs an "Allow again" is waiting for, by request_id: the answer must list them allowed. */
const allowing = new Map<string, string>();

function cdpAllow(send: (m: ProtocolMessage) => boolean, name: string): Promise<PanelResponse> {
  let id = '';
  return askBridge(send, 'cdp', (request_id) => {
    id = request_id;
    allowing.set(request_id, name);
    return { type: 'cdp_client_control', request_id, op: 'allow', name };
  }).finally(() => allowing.delete(id));
}

function onCdpClients(m: CdpClientsMessage): void {
  void chrome.storage.session.set({ [PANEL_KEYS.cdpClients]: m.clients });
  if (!m.request_id) return;
  const allowed = allowing.get(m.request_id);
  if (allowed !== undefined) {
    // Nothing is reported allowed that the bridge still lists as stopped.
    const stopped = m.clients.find((c) => c.name === allowed)?.stopped_at;
    return void bridgeReplies.get(m.request_id)?.(
      stopped
        ? { ok: false, error: `The bridge answered but "${allowed}" is still stopped. Try again, or make a new URL in a terminal.` }
        : { ok: true },
    );
  }
  const name = revoking.get(m.request_id);
  // Nothing is reported revoked that the bridge still lists.
  const still = name !== undefined && m.clients.some((c) => c.name === name);
  bridgeReplies.get(m.request_id)?.(
    still
      ? {
          ok: false,
          error: `The bridge answered but still lists "${name}": it was not revoked. Try again, or run browser-use-ext cdp-url --revoke ${name} in a terminal.`,
        }
      : { ok: true },
  );
}

function onReplyError(e: ErrorMessage): boolean {
  const answer = e.in_reply_to ? bridgeReplies.get(e.in_reply_to) : undefined;
  if (!answer) return false;
  // A revoke shows the bridge's words, with the code apart (the panel puts it on a details line);
  // the connector list keeps its "CODE: message" line.
  const cdp = e.in_reply_to?.startsWith('cdp-') ?? false;
  answer({
    ok: false,
    error_code: e.error_info.error_code,
    error: cdp ? e.error_info.message : `${e.error_info.error_code}: ${e.error_info.message}`,
  });
  return true;
}

/** A message from one of this extension's own pages (not a content script, not another extension). */
export function isFromExtensionPage(sender: chrome.runtime.MessageSender): boolean {
  return sender.id === chrome.runtime.id && !!sender.url?.startsWith(chrome.runtime.getURL(''));
}

/** The panel's line for a download an agent's action caused (newest first, a few kept for this browser session). */
let downloadsWrite: Promise<void> = Promise.resolve();
function noteDownload(line: DownloadLine): void {
  // One write after another: two downloads answered together must both be kept.
  downloadsWrite = downloadsWrite
    .then(async () => {
      const got = await chrome.storage.session.get(PANEL_KEYS.downloads);
      const kept = (got[PANEL_KEYS.downloads] as DownloadLine[] | undefined) ?? [];
      await chrome.storage.session.set({ [PANEL_KEYS.downloads]: [line, ...kept].slice(0, MAX_DOWNLOAD_LINES) });
    })
    .catch(() => undefined);
}

export function registerPanelRelay(connection: BridgeConnection): void {
  onAgentDownload(noteDownload);
  followBadgeState();
  const send = (m: ProtocolMessage): boolean => {
    if (!connection.connected) return false;
    connection.send(m);
    return true;
  };

  // Toolbar icon (and its keyboard shortcut, _execute_action) opens the side panel.
  chrome.sidePanel?.setPanelBehavior({ openPanelOnActionClick: true }).catch(() => undefined);

  chrome.runtime.onInstalled.addListener(() => {
    chrome.contextMenus.create({ id: MENU_ID, title: 'Ask the agent about this', contexts: ['all'] }, () => void chrome.runtime.lastError);
  });
  chrome.contextMenus.onClicked.addListener((info, tab) => {
    if (info.menuItemId !== MENU_ID || tab?.id === undefined) return;
    // Open first: sidePanel.open needs the user gesture this click carries, which ends at the first await.
    chrome.sidePanel?.open({ tabId: tab.id }).catch(() => undefined);
    void rememberElement(tab.id, info.frameId ?? 0, info.selectionText ?? null);
  });

  chrome.tabs.onUpdated.addListener((tabId, change) => {
    if (change.status === 'complete') void onTabComplete(tabId);
  });

  chrome.runtime.onMessage.addListener((message: unknown, sender, sendResponse: (r: PanelResponse) => void) => {
    if (!isPanelRequest(message)) return false;
    void handle(message, sender, send, connection).then(sendResponse, (e: unknown) =>
      sendResponse({ ok: false, error: e instanceof Error ? e.message : String(e) }),
    );
    return true;
  });

  // The person's tab limit per agent goes to the bridge on every connect and on every change.
  const sendTabLimit = () =>
    void chrome.storage.local.get(SETTING_KEYS.maxTabsPerAgent).then((v) => {
      const n = v[SETTING_KEYS.maxTabsPerAgent];
      send({
        type: 'session_control',
        command: 'set_tab_limit',
        max_tabs: typeof n === 'number' && Number.isInteger(n) && n >= 1 && n <= 100 ? n : null,
      });
    });
  connection.onReady(sendTabLimit);
  chrome.storage.onChanged.addListener((changes, area) => {
    if (area === 'local' && SETTING_KEYS.maxTabsPerAgent in changes) sendTabLimit();
    // A new pairing or bridge address: what the old bridge listed (its agents, CDP clients, backends)
    // is not what the panel is paired with now. Forgotten at once; the next bridge sends its own
    // lists when it accepts this browser, and until then the panel lists none.
    if (area === 'local' && (STORAGE_KEYS.extensionSecret in changes || STORAGE_KEYS.bridgeUrl in changes)) void forgetBridgeLists();
  });
}

/** The lists one bridge sent for the panel (chrome.storage.session). */
export function forgetBridgeLists(): Promise<void> {
  return chrome.storage.session
    .remove([
      PANEL_KEYS.agents,
      PANEL_KEYS.agentsTotal,
      PANEL_KEYS.cdpClients,
      PANEL_KEYS.connectors,
      PANEL_KEYS.browser,
      PANEL_KEYS.otherBrowsers,
    ])
    .catch(() => undefined);
}

/** Bridge messages for the person. Returns true when handled. */
export function onBridgeMessage(message: ProtocolMessage): boolean {
  switch (message.type) {
    case 'task_progress':
      void onTaskProgress(message);
      return true;
    case 'agent_sessions':
      void chrome.storage.session.set({
        [PANEL_KEYS.agents]: message.sessions,
        [PANEL_KEYS.agentsTotal]: message.total ?? message.sessions.length,
        // A bridge that serves one browser sends neither: the panel then shows no other browsers.
        [PANEL_KEYS.browser]: message.browser ?? null,
        [PANEL_KEYS.otherBrowsers]: message.other_browsers ?? [],
      });
      void keepBridgeName(message.browser);
      onRenameSessions(message);
      void onAgentSessions(message.sessions, message.total);
      return true;
    case 'backend_connectors':
      void chrome.storage.session.set({ [PANEL_KEYS.connectors]: message.connectors });
      if (message.request_id) bridgeReplies.get(message.request_id)?.({ ok: true });
      return true;
    case 'cdp_clients':
      onCdpClients(message);
      return true;
    case 'error':
      return onReplyError(message) || onTaskError(message) || onRenameError(message);
    default:
      return false;
  }
}

async function handle(
  req: PanelRequest,
  sender: chrome.runtime.MessageSender,
  send: (m: ProtocolMessage) => boolean,
  connection: BridgeConnection,
): Promise<PanelResponse> {
  // Every panel request comes from the extension's own pages (the side panel, the options page),
  // never from a content script in a web page: a compromised page must not submit tasks, end or
  // redirect agents, take tabs or reconnect the bridge. The overlay's Stop is the one request a
  // content script sends, and it acts on its own tab only.
  if (req.bux !== 'overlay' && !isFromExtensionPage(sender))
    return { ok: false, error: "This request is accepted only from the extension's side panel." };
  if (req.bux === 'overlay') {
    // Stop in the page: stop the agent's task, or take the tab back when it runs none.
    const tabId = sender.tab?.id;
    if (tabId === undefined) return { ok: false, error: 'no tab' };
    const c = await controllerOf(tabId);
    if (!c) return { ok: false, error: 'No agent controls this tab any more.' };
    if (c.task) return taskControl(send, c.task, 'stop');
    // `serve` runs each task in a session of its own (the one holding the tab), apart from the session
    // that took the task: stop the panel's running tasks too, then take the tab back. A CDP client
    // never runs the panel's tasks: Stop on its tab stops that client (as Disconnect in the panel does: the
    // bridge then refuses its URL until the person allows it again) and leaves other agents' tasks alone.
    if (await isCdpClient(c.session))
      return send({ type: 'session_control', command: 'disconnect', session_id: c.session })
        ? { ok: true }
        : { ok: false, error: 'Not connected to the bridge.' };
    for (const id of await runningTaskIds()) taskControl(send, id, 'stop');
    return send({ type: 'session_control', command: 'release_tab', session_id: c.session, tab_id: tabId })
      ? { ok: true }
      : { ok: false, error: 'Not connected to the bridge.' };
  }
  switch (req.op) {
    case 'submit_task': {
      const element = req.use_element
        ? (((await chrome.storage.session.get(PANEL_KEYS.pendingElement))[PANEL_KEYS.pendingElement] as ContextElement | undefined) ?? null)
        : null;
      const r = await submitTask(send, connection.connected, req.prompt, element, req.agent_session_id ?? null);
      if (r.ok) await chrome.storage.session.remove(PANEL_KEYS.pendingElement);
      return r;
    }
    case 'task_control':
      return taskControl(send, req.task_id, req.command, req.text);
    case 'release_tab':
      return send({ type: 'session_control', command: 'release_tab', session_id: req.session_id, tab_id: req.tab_id })
        ? { ok: true }
        : { ok: false, error: 'Not connected to the bridge.' };
    case 'disconnect_agent':
      return send({ type: 'session_control', command: 'disconnect', session_id: req.session_id })
        ? { ok: true }
        : { ok: false, error: 'Not connected to the bridge.' };
    case 'connector_add':
    case 'connector_remove':
      return req.op === 'connector_add'
        ? connectorControl(send, { command: 'add', dialect: req.dialect, url: req.url })
        : connectorControl(send, { command: 'remove', connector_id: req.connector_id });
    case 'cdp_revoke':
      return cdpRevoke(send, req.name);
    case 'cdp_allow':
      return cdpAllow(send, req.name);
    case 'reconnect':
      connection.reconnectNow();
      return { ok: true };
    case 'clear_tasks':
      await clearFinishedTasks();
      return { ok: true };
    case 'rename_browser':
      return renameBrowser(send, req.name);
  }
}

/** The session is a CDP client's (the bridge names it cdp:<URL name> in agent_sessions). */
async function isCdpClient(sessionId: string): Promise<boolean> {
  const got = await chrome.storage.session.get(PANEL_KEYS.agents);
  const sessions = (got[PANEL_KEYS.agents] as AgentSessionInfo[] | undefined) ?? [];
  const s = sessions.find((a) => a.session_id === sessionId);
  return s !== undefined && cdpClientName(s.client.name) !== null;
}

async function rememberElement(tabId: number, frameId: number, selection: string | null): Promise<void> {
  const req: UiRequest = { channel: UI_CHANNEL, kind: 'context_element' };
  const got = (await chrome.tabs.sendMessage(tabId, req, { frameId }).catch(() => null)) as ContextElement | null;
  const element: ContextElement =
    got && typeof got === 'object' && typeof got.tag === 'string'
      ? { ...got, frame_id: frameId }
      : {
          tag: 'selection',
          role: null,
          name: null,
          text: selection?.slice(0, 2000) ?? null,
          href: null,
          selector: null,
          frame_id: frameId,
        };
  await chrome.storage.session.set({ [PANEL_KEYS.pendingElement]: element });
}
