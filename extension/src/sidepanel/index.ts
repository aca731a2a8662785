// The side panel: connection state with what to do next, pairing, a task box with the
// page's context, the running task as a thread (task-thread.ts) with Stop and redirect, one entry
// per agent (shared/agent-entries.ts) with its task, its tabs (release / disconnect) and, for a CDP
// client, its address's details (cdp-clients.ts), past tasks.
// Renders from chrome.storage (written by the worker: panel-relay.ts, connection-status.ts,
// task-relay.ts) and follows its changes; commands go to the worker with chrome.runtime.sendMessage.
import type { AgentSessionInfo, ContextElement } from '../../../schemas/generated/protocol';
import { agentEntries, type AgentEntry, entrySessions, isWorking } from '../shared/agent-entries';
import { agentDetails, agentLabel, taskOfSessionName } from '../shared/agent-names';
import { dropPictographs, setCommandText, setCommandWords, showCommandsInCliForm } from '../shared/command-text';
import { DEFAULT_BRIDGE_URL, STORAGE_KEYS } from '../shared/config';
import { displayFolder } from '../shared/local-files';
import {
  type CdpClientInfo,
  cdpClientName,
  type ConnectionStatus,
  PANEL_KEYS,
  type PanelRequest,
  type PanelResponse,
  SETTING_KEYS,
  type TaskRecord,
} from '../shared/panel-messages';
import { showBrowsers } from './browsers-line';
import { CdpClientsView } from './cdp-clients';
import { ConnectorsView } from './connectors';
import { showAgentDownloads } from './downloads-list';
import { pairName, pairWithCode, pairWithSecret } from './pair';
import { showScriptEnds } from './script-ends-list';
import { TabNames } from './tab-names';
import { taskThread, type ThreadItem } from './task-thread';

const $ = <T extends HTMLElement = HTMLElement>(id: string) => document.getElementById(id) as T;
const el = <K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Partial<HTMLElementTagNameMap[K]> = {},
  ...children: (Node | string)[]
) => {
  const e = Object.assign(document.createElement(tag), props);
  e.append(...children);
  return e;
};

const TITLES: Record<ConnectionStatus['state'], string> = {
  not_paired: 'Not paired',
  connecting: 'Connecting…',
  connected: 'Connected',
  unreachable: 'Bridge unreachable',
  refused: 'Connection refused',
  secret_refused: 'Pairing secret refused',
  version_mismatch: 'Version mismatch',
  rate_limited: 'Temporarily blocked',
};

let connection: ConnectionStatus | null = null;
let agents: AgentSessionInfo[] = [];
/** How many sessions the bridge holds; more than agents.length when it sent one page of them. */
let agentsTotal = 0;
let tasks: TaskRecord[] = [];
let pending: ContextElement | null = null;
let pairOpen = false;
/** hello.client.name of the agent the person picked under "Run with" (storage.local). */
let runnerName: string | null = null;

const takers = () => agents.filter((a) => a.connected && a.capabilities.includes('accepts_tasks'));

const ask = (req: PanelRequest): Promise<PanelResponse> =>
  chrome.runtime
    .sendMessage(req)
    .catch((e: unknown) => ({ ok: false as const, error: e instanceof Error ? e.message : String(e) })) as Promise<PanelResponse>;

const tabNames = new TabNames();
const cdpView = new CdpClientsView(ask, tabNames);
const connectorsView = new ConnectorsView(ask);
connectorsView.onChange(() => renderAgents());
tabNames.onChange(() => renderAgents());

