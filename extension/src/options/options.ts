// Options page: the pairing secret, the bridge URL and the evaluate permission. Saving the secret
// or the URL makes the worker reconnect (chrome.storage.onChanged in bridge-connection.ts).
import { DEFAULT_BRIDGE_URL, STORAGE_KEYS } from '../background/config';
import { DEFAULT_DIALOG_POLICY, type DialogPolicy } from '../shared/page-link';

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

void chrome.storage.local.get([STORAGE_KEYS.bridgeUrl, STORAGE_KEYS.extensionSecret, STORAGE_KEYS.allowEvaluate, STORAGE_KEYS.trustedInput, STORAGE_KEYS.dialogPolicy]).then((v) => {
  const url = v[STORAGE_KEYS.bridgeUrl];
  urlInput.value = typeof url === 'string' ? url : DEFAULT_BRIDGE_URL;
  // The secret is never shown back; only whether one is stored.
  secretState.textContent = typeof v[STORAGE_KEYS.extensionSecret] === 'string' ? 'A secret is saved; paste a new one to replace it.' : 'Not paired yet.';
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
  const dialogPolicy: DialogPolicy = { confirm: choice(confirmSel), prompt: choice(promptSel), prompt_text: promptText.value === '' ? null : promptText.value, beforeunload: choice(unloadSel) };
  const values: Record<string, unknown> = { [STORAGE_KEYS.bridgeUrl]: url, [STORAGE_KEYS.allowEvaluate]: evaluateBox.checked, [STORAGE_KEYS.trustedInput]: trustedBox.checked, [STORAGE_KEYS.dialogPolicy]: dialogPolicy };
  if (secret) values[STORAGE_KEYS.extensionSecret] = secret;
  void chrome.storage.local.set(values).then(() => {
    secretInput.value = '';
    if (secret) secretState.textContent = 'A secret is saved; paste a new one to replace it.';
    saved.textContent = 'Saved.';
  });
});
