// The Settings page: the connection (bridge address, pairing secret), what agents may do (tab
// limit, scripts, real input), sites, local folders, privacy, saved tools and pop-up answers.
// Saving the secret or the address makes the worker reconnect (chrome.storage.onChanged in
// bridge-connection.ts); the status at the top is the worker's (connection-status.ts), so a wrong
// secret or port shows as such instead of "Saved.". Save sits in a bar that stays in view; Enter in
// a field (Ctrl+Enter in a text box) saves too. A value that cannot be saved is explained next to
// its field, and nothing is saved until every field is right.
import { BROWSER_KEYS, checkBrowserName, storedBrowserName, suggestedName, thisBrand } from '../shared/browser-name';
import { setCommandText, showCommandsInCliForm } from '../shared/command-text';
import { DEFAULT_BRIDGE_URL, loadConfig, STORAGE_KEYS } from '../shared/config';
import { DEFAULT_DIALOG_POLICY, type DialogPolicy } from '../shared/page-link';
import { type ConnectionStatus, PANEL_KEYS, type PanelResponse, type SavedTool, SETTING_KEYS } from '../shared/panel-messages';
import { scriptEndChoice } from '../shared/script-ends';
import { readFolders, showFolders } from './folder-box';

const $ = <T extends HTMLElement = HTMLElement>(id: string) => document.getElementById(id) as T;
const nameInput = $<HTMLInputElement>('browser-name');
const urlInput = $<HTMLInputElement>('bridge-url');
const secretInput = $<HTMLInputElement>('extension-secret');
const secretState = $('secret-state');
const evaluateBox = $<HTMLInputElement>('allow-evaluate');
const trustedBox = $<HTMLInputElement>('trusted-input');
const confirmSel = $<HTMLSelectElement>('dialog-confirm');
const promptSel = $<HTMLSelectElement>('dialog-prompt');
const promptText = $<HTMLInputElement>('dialog-prompt-text');
const unloadSel = $<HTMLSelectElement>('dialog-beforeunload');
const scriptEndSel = $<HTMLSelectElement>('agent-script-end');
const saved = $('saved');
const form = $<HTMLFormElement>('settings');
const statusBox = $('status');
const statusText = $('status-text');
const maxTabs = $<HTMLInputElement>('max-tabs');
const allowedBox = $<HTMLTextAreaElement>('allowed-domains');
const blockedBox = $<HTMLTextAreaElement>('blocked-domains');
const redactBox = $<HTMLInputElement>('redact-pii');
const toolsList = $<HTMLUListElement>('tools-list');
const foldersBox = $<HTMLTextAreaElement>('local-folders');
const foldersWarning = $('local-folders-warning');
const uploadBox = $<HTMLTextAreaElement>('upload-folders');
const uploadWarning = $('upload-folders-warning');

const SECRET_SAVED = 'A secret is saved; paste a new one only to replace it.';

function showStatus(s: ConnectionStatus | undefined): void {
  statusBox.dataset['state'] = s?.state ?? 'connecting';
  // Commands in the worker's status text as <code>, never literal backticks (the panel does the same).
  setCommandText(statusText, s ? `${s.message} ${s.state === 'connected' ? '' : s.next_step}`.trim() : 'Connection: checking…');
}
// Commands in the form the bridge's CLI is typed where it runs (npx in a checkout).
showCommandsInCliForm(document.body);
void chrome.storage.session.get(PANEL_KEYS.connection).then((v) => showStatus(v[PANEL_KEYS.connection] as ConnectionStatus | undefined));
chrome.storage.onChanged.addListener((changes, area) => {
  if (area === 'session' && PANEL_KEYS.connection in changes)
    showStatus(changes[PANEL_KEYS.connection]?.newValue as ConnectionStatus | undefined);
});

// --- the line in the save bar and the errors next to fields ----------------------------------------
function say(kind: 'ok' | 'error' | 'pending' | '', text: string): void {
  saved.dataset['kind'] = kind;
  if (saved.textContent !== text) {
    saved.textContent = text;
    return;
  }
  // The same words again (a second Save): empty the live region first, so a screen reader announces it again.
  saved.textContent = '';
  setTimeout(() => (saved.textContent = text), 50);
}

/** The element whose error paragraph is `${id}-error` (the tools list has one for all its rows). */
function setError(field: HTMLElement, errorId: string, message: string | null): void {
  $(errorId).textContent = message ?? '';
  if (message) field.setAttribute('aria-invalid', 'true');
  else field.removeAttribute('aria-invalid');
}