function renderConnection(): void {
  const c = connection;
  const state = c?.state ?? 'connecting';
  $('connection').dataset['state'] = state;
  $('conn-title').textContent = TITLES[state];
  $('conn-message').textContent = c?.message ?? 'Waiting for the extension to report its connection…';
  const taker = agents.some((a) => a.connected && a.capabilities.includes('accepts_tasks'));
  setCommandText(
    $('conn-next'),
    state === 'connected' && taker ? 'An agent that accepts tasks is connected: type a task below.' : (c?.next_step ?? ''),
  );
  $('conn-details').textContent = connectionDetails(c);
  $('conn-retry').hidden = state === 'connected' || state === 'not_paired';
  // Also while connected: pairing with another bridge starts here (its lists replace this one's).
  $('show-pair').hidden = state === 'not_paired' || pairOpen;
  $('show-pair').textContent = state === 'connected' ? 'Pair with another bridge' : 'Pair again';
  $('pair').hidden = !(pairOpen || state === 'not_paired' || state === 'secret_refused');
  const connected = state === 'connected';
  cdpView.setConnected(connected);
  $('agents-stale').hidden = connected || agents.length === 0;
  // Run task only when a task can start: a task sent to no agent failed, and the person lost what they typed.
  const why = !connected
    ? 'Run task is off until the extension is connected to the bridge (see above).'
    : !taker
      ? agents.some(isWorking)
        ? 'Run task is off: the agents at work here run their own programs and take no tasks from this box. What you type here stays.'
        : 'Run task is off: no agent that accepts tasks is connected. Start one as shown below; what you type here stays.'
      : '';
  $<HTMLButtonElement>('task-submit').disabled = why !== '';
  if ($('task-why').textContent !== why) $('task-why').classList.remove('tried');
  $('task-why').textContent = why;
  $('task-why').hidden = why === '';
  // How to start an agent that takes the tasks typed here; never while an agent is at work (a CDP or
  // MCP client driving tabs is an agent too, and the box read as if nothing were connected).
  $('no-agent').hidden = !connected || taker || agents.some(isWorking);
  renderRunner();
}

/** The small details line: the bridge address, and the versions when they matter. */
function connectionDetails(c: ConnectionStatus | null): string {
  if (!c) return '';
  const parts = [`Bridge address: ${c.url}`];
  if (c.state === 'connected' && c.bridge) parts.push(`${c.bridge.name} ${c.bridge.version}`);
  if (c.state === 'version_mismatch')
    parts.push(`protocol version: bridge ${c.bridge_protocol_version ?? '?'}, extension ${c.extension_protocol_version ?? '?'}`);
  return parts.join(' · ');
}

/** "Run with": every connected agent that accepts tasks; the person's pick persists by client name. */
function renderRunner(): void {
  const list = takers();
  const select = $<HTMLSelectElement>('task-runner');
  $('runner-row').hidden = list.length === 0;
  const chosen = list.find((a) => a.session_id === select.value) ?? list.find((a) => a.client.name === runnerName) ?? list[0];
  select.replaceChildren(
    ...list.map((a) => el('option', { value: a.session_id, textContent: agentLabel(a.client), selected: a === chosen })),
  );
  if (chosen) select.value = chosen.session_id;
}

function elementLabel(e: NonNullable<ContextElement>): string {
  const what = e.role ?? e.tag;
  const name = e.name ?? e.text;
  return `About: ${what}${name ? ` "${name.slice(0, 60)}"` : ''}`;
}

function renderPending(): void {
  $('pending-element').hidden = !pending;
  $('pending-element-text').textContent = pending ? elementLabel(pending) : '';
}

/** One line of a task's thread (task-thread.ts): a step in plain words, the person's redirect or Stop, an agent's note. */
function threadItem(item: ThreadItem): HTMLLIElement {
  switch (item.kind) {
    case 'step': {
      const li = el('li', { className: 'step' });
      // The whole title on hover too: a long one wraps, but the person may want it in one piece.
      const goal = `Step ${item.step ?? '?'}${item.goal ? ` · ${item.goal}` : ''}`;
      li.append(el('div', { className: 'goal', title: goal }, goal));
      for (const a of item.actions) {
        // Words, not check marks: a system without a symbol font shows those as empty boxes.
        const line = a.error ? `${a.words}: failed: ${a.error.slice(0, 300)}` : a.words;
        li.append(el('div', { className: a.error ? 'act err' : 'act', title: line }, line));
      }
      return li;
    }
    case 'redirect':
      return el('li', { className: 'you redirect' }, el('span', { className: 'who' }, 'You: '), item.text);
    case 'stop':
      return el('li', { className: 'you stop' }, el('span', { className: 'who' }, 'You: '), 'Stop');
    case 'note': {
      const li = el('li', { className: 'note' });
      const msg = el('div');
      setCommandText(msg, item.text);
      li.append(msg);
      return li;
    }
    case 'waiting':
      return el('li', { className: 'waiting' }, item.text);
    case 'answer':
      return el('li', { className: `answer ${item.ending}` }, answerText(item));
  }
}

