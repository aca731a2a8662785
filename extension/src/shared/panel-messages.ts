// What the side panel, the options page and the in-page overlay exchange with the service worker
// (chrome.runtime messaging and chrome.storage, never the wire). The worker writes what the person
// sees into storage (connection status and agents in storage.session, tasks in storage.local so past
// tasks survive a browser restart); pages render from storage and follow chrome.storage.onChanged,
// so a panel opened later, or a worker that restarted, shows the same thing.
import type {
  AgentSessionInfo,
  BackendConnectorInfo,
  CdpClientsMessage,
  ContextElement,
  TaskStepDetails,
} from '../../../schemas/generated/protocol';

export const PANEL_KEYS = {
  /** storage.session: ConnectionStatus. */
  connection: 'bux_connection',
  /** storage.session: AgentSessionInfo[] from the bridge's latest agent_sessions. */
  agents: 'bux_agents',
  /** storage.session: agent_sessions.total, how many sessions the bridge holds (more than listed past one page). */
  agentsTotal: 'bux_agents_total',
  /** storage.local: TaskRecord[], newest first, at most MAX_TASKS. */
  tasks: 'bux_tasks',
  /** storage.session: the element the person right-clicked ("Ask the agent about this"), waiting for a question. */
  pendingElement: 'bux_pending_element',
  /** storage.session: BackendConnectorInfo[] from the bridge's latest backend_connectors (the panel's "Connect a backend"). */
  connectors: 'bux_connectors',
  /** storage.local: hello.client.name of the agent the person picked under "Run with" (kept across restarts; session ids are not). */
  taskRunner: 'bux_task_runner',
  /** storage.session: CdpClientInfo[] from the bridge's latest cdp_clients (the panel's "Clients connected over CDP"). */
  cdpClients: 'bux_cdp_clients',
  /** storage.session: DownloadLine[], newest first, at most MAX_DOWNLOAD_LINES: files agents' actions downloaded (or Chrome blocked). */
  downloads: 'bux_downloads',
  /** storage.session: ScriptEndLine[] (shared/script-ends.ts), newest first: pages reloaded (or kept) as their agent ended. */
  scriptEnds: 'bux_script_ends',
  /** storage.session: BrowserInfo, this browser as the bridge's latest agent_sessions names it. */
  browser: 'bux_browser',
  /** storage.session: BrowserInfo[], the other browsers on the same bridge (the panel's "Also connected" line). */
  otherBrowsers: 'bux_other_browsers',
} as const;

/** A download an agent's action caused, for the panel's line under Agents. */
export interface DownloadLine {
  /** ms since epoch. */
  at: number;
  state: 'complete' | 'in_progress' | 'interrupted' | 'blocked';
  /** The file's name ("report.csv"); for blocked: the URL's last path segment. */
  name: string;
  /** Absolute path where Chrome saved it ('' when blocked or not chosen yet). */
  path: string;
  /** The site it came from (host), for blocked ones. */
  site: string;
  /** Chrome's interrupt reason, when interrupted. */
  error?: string;
}

export const MAX_DOWNLOAD_LINES = 5;

/** The folder a path is in, by its own name ("Downloads"), as a person reads it. */
export function folderName(filePath: string): string {
  const parts = filePath.split(/[\\/]/).filter((p) => p !== '');
  return parts.length >= 2 ? (parts[parts.length - 2] ?? '') : filePath;
}

/** "Downloaded report.csv to Downloads", and what to do when Chrome blocked one. */
export function downloadLineText(d: DownloadLine): string {
  if (d.state === 'complete') return `Downloaded ${d.name} to ${folderName(d.path)}`;
  if (d.state === 'in_progress') return `Downloading ${d.name} to ${d.path ? folderName(d.path) : 'your Downloads folder'}…`;
  if (d.state === 'interrupted') return `Download of ${d.name} stopped (${d.error ?? 'interrupted'})`;
  return `Chrome blocked a download of ${d.name} from ${d.site}: allow automatic downloads for the site, or click it once by hand`;
}

/** One CDP endpoint URL (cdp-url --name) and the clients using it now, as the bridge reports them. */
export type CdpClientInfo = CdpClientsMessage['clients'][number];

/** The bridge's agent_sessions names a CDP client's session `cdp:<URL name>` (bridge/agents/cdp). */
export const CDP_AGENT_PREFIX = 'cdp:';
/** The URL name of a CDP client's agent session, or null for any other agent. */
export function cdpClientName(clientName: string): string | null {
  return clientName.startsWith(CDP_AGENT_PREFIX) && clientName.length > CDP_AGENT_PREFIX.length
    ? clientName.slice(CDP_AGENT_PREFIX.length)
    : null;
}