/** The Save bar sticks to the bottom of the window: what scrolls into view (focus, Tab) stops above it. */
const savebar = document.querySelector<HTMLElement>('.savebar');
if (savebar)
  new ResizeObserver(() =>
    document.documentElement.style.setProperty('--savebar-height', `${Math.ceil(savebar.getBoundingClientRect().height)}px`),
  ).observe(savebar);

/** Focus a field whose value cannot be saved, with its reason in view: below the top of the window
 * and above the Save bar (at 360 px the reason used to sit hidden under the bar). */
function reveal(field: HTMLElement, reason: HTMLElement): void {
  field.focus({ preventScroll: true });
  const barTop = savebar?.getBoundingClientRect().top ?? window.innerHeight;
  const top = field.getBoundingClientRect().top;
  const bottom = Math.max(field.getBoundingClientRect().bottom, reason.getBoundingClientRect().bottom);
  const margin = 8;
  // Too tall to fit both: the field's top wins (its reason follows right under it).
  if (bottom > barTop - margin) window.scrollBy(0, Math.min(bottom - barTop + margin, top - margin));
  else if (top < margin) window.scrollBy(0, top - margin);
}

function clearErrors(): void {
  for (const e of document.querySelectorAll('.field-error')) e.textContent = '';
  for (const e of document.querySelectorAll('[aria-invalid]')) e.removeAttribute('aria-invalid');
}

let dirty = false;
form.addEventListener('input', (ev) => {
  const t = ev.target;
  // An edited field's error is stale: clear it (the whole check runs again on Save).
  if (t instanceof HTMLElement && t.getAttribute('aria-invalid') === 'true') {
    t.removeAttribute('aria-invalid');
    const errId = t.closest('#tools-list') ? 'tools-error' : `${t.id}-error`;
    if (document.getElementById(errId)) $(errId).textContent = '';
  }
  if (!dirty) {
    dirty = true;
    say('pending', 'Unsaved changes.');
  }
});
form.addEventListener('change', () => {
  if (!dirty) {
    dirty = true;
    say('pending', 'Unsaved changes.');
  }
});
// Ctrl+Enter (Cmd+Enter) saves from a text box too, where Enter starts a new line; Enter on a
// checkbox saves as it does in a text field (browsers submit a form from text fields only).
form.addEventListener('keydown', (ev) => {
  const onCheckbox = ev.target instanceof HTMLInputElement && ev.target.type === 'checkbox';
  if (ev.key === 'Enter' && (ev.ctrlKey || ev.metaKey || onCheckbox)) {
    ev.preventDefault();
    form.requestSubmit();
  }
});

// --- saved tools -------------------------------------------------------------------------------------
let toolRows = 0;
function addToolRow(tool: SavedTool = { name: '', url: '' }, focus = false): void {
  const n = ++toolRows;
  const li = document.createElement('li');
  const nameLabel = Object.assign(document.createElement('label'), {
    className: 'sr-only',
    htmlFor: `tool-name-${n}`,
    textContent: 'Tool name',
  });
  const name = Object.assign(document.createElement('input'), {
    type: 'text',
    id: `tool-name-${n}`,
    name: 'tool-name',
    placeholder: 'Name',
    value: tool.name,
    autocomplete: 'off',
  });
  const urlLabel = Object.assign(document.createElement('label'), {
    className: 'sr-only',
    htmlFor: `tool-url-${n}`,
    textContent: 'Tool address',
  });
  const url = Object.assign(document.createElement('input'), {
    type: 'url',
    id: `tool-url-${n}`,
    name: 'tool-url',
    placeholder: 'https://…',
    value: tool.url,
    spellcheck: false,
    autocomplete: 'off',
  });
  const remove = Object.assign(document.createElement('button'), { type: 'button', className: 'secondary', textContent: 'Remove' });
  remove.addEventListener('click', () => {
    const next = li.nextElementSibling ?? li.previousElementSibling;
    li.remove();
    say('pending', 'Unsaved changes.');
    dirty = true;
    // Keep the keyboard user's place: the neighbouring row, else Add tool.
    ((next?.querySelector('input') as HTMLInputElement | null) ?? $('add-tool')).focus();
  });
  // On focus after a failed Save, a screen reader reads the list's error with the field.
  for (const f of [name, url]) f.setAttribute('aria-describedby', 'tools-error');
  li.append(nameLabel, name, urlLabel, url, remove);
  toolsList.append(li);
  const refresh = () => remove.setAttribute('aria-label', `Remove tool ${name.value.trim() || n}`);
  name.addEventListener('input', refresh);
  refresh();
  if (focus) name.focus();
}
$('add-tool').addEventListener('click', () => addToolRow(undefined, true));