// A task's outcome badge. Green "done" only when the agent said it reached the goal; an agent that
// gave up or ran out of steps ends "not completed" with its last words shown, never as done.
const ENDED: readonly string[] = ['done', 'incomplete', 'failed', 'stopped'];
const STATE_WORDS: Partial<Record<TaskRecord['state'], string>> = { incomplete: 'not completed' };
function outcomeBadge(badge: HTMLElement, state: TaskRecord['state']): HTMLElement {
  badge.textContent = STATE_WORDS[state] ?? state;
  badge.className = `badge ${state}`;
  badge.dataset['state'] = state;
  return badge;
}
const commandLine = (e: HTMLElement, text: string): HTMLElement => {
  setCommandText(e, text);
  return e;
};
type Answer = Extract<ThreadItem, { kind: 'answer' }>;
const answerText = (a: Answer) => (a.said ? `${a.ending === 'incomplete' ? 'The agent said' : 'Result'}: ${a.text}` : a.text);

/** The answer, once, under the thread: the agent's words, and why it ended when it said more. */
function renderAnswer(box: HTMLElement, a: Answer | undefined): void {
  box.hidden = !a;
  box.replaceChildren();
  if (!a) return;
  const text = el('div', { className: 'answer-text' });
  setCommandText(text, answerText(a));
  box.append(text);
  if (a.reason) {
    const why = el('div', { className: 'answer-reason' });
    setCommandText(why, a.reason);
    box.append(why);
  }
  box.dataset['state'] = a.ending; // green only for done (panel.css)
}

function renderTasks(): void {
  const current =
    tasks.find((t) => !ENDED.includes(t.state)) ?? (tasks[0] && Date.now() - tasks[0].submitted_at < 10 * 60_000 ? tasks[0] : undefined);
  $('current-task').hidden = !current;
  if (current) {
    $('current-task').dataset['taskId'] = current.task_id;
    $('current-prompt').textContent = current.prompt;
    outcomeBadge($('task-state'), current.state);
    const thread = taskThread(current);
    const log = $('task-log');
    log.replaceChildren(...thread.filter((i) => i.kind !== 'answer').map(threadItem));
    log.scrollTop = log.scrollHeight;
    renderAnswer(
      $('final-result'),
      thread.find((i): i is Answer => i.kind === 'answer'),
    );
    $('task-controls').hidden = ENDED.includes(current.state);
  }
  const past = tasks.filter((t) => t !== current);
  $('history').hidden = past.length === 0;
  $('history-list').replaceChildren(
    ...past.map((t) => {
      const thread = taskThread(t);
      const steps = thread.filter((i) => i.kind === 'step').length;
      const answer = thread.find((i): i is Answer => i.kind === 'answer');
      const details = el(
        'details',
        {},
        el('summary', {}, `${steps} step${steps === 1 ? '' : 's'}`),
        el('ol', { className: 'thread' }, ...thread.filter((i) => i.kind !== 'answer').map(threadItem)),
      );
      return el(
        'li',
        { className: `task-${t.state}` },
        el('div', { className: 'row' }, el('span', { className: 'prompt' }, t.prompt), outcomeBadge(el('span'), t.state)),
        ...(answer ? [commandLine(el('div', { className: 'result' }), answerText(answer))] : []),
        details,
      );
    }),
  );
  // Agents' words carry emoji (browser_use: "🖱️ Clicked button"): boxes without an emoji font.
  dropPictographs($('current-task'));
  dropPictographs($('history'));
}

/** The bridge's /status page (every session, unpaged), from the bridge URL the panel uses. */
function statusUrl(): string {
  const ws = savedBridgeUrl ?? connection?.url ?? DEFAULT_BRIDGE_URL;
  try {
    const u = new URL(ws);
    return `${u.protocol === 'wss:' ? 'https:' : 'http:'}//${u.host}/status`;
  } catch {
    return "the bridge's /status page";
  }
}

