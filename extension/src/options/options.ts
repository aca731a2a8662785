// Options page: the pairing secret, the bridge URL, what agents may do (evaluate, trusted input, tab
// limit, domains, PII redaction), saved tools and the dialog policy. Saving the secret or the URL
// makes the worker reconnect (chrome.storage.onChanged in bridge-connection.ts); the connection
// status below the title is the worker's (connection-status.ts), so a wrong secret or port shows as
// such instead of "Saved.".
import { DEFAULT_BRIDGE_URL, STORAGE_KEYS } from '../shared/config';
import { displayFolder, folderFromInput } from '../shared/local-files';
import { DEFAULT_DIALOG_POLICY, type DialogPolicy } from '../shared/page-link';
import { type ConnectionStatus, PANEL_KEYS, type SavedTool, SETTING_KEYS } from '../shared/panel-messages';

const urlInput = document.getElementById('bridge-url') as HTMLInputElement;
const secretInput = document.getElementById('extension-secret') as HTMLInputElement;
const secretState = document.getElementById('secret-state') as HTMLSpanElement;
const evaluateBox = document.getElementById('allow-evaluate') as HTMLInputElement;
const trustedBox = document.getElementById('trusted-input') as HTMLInputElement;
const confirmSel = document.getElementById('dialog-confirm') as HTMLSelectElement;
const promptSel = document.getElementById('dialog-prompt') as HTMLSelectElement;
const promptText = document.getElementById('dialog-prompt-text') as HTMLInputElement;
const unloadSel = document.getElementById('dialog-beforeunload') as HTMLSelectElement;
const saved = document.getElementById('saved') as HTMLSpanElement;
const form = document.getElementById('settings') as HTMLFormElement;
const statusBox = document.getElementById('status') as HTMLDivElement;
const maxTabs = document.getElementById('max-tabs') as HTMLInputElement;
const allowedBox = document.getElementById('allowed-domains') as HTMLTextAreaElement;
const blockedBox = document.getElementById('blocked-domains') as HTMLTextAreaElement;
const redactBox = document.getElementById('redact-pii') as HTMLInputElement;
const toolsList = document.getElementById('tools-list') as HTMLUListElement;
const foldersBox = document.getElementById('local-folders') as HTMLTextAreaElement;
const foldersWarning = document.getElementById('local-folders-warning') as HTMLParagraphElement;

function showStatus(s: ConnectionStatus | undefined): void {
  statusBox.dataset['state'] = s?.state ?? 'connecting';
  statusBox.textContent = s ? `${s.message} ${s.state === 'connected' ? '' : s.next_step}` : 'Connection: checking…';
}
void chrome.storage.session.get(PANEL_KEYS.connection).then((v) => showStatus(v[PANEL_KEYS.connection] as ConnectionStatus | undefined));
chrome.storage.onChanged.addListener((changes, area) => {
  if (area === 'session' && PANEL_KEYS.connection in changes)
    showStatus(changes[PANEL_KEYS.connection]?.newValue as ConnectionStatus | undefined);
});

function addToolRow(tool: SavedTool = { name: '', url: '' }): void {
  const li = document.createElement('li');
  const name = Object.assign(document.createElement('input'), {
    type: 'text',
    name: 'tool-name',
    placeholder: 'Name (e.g. Hacker News)',
    value: tool.name,
  });
  const url = Object.assign(document.createElement('input'), {
    type: 'url',
    name: 'tool-url',
    placeholder: 'https://news.ycombinator.com',
    value: tool.url,
  });
  const remove = Object.assign(document.createElement('button'), { type: 'button', textContent: 'Remove' });
  remove.addEventListener('click', () => li.remove());
  li.append(name, url, remove);
  toolsList.append(li);
}
(document.getElementById('add-tool') as HTMLButtonElement).addEventListener('click', () => addToolRow());