function readTools(): { tools: SavedTool[]; error: string | null; field: HTMLInputElement | null } {
  const tools: SavedTool[] = [];
  const seen = new Set<string>();
  for (const li of toolsList.querySelectorAll('li')) {
    const nameInput = li.querySelector('input[name=tool-name]') as HTMLInputElement;
    const urlInput = li.querySelector('input[name=tool-url]') as HTMLInputElement;
    const name = nameInput.value.trim();
    const url = urlInput.value.trim();
    if (!name && !url) continue;
    if (!name) return { tools, error: `The tool for ${url} needs a name.`, field: nameInput };
    if (!/^https?:\/\/\S+$/.test(url))
      return { tools, error: `"${name}" needs a web address starting with http:// or https://.`, field: urlInput };
    if (seen.has(name.toLowerCase()))
      return { tools, error: `Two tools are named "${name}"; names are compared ignoring letter case.`, field: nameInput };
    seen.add(name.toLowerCase());
    tools.push({ name, url });
  }
  return { tools, error: null, field: null };
}

const lines = (t: string) =>
  t
    .split(/[\n,]/)
    .map((x) => x.trim().toLowerCase())
    .filter(Boolean);
const badDomain = (d: string) => !/^(\*\.)?[a-z0-9-]+(\.[a-z0-9-]+)*$/.test(d);

// --- this browser's name ----------------------------------------------------------------------------------
// The bridge owns the name (agents choose browsers by it, so two may not share one): Save asks the
// worker to send the new one, and the field shows what the bridge answered, or its refusal.
/** The name in force (stored by the worker from the bridge's answers); what the field is compared with on Save. */
let browserName = '';
function showBrowserName(v: unknown): void {
  const name = storedBrowserName(v);
  const unedited = nameInput.value === browserName;
  browserName = name ?? '';
  if (unedited) nameInput.value = browserName;
  nameInput.placeholder = suggestedName(thisBrand());
}
void chrome.storage.local.get(BROWSER_KEYS.name).then((v) => showBrowserName(v[BROWSER_KEYS.name]));
chrome.storage.onChanged.addListener((changes, area) => {
  if (area === 'local' && BROWSER_KEYS.name in changes) showBrowserName(changes[BROWSER_KEYS.name]?.newValue);
});

function renameBrowser(name: string): Promise<PanelResponse> {
  return (chrome.runtime.sendMessage({ bux: 'panel', op: 'rename_browser', name }) as Promise<PanelResponse>).catch((e: unknown) => ({
    ok: false as const,
    error: `The extension did not answer (${e instanceof Error ? e.message : String(e)}). Try again.`,
  }));
}

// --- load ----------------------------------------------------------------------------------------------
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
    scriptEndSel.value = scriptEndChoice(v[SETTING_KEYS.agentScriptEnd]);
    foldersBox.value = showFolders(v[SETTING_KEYS.localFileFolders]);
    uploadBox.value = showFolders(v[SETTING_KEYS.uploadFolders]);
    const tools = Array.isArray(v[SETTING_KEYS.savedTools]) ? (v[SETTING_KEYS.savedTools] as SavedTool[]) : [];
    for (const t of tools) if (typeof t?.name === 'string' && typeof t.url === 'string') addToolRow(t);
    if (!tools.length) addToolRow();
    // The address the worker dials (stored, else the config.json shipped beside it, else the
    // default): showing the bare default would make the next Save move a configured install to it.
    void loadConfig().then((c) => {
      if (!urlInput.value) urlInput.value = c.bridgeUrl;
    });
    // The secret is never shown back; only whether one is stored.
    secretState.textContent = typeof v[STORAGE_KEYS.extensionSecret] === 'string' ? SECRET_SAVED : 'No secret pasted here.';
    evaluateBox.checked = v[STORAGE_KEYS.allowEvaluate] === true;
    trustedBox.checked = v[STORAGE_KEYS.trustedInput] === true;
    const policy: DialogPolicy = { ...DEFAULT_DIALOG_POLICY, ...(v[STORAGE_KEYS.dialogPolicy] as Partial<DialogPolicy> | undefined) };
    confirmSel.value = policy.confirm;
    promptSel.value = policy.prompt;
    promptText.value = policy.prompt_text ?? '';
    unloadSel.value = policy.beforeunload;
  });

const choice = (sel: HTMLSelectElement): 'accept' | 'dismiss' => (sel.value === 'dismiss' ? 'dismiss' : 'accept');