/** Past one page the bridge lists the sessions that matter most; say how many are not shown, and where they are. */
function agentsMore(): HTMLLIElement[] {
  const more = agentsTotal - agents.length;
  if (more <= 0) return [];
  return [
    el(
      'li',
      { className: 'agents-more' },
      `${more} more agent session${more === 1 ? '' : 's'} not listed here (the panel shows ${agents.length}: those holding tabs or tasks first). ` +
        `See all at ${statusUrl()}; end idle ones in their own programs.`,
    ),
  ];
}

/** The task an entry runs, as the person typed it (a task from elsewhere: its id is not shown). */
function taskLine(e: AgentEntry): HTMLElement | null {
  const ids = entrySessions(e).flatMap((x) => x.task_ids);
  const t = tasks.find((x) => ids.includes(x.task_id));
  // A task session the bridge did not link to its agent (an older bridge) still says which task it runs.
  const named = entrySessions(e)
    .map((x) => taskOfSessionName(x.client.name))
    .find((n) => n !== null);
  if (!ids.length && !named) return null;
  const line = el('p', { className: 'agent-task' }, t ? `Running: ${t.prompt}` : named ? `Running: ${named}` : 'Running a task');
  line.title = line.textContent ?? '';
  return line;
}

/** An entry's state in a word or two: a backend's own state, at work, or how it is connected. */
function entryStatus(e: AgentEntry): string {
  const a = e.head;
  const backend = connectorsView.forSession(a.session_id);
  if (backend) return backend.state;
  if (!a.connected) return `disconnected, tabs freed in ${Math.ceil((a.release_in_ms ?? 0) / 1000)} s`;
  if (entrySessions(e).some((x) => x.task_ids.length > 0)) return 'running a task';
  return a.capabilities.includes('accepts_tasks') ? 'accepts tasks' : 'connected';
}

function tabRow(sessionId: string, t: AgentSessionInfo['tabs'][number]): HTMLLIElement {
  const release = el('button', {
    type: 'button',
    className: 'secondary',
    textContent: 'Release',
    title: 'Take this tab back from the agent (it stays open)',
  });
  release.dataset['tabId'] = String(t.tab_id);
  release.setAttribute('aria-label', `Release ${tabNames.label(t.tab_id, t.url)}`);
  release.addEventListener('click', () => void ask({ bux: 'panel', op: 'release_tab', session_id: sessionId, tab_id: t.tab_id }));
  return el('li', {}, el('span', { title: t.url ?? '' }, tabNames.label(t.tab_id, t.url)), release);
}

/** Disconnect ends every session of the entry: the one running its task first, then the agent itself. */
function disconnectEntry(e: AgentEntry): void {
  for (const x of [...e.children, e.head]) void ask({ bux: 'panel', op: 'disconnect_agent', session_id: x.session_id });
}

function renderAgents(): void {
  $('agents-empty').hidden = agents.length > 0;
  tabNames.want(agents.flatMap((a) => a.tabs.map((t) => t.tab_id)));
  // A row the person is on (a CDP URL's Revoke, its confirm step) keeps the focus through the rebuild.
  const active =
    document.activeElement instanceof HTMLElement && $('agents').contains(document.activeElement) ? document.activeElement : null;
  /** Where each CDP URL's row goes: under the entry of the client using it. */
  const cdpHomes = new Map<string, HTMLElement>();
  $('agent-list').replaceChildren(
    ...agentEntries(agents).map((e) => {
      const backend = connectorsView.forSession(e.head.session_id);
      const label = backend?.label ?? e.label;
      const head = el(
        'div',
        { className: 'row agent' },
        el('span', { className: 'agent-name' }, label),
        el('span', { className: 'badge' }, entryStatus(e)),
      );
      const disconnect = el('button', {
        type: 'button',
        className: 'secondary',
        textContent: 'Disconnect',
        title: e.children.length
          ? 'End this agent now: its task stops and its tabs are freed'
          : 'End this agent session now: its tabs are freed and its task ends',
      });
      disconnect.setAttribute('aria-label', `Disconnect ${label}`);
      disconnect.dataset['sessionId'] = e.head.session_id;
      disconnect.addEventListener('click', () => disconnectEntry(e));
      head.append(disconnect);
      const all = entrySessions(e);
      const tabs = el('ul', { className: 'tabs' }, ...all.flatMap((x) => x.tabs.map((t) => tabRow(x.session_id, t))));
      if (!tabs.children.length) tabs.append(el('li', {}, el('span', {}, 'holds no tab')));
      const task = taskLine(e);
      const li = el(
        'li',
        {},
        head,
        ...(task ? [task] : []),
        el('p', { className: 'details agent-details' }, agentDetails(e.head.client)),
        ...(backend ? [el('div', { className: 'backend-of' }, backend.note)] : []),
        tabs,
      );
      li.dataset['sessionId'] = e.head.session_id;
      li.dataset['sessions'] = all.map((x) => x.session_id).join(' ');
      for (const x of all) {
        const url = cdpClientName(x.client.name);
        if (url !== null && !cdpHomes.has(url)) {
          const home = el('ul', { className: 'cdp-home' });
          home.setAttribute('aria-label', `CDP address ${url}`);
          cdpHomes.set(url, home);
          li.append(home);
        }
      }
      return li;
    }),
    ...agentsMore(),
  );
  cdpView.setHomes(cdpHomes);
  if (active && active.isConnected && document.activeElement !== active) active.focus();
  dropPictographs($('agent-list')); // page titles may carry emoji too
  renderConnection();
}