function readTools(): { tools: SavedTool[]; error: string | null } {
  const tools: SavedTool[] = [];
  const seen = new Set<string>();
  for (const li of toolsList.querySelectorAll('li')) {
    const name = (li.querySelector('input[name=tool-name]') as HTMLInputElement).value.trim();
    const url = (li.querySelector('input[name=tool-url]') as HTMLInputElement).value.trim();
    if (!name && !url) continue;
    if (!name || !/^https?:\/\//.test(url)) return { tools, error: `Each tool needs a name and an http(s) URL ("${name || url}").` };
    if (seen.has(name.toLowerCase())) return { tools, error: `Two tools are named "${name}" (names are compared ignoring letter case).` };
    seen.add(name.toLowerCase());
    tools.push({ name, url });
  }
  return { tools, error: null };
}

const lines = (t: string) =>
  t
    .split(/[\n,]/)
    .map((x) => x.trim().toLowerCase())
    .filter(Boolean);
const badDomain = (d: string) => !/^(\*\.)?[a-z0-9-]+(\.[a-z0-9-]+)*$/.test(d);

void chrome.storage.local
  .get([
    STORAGE_KEYS.bridgeUrl,
    STORAGE_KEYS.extensionSecret,
    STORAGE_KEYS.allowEvaluate,
    STORAGE_KEYS.trustedInput,
    STORAGE_KEYS.dialogPolicy,
    ...Object.values(SETTING_KEYS),
  ])
  .then((v) => {
    const n = v[SETTING_KEYS.maxTabsPerAgent];
    maxTabs.value = typeof n === 'number' ? String(n) : '';
    allowedBox.value = Array.isArray(v[SETTING_KEYS.allowedDomains]) ? (v[SETTING_KEYS.allowedDomains] as string[]).join('\n') : '';
    blockedBox.value = Array.isArray(v[SETTING_KEYS.blockedDomains]) ? (v[SETTING_KEYS.blockedDomains] as string[]).join('\n') : '';
    redactBox.checked = v[SETTING_KEYS.redactPii] === true;
    const stored = v[SETTING_KEYS.localFileFolders];
    foldersBox.value = Array.isArray(stored)
      ? stored
          .filter((f): f is string => typeof f === 'string')
          .map(displayFolder)
          .join('\n')
      : '';
    const tools = Array.isArray(v[SETTING_KEYS.savedTools]) ? (v[SETTING_KEYS.savedTools] as SavedTool[]) : [];
    for (const t of tools) if (typeof t?.name === 'string' && typeof t.url === 'string') addToolRow(t);
    if (!tools.length) addToolRow();
    const url = v[STORAGE_KEYS.bridgeUrl];
    urlInput.value = typeof url === 'string' ? url : DEFAULT_BRIDGE_URL;
    // The secret is never shown back; only whether one is stored.
    secretState.textContent =
      typeof v[STORAGE_KEYS.extensionSecret] === 'string' ? 'A secret is saved; paste a new one to replace it.' : 'Not paired yet.';
    evaluateBox.checked = v[STORAGE_KEYS.allowEvaluate] === true;
    trustedBox.checked = v[STORAGE_KEYS.trustedInput] === true;
    const policy: DialogPolicy = { ...DEFAULT_DIALOG_POLICY, ...(v[STORAGE_KEYS.dialogPolicy] as Partial<DialogPolicy> | undefined) };
    confirmSel.value = policy.confirm;
    promptSel.value = policy.prompt;
    promptText.value = policy.prompt_text ?? '';
    unloadSel.value = policy.beforeunload;
  });

const choice = (sel: HTMLSelectElement): 'accept' | 'dismiss' => (sel.value === 'dismiss' ? 'dismiss' : 'accept');

form.addEventListener('submit', (ev) => {
  ev.preventDefault();
  const url = urlInput.value.trim();
  if (!/^ws:\/\/(127\.0\.0\.1|localhost|\[::1\]):\d+\/extension$/.test(url)) {
    saved.textContent = 'Use ws://127.0.0.1:<port>/extension (the bridge listens on loopback only).';
    return;
  }
  const secret = secretInput.value.trim();
  if (secret && !/^[A-Za-z0-9_-]{16,}$/.test(secret)) {
    saved.textContent = 'That does not look like a pairing secret: copy the extension secret exactly as --print-pairing shows it.';
    return;
  }
  const tabs = maxTabs.value.trim() === '' ? null : Number(maxTabs.value);
  if (tabs !== null && !(Number.isInteger(tabs) && tabs >= 1 && tabs <= 100)) {
    saved.textContent = 'Tabs per agent must be a whole number from 1 to 100, or empty.';
    return;
  }
  const allowed = lines(allowedBox.value);
  const blocked = lines(blockedBox.value);
  const bad = [...allowed, ...blocked].find(badDomain);
  if (bad) {
    saved.textContent = `"${bad}" is not a domain: write example.com or *.example.com, one per line.`;
    return;
  }
  const folders: string[] = [];
  const warnings: string[] = [];
  for (const line of foldersBox.value
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)) {
    const f = folderFromInput(line);
    if (!f.ok) {
      saved.textContent = f.error;
      return;
    }
    if (!folders.includes(f.url)) folders.push(f.url);
    if (f.warning) warnings.push(f.warning);
  }
  foldersWarning.textContent = warnings.join(' ');
  const { tools, error } = readTools();
  if (error) {
    saved.textContent = error;
    return;
  }
  const dialogPolicy: DialogPolicy = {
    confirm: choice(confirmSel),
    prompt: choice(promptSel),
    prompt_text: promptText.value === '' ? null : promptText.value,
    beforeunload: choice(unloadSel),
  };
  const values: Record<string, unknown> = {
    [STORAGE_KEYS.bridgeUrl]: url,
    [STORAGE_KEYS.allowEvaluate]: evaluateBox.checked,
    [STORAGE_KEYS.trustedInput]: trustedBox.checked,
    [STORAGE_KEYS.dialogPolicy]: dialogPolicy,
  };
  if (secret) values[STORAGE_KEYS.extensionSecret] = secret;
  Object.assign(values, {
    [SETTING_KEYS.allowedDomains]: allowed,
    [SETTING_KEYS.blockedDomains]: blocked,
    [SETTING_KEYS.redactPii]: redactBox.checked,
    [SETTING_KEYS.savedTools]: tools,
    [SETTING_KEYS.localFileFolders]: folders,
  });
  if (tabs === null) void chrome.storage.local.remove(SETTING_KEYS.maxTabsPerAgent);
  else values[SETTING_KEYS.maxTabsPerAgent] = tabs;
  void chrome.storage.local.set(values).then(() => {
    secretInput.value = '';
    if (secret) secretState.textContent = 'A secret is saved; paste a new one to replace it.';
    saved.textContent = secret ? 'Saved. Connecting with the new secret (see the status above)…' : 'Saved.';
  });
});