/** Settings keys in storage.local besides config.ts's (bridge URL, secret, evaluate, trusted input, dialogs). */
export const SETTING_KEYS = {
  maxTabsPerAgent: 'max_tabs_per_agent',
  allowedDomains: 'allowed_domains',
  blockedDomains: 'blocked_domains',
  redactPii: 'redact_pii',
  /** Array<{name, url}>: seed 002's saved tools; open_tool resolves a name case-insensitively (contract with h14). */
  savedTools: 'saved_tools',
  /** string[]: folders (canonical file: URLs ending in "/", shared/local-files.ts) whose files agents may read; none by default. */
  localFileFolders: 'local_file_folders',
  /** string[]: folders (file: URLs, as localFileFolders) whose files agents may put into a page (upload-policy.ts); none by default. */
  uploadFolders: 'upload_folders',
  /** 'reload' (default) | 'keep': a page an agent ran its own script in, when that agent ends (shared/script-ends.ts). */
  agentScriptEnd: 'agent_script_end',
} as const;

export interface SavedTool {
  name: string;
  url: string;
}

export const MAX_TASKS = 50;

export type ConnectionState =
  'not_paired' | 'connecting' | 'connected' | 'unreachable' | 'refused' | 'secret_refused' | 'version_mismatch' | 'rate_limited';

export interface ConnectionStatus {
  state: ConnectionState;
  /** The bridge URL tried. */
  url: string;
  /** One line for the person. */
  message: string;
  /** What to do next. */
  next_step: string;
  /** ms since epoch of the change. */
  since: number;
  bridge?: { name: string; version: string } | null;
  /** version_mismatch: which side to upgrade and the two versions. */
  upgrade?: 'extension' | 'bridge' | null;
  bridge_protocol_version?: number | null;
  extension_protocol_version?: number | null;
}

export type TaskState = 'submitted' | 'accepted' | 'running' | 'done' | 'incomplete' | 'failed' | 'stopped';

export interface TaskLogEntry {
  at: number;
  status: string;
  message: string;
  step?: number;
  details?: TaskStepDetails;
}

export interface TaskRecord {
  task_id: string;
  prompt: string;
  url: string;
  page_title: string;
  element?: ContextElement | null;
  submitted_at: number;
  state: TaskState;
  log: TaskLogEntry[];
  final_result?: string | null;
  /** Who runs it (session id), once known from agent_sessions. */
  session_id?: string | null;
}

export type PanelRequest =
  | { bux: 'panel'; op: 'submit_task'; prompt: string; use_element: boolean; agent_session_id?: string | null }
  | { bux: 'panel'; op: 'connector_add'; dialect: '000' | '001'; url: string }
  | { bux: 'panel'; op: 'connector_remove'; connector_id: string }
  | { bux: 'panel'; op: 'cdp_revoke'; name: string }
  | { bux: 'panel'; op: 'cdp_allow'; name: string }
  | { bux: 'panel'; op: 'task_control'; task_id: string; command: 'stop' | 'redirect'; text?: string }
  | { bux: 'panel'; op: 'release_tab'; session_id: string; tab_id: number }
  | { bux: 'panel'; op: 'disconnect_agent'; session_id: string }
  | { bux: 'panel'; op: 'reconnect' }
  | { bux: 'panel'; op: 'clear_tasks' }
  | { bux: 'panel'; op: 'rename_browser'; name: string }
  | { bux: 'overlay'; op: 'stop' };

/** note: what the person should know of a success (a name saved here that the bridge has not confirmed yet). */
export type PanelResponse = { ok: true; task_id?: string; note?: string } | { ok: false; error: string; error_code?: string };

export function isPanelRequest(m: unknown): m is PanelRequest {
  if (typeof m !== 'object' || m === null) return false;
  const r = m as Record<string, unknown>;
  return (r['bux'] === 'panel' || r['bux'] === 'overlay') && typeof r['op'] === 'string';
}

/** Messages the worker sends to the agent-ui content script (overlay, right-clicked element). */
export const UI_CHANNEL = 'bux-ui';
export type UiRequest =
  | { channel: typeof UI_CHANNEL; kind: 'overlay'; show: boolean; agent?: string; task?: string | null }
  | { channel: typeof UI_CHANNEL; kind: 'context_element' };

export type { AgentSessionInfo, BackendConnectorInfo };