async function load(): Promise<void> {
  const [s, l] = await Promise.all([
    chrome.storage.session.get([PANEL_KEYS.connection, PANEL_KEYS.agents, PANEL_KEYS.pendingElement, PANEL_KEYS.cdpClients]),
    chrome.storage.local.get([PANEL_KEYS.tasks, STORAGE_KEYS.bridgeUrl, PANEL_KEYS.taskRunner]),
  ]);
  runnerName = typeof l[PANEL_KEYS.taskRunner] === 'string' ? (l[PANEL_KEYS.taskRunner] as string) : null;
  connection = (s[PANEL_KEYS.connection] as ConnectionStatus | undefined) ?? null;
  agents = (s[PANEL_KEYS.agents] as AgentSessionInfo[] | undefined) ?? [];
  agentsTotal = (s[PANEL_KEYS.agentsTotal] as number | undefined) ?? agents.length;
  pending = (s[PANEL_KEYS.pendingElement] as ContextElement | undefined) ?? null;
  tasks = (l[PANEL_KEYS.tasks] as TaskRecord[] | undefined) ?? [];
  const url = l[STORAGE_KEYS.bridgeUrl];
  savedBridgeUrl = typeof url === 'string' ? url : null;
  followBridgeUrl();
  renderConnection();
  renderAgents();
  renderPending();
  renderTasks();
  cdpView.set((s[PANEL_KEYS.cdpClients] as CdpClientInfo[] | undefined) ?? []);
}

chrome.storage.onChanged.addListener((changes, area) => {
  if (area === 'session') {
    if (PANEL_KEYS.connection in changes) {
      const before = connection?.state;
      connection = (changes[PANEL_KEYS.connection]?.newValue as ConnectionStatus | undefined) ?? null;
      followBridgeUrl();
      if (connection?.state === 'connected') pairOpen = false;
      // "Paired. Connecting…" is stale once the connection says what happened.
      const result = $('pair-result');
      if (connection?.state !== before && connection?.state !== 'connecting' && /^(Paired|Saved)\./.test(result.textContent ?? ''))
        result.textContent = '';
      renderConnection();
    }
    if (PANEL_KEYS.agents in changes || PANEL_KEYS.agentsTotal in changes) {
      if (PANEL_KEYS.agents in changes) agents = (changes[PANEL_KEYS.agents]?.newValue as AgentSessionInfo[] | undefined) ?? [];
      agentsTotal =
        PANEL_KEYS.agentsTotal in changes ? ((changes[PANEL_KEYS.agentsTotal]?.newValue as number | undefined) ?? 0) : agentsTotal;
      renderAgents();
    }
    if (PANEL_KEYS.cdpClients in changes) cdpView.set((changes[PANEL_KEYS.cdpClients]?.newValue as CdpClientInfo[] | undefined) ?? []);
    if (PANEL_KEYS.pendingElement in changes) {
      pending = (changes[PANEL_KEYS.pendingElement]?.newValue as ContextElement | undefined) ?? null;
      renderPending();
      if (pending) $<HTMLTextAreaElement>('task-input').focus();
    }
  }
  if (area === 'local' && STORAGE_KEYS.bridgeUrl in changes) {
    const v: unknown = changes[STORAGE_KEYS.bridgeUrl]?.newValue;
    savedBridgeUrl = typeof v === 'string' ? v : null;
    followBridgeUrl();
  }
  if (area === 'local' && PANEL_KEYS.tasks in changes) {
    tasks = (changes[PANEL_KEYS.tasks]?.newValue as TaskRecord[] | undefined) ?? [];
    renderTasks();
    renderAgents(); // an agent's entry names the task it runs
    clearAcceptedTask();
  }
});