// --- save ------------------------------------------------------------------------------------------------
form.addEventListener('submit', (ev) => {
  ev.preventDefault();
  clearErrors();
  /** Every field that cannot be saved, in page order; the first one gets the focus. */
  const problems: { field: HTMLElement; errorId: string; message: string }[] = [];
  const problem = (field: HTMLElement, errorId: string, message: string) => problems.push({ field, errorId, message });

  const typedName = nameInput.value.trim();
  const named = typedName === '' || typedName === browserName ? null : checkBrowserName(typedName);
  if (named && !named.ok) problem(nameInput, 'browser-name-error', named.message);
  const url = urlInput.value.trim();
  if (!/^ws:\/\/(127\.0\.0\.1|localhost|\[::1\]):\d+\/extension$/.test(url))
    problem(
      urlInput,
      'bridge-url-error',
      `Write it like ${DEFAULT_BRIDGE_URL} (the bridge listens on this computer only; change just the port).`,
    );
  const secret = secretInput.value.trim();
  if (secret && !/^[A-Za-z0-9_-]{16,}$/.test(secret))
    problem(
      secretInput,
      'extension-secret-error',
      'That does not look like a pairing secret: copy the extension secret exactly as printed.',
    );
  const tabs = maxTabs.value.trim() === '' ? null : Number(maxTabs.value);
  // A number field holding text reports an empty value but is not valid: say so instead of clearing the limit.
  if (maxTabs.validity.badInput || (tabs !== null && !(Number.isInteger(tabs) && tabs >= 1 && tabs <= 100)))
    problem(maxTabs, 'max-tabs-error', 'Write a whole number from 1 to 100, or leave it empty.');
  const allowed = lines(allowedBox.value);
  const blocked = lines(blockedBox.value);
  for (const [box, list, errorId] of [
    [allowedBox, allowed, 'allowed-domains-error'],
    [blockedBox, blocked, 'blocked-domains-error'],
  ] as const) {
    const bad = list.find(badDomain);
    if (bad) problem(box, errorId, `"${bad}" is not a site name: write example.com or *.example.com, one per line.`);
  }
  const { folders, warnings, error: folderError } = readFolders(foldersBox.value, 'read');
  if (folderError) problem(foldersBox, 'local-folders-error', folderError);
  const uploads = readFolders(uploadBox.value, 'upload');
  if (uploads.error) problem(uploadBox, 'upload-folders-error', uploads.error);
  const { tools, error: toolError, field: toolField } = readTools();
  if (toolError && toolField) problem(toolField, 'tools-error', toolError);

  if (problems.length) {
    for (const p of problems) setError(p.field, p.errorId, p.message);
    say('error', `Not saved: ${problems.length === 1 ? 'one field needs' : `${problems.length} fields need`} a fix (marked above).`);
    const first = problems[0];
    if (first) reveal(first.field, $(first.errorId));
    return;
  }
  foldersWarning.textContent = warnings.join(' ');
  uploadWarning.textContent = uploads.warnings.join(' ');
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
    [SETTING_KEYS.allowedDomains]: allowed,
    [SETTING_KEYS.blockedDomains]: blocked,
    [SETTING_KEYS.redactPii]: redactBox.checked,
    [SETTING_KEYS.agentScriptEnd]: scriptEndChoice(scriptEndSel.value),
    [SETTING_KEYS.savedTools]: tools,
    [SETTING_KEYS.localFileFolders]: folders,
    [SETTING_KEYS.uploadFolders]: uploads.folders,
  };
  if (secret) values[STORAGE_KEYS.extensionSecret] = secret;
  if (tabs !== null) values[SETTING_KEYS.maxTabsPerAgent] = tabs;
  const removed = tabs === null ? chrome.storage.local.remove(SETTING_KEYS.maxTabsPerAgent) : Promise.resolve();
  void Promise.all([chrome.storage.local.set(values), removed]).then(
    async () => {
      dirty = false;
      secretInput.value = '';
      if (secret) secretState.textContent = SECRET_SAVED;
      const done = secret ? 'Saved. Connecting with the new secret (see the status at the top)…' : 'Saved.';
      if (!named?.ok) return say('ok', done);
      say('pending', `Saving. Asking the bridge for the name "${named.name}"…`);
      const r = await renameBrowser(named.name);
      // r.note: saved here, not yet confirmed by the bridge (it starts with "Saved").
      if (r.ok) return say('ok', r.note ? (secret ? `${done} ${r.note}` : r.note) : done);
      // The old name stays (the bridge keeps it): the field says why the new one was not taken.
      setError(nameInput, 'browser-name-error', r.error);
      say('error', 'The other settings are saved; the name is not (see the field above).');
      dirty = true;
    },
    (e: unknown) =>
      say('error', `Not saved: Chrome could not store the settings (${e instanceof Error ? e.message : String(e)}). Try again.`),
  );
});