// --- pairing --------------------------------------------------------------------------------------
// The pairing form's bridge URL follows the URL the worker actually dials until the person edits it.
// The panel can open before the worker has published its first connection status; filling the
// field once with the default then made a code go to ws://127.0.0.1:8765 while the bridge listened
// elsewhere (an installation configured by config.json, a bridge on another port): "No bridge
// answers" for a correct code.
let savedBridgeUrl: string | null = null;
let bridgeUrlEdited = false;
function followBridgeUrl(): void {
  if (bridgeUrlEdited) return;
  $<HTMLInputElement>('pair-url').value = savedBridgeUrl ?? connection?.url ?? DEFAULT_BRIDGE_URL;
}
$<HTMLInputElement>('pair-url').addEventListener('input', () => {
  bridgeUrlEdited = true;
});
showAgentDownloads($('agent-list'));
showBrowsers($('browser-name'), $('other-browsers'));
// The name field starts with this browser's name, or the brand's word for a browser that has none yet.
void pairName().then((n) => {
  const input = $<HTMLInputElement>('pair-name');
  if (!input.value) input.value = n;
});
showScriptEnds($('agent-list'));
$('show-pair').addEventListener('click', () => {
  pairOpen = true;
  renderConnection();
  $<HTMLInputElement>('pair-code').focus();
});
// The person's local-file setting, one line (the worker enforces it: person-policy.ts).
function showLocalFiles(v: unknown): void {
  const folders = Array.isArray(v) ? v.filter((f): f is string => typeof f === 'string') : [];
  $('policy-local-files').textContent = folders.length
    ? `Local files allowed in: ${folders.map(displayFolder).join(', ')}`
    : 'Local files: blocked';
}
void chrome.storage.local.get(SETTING_KEYS.localFileFolders).then((v) => showLocalFiles(v[SETTING_KEYS.localFileFolders]));
chrome.storage.onChanged.addListener((changes, area) => {
  if (area === 'local' && SETTING_KEYS.localFileFolders in changes) showLocalFiles(changes[SETTING_KEYS.localFileFolders]?.newValue);
});

$('conn-retry').addEventListener('click', () => void ask({ bux: 'panel', op: 'reconnect' }));
$('open-settings').addEventListener('click', (ev) => {
  ev.preventDefault();
  void chrome.runtime.openOptionsPage();
});
$<HTMLFormElement>('pair-form').addEventListener('submit', (ev) => {
  ev.preventDefault();
  void doPair();
});

async function doPair(): Promise<void> {
  const result = $('pair-result');
  const code = $<HTMLInputElement>('pair-code').value;
  const secret = $<HTMLInputElement>('pair-secret').value;
  const url = $<HTMLInputElement>('pair-url').value;
  const name = $<HTMLInputElement>('pair-name').value;
  result.textContent = 'Pairing…';
  const r = code.trim()
    ? await pairWithCode(code, url, name)
    : secret.trim()
      ? await pairWithSecret(secret, url, name)
      : { ok: false, message: 'Type the pairing code (or paste the secret).' };
  setCommandText(result, r.message);
  result.className = r.ok ? '' : 'error';
  if (r.ok) {
    $<HTMLInputElement>('pair-code').value = '';
    $<HTMLInputElement>('pair-secret').value = '';
    pairOpen = false;
  }
}

// A link from `browser-use-ext pair`: #pair=CODE&bridge=ws://...
function pairFromLink(): void {
  const h = new URLSearchParams(location.hash.slice(1));
  const code = h.get('pair');
  if (!code) return;
  const bridge = h.get('bridge');
  history.replaceState(null, '', location.pathname); // the code works once; do not keep it in the URL
  $<HTMLInputElement>('pair-code').value = code;
  if (bridge) {
    $<HTMLInputElement>('pair-url').value = bridge;
    bridgeUrlEdited = true;
  }
  pairOpen = true;
  void doPair();
}

// --- tasks ----------------------------------------------------------------------------------------
/** The task last sent and the text it carried: the box is emptied only once an agent took the task,
 * so a task that found no agent (or failed to start) leaves what the person typed in place. */
let sentTask: { id: string; text: string } | null = null;

function clearAcceptedTask(): void {
  if (!sentTask) return;
  const t = tasks.find((x) => x.task_id === sentTask?.id);
  if (!t || t.state === 'submitted') return;
  const accepted = t.state !== 'failed' || t.log.some((e) => e.status === 'accepted' || e.status === 'step');
  const input = $<HTMLTextAreaElement>('task-input');
  if (accepted && input.value === sentTask.text) input.value = '';
  sentTask = null;
}

async function submit(): Promise<void> {
  const input = $<HTMLTextAreaElement>('task-input');
  const err = $('task-error');
  err.textContent = '';
  const button = $<HTMLButtonElement>('task-submit');
  if (button.disabled) {
    // Ctrl+Enter while Run task is off: the reason under the button stands out; the text stays.
    $('task-why').classList.add('tried');
    return;
  }
  const runner = takers().find((a) => a.session_id === $<HTMLSelectElement>('task-runner').value);
  const r = await ask({
    bux: 'panel',
    op: 'submit_task',
    prompt: input.value,
    use_element: pending !== null,
    agent_session_id: runner?.session_id ?? null,
  });
  if (r.ok) {
    sentTask = r.task_id ? { id: r.task_id, text: input.value } : null;
    clearAcceptedTask();
  } else setCommandText(err, r.error);
}
$<HTMLFormElement>('task-form').addEventListener('submit', (ev) => {
  ev.preventDefault();
  void submit();
});
$('task-input').addEventListener('keydown', (ev) => {
  if (ev.key === 'Enter' && (ev.ctrlKey || ev.metaKey)) {
    ev.preventDefault();
    void submit();
  }
});
$('pending-element-clear').addEventListener('click', () => void chrome.storage.session.remove(PANEL_KEYS.pendingElement));
$('task-stop').addEventListener('click', () => {
  const id = $('current-task').dataset['taskId'];
  if (id)
    void ask({ bux: 'panel', op: 'task_control', task_id: id, command: 'stop' }).then(
      (r) => ($('task-error').textContent = r.ok ? '' : r.error),
    );
});
$<HTMLFormElement>('redirect-form').addEventListener('submit', (ev) => {
  ev.preventDefault();
  const id = $('current-task').dataset['taskId'];
  const input = $<HTMLInputElement>('redirect-input');
  if (!id) return;
  void ask({ bux: 'panel', op: 'task_control', task_id: id, command: 'redirect', text: input.value }).then((r) => {
    if (r.ok) input.value = '';
    $('task-error').textContent = r.ok ? '' : r.error;
  });
});
$('task-runner').addEventListener('change', () => {
  const a = takers().find((t) => t.session_id === $<HTMLSelectElement>('task-runner').value);
  runnerName = a?.client.name ?? null;
  void chrome.storage.local.set({ [PANEL_KEYS.taskRunner]: runnerName });
});

$('clear-history').addEventListener('click', () => void ask({ bux: 'panel', op: 'clear_tasks' }));

// Disconnected agents count down to their release.
setInterval(() => {
  if (agents.some((a) => !a.connected)) {
    agents = agents.map((a) =>
      a.connected || a.release_in_ms === null || a.release_in_ms === undefined
        ? a
        : { ...a, release_in_ms: Math.max(0, a.release_in_ms - 1000) },
    );
    renderAgents();
  }
}, 1000);

// The commands written in index.html wrap at their spaces only, like those the worker's texts carry
// (every <code> of the page: a flag like --dialect must not lose its dashes to a line break).
for (const code of document.querySelectorAll<HTMLElement>('code')) setCommandWords(code, code.textContent ?? '');

// Commands in the form the bridge's CLI is typed where it runs (npx in a checkout).
showCommandsInCliForm(document.body);
void load().then(pairFromLink);
