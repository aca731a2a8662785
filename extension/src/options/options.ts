// Options page: the bridge URL. Saving it makes the worker reconnect (storage.onChanged).
import { DEFAULT_BRIDGE_URL } from '../background/config';

const input = document.getElementById('bridge-url') as HTMLInputElement;
const saved = document.getElementById('saved') as HTMLSpanElement;
const form = document.getElementById('settings') as HTMLFormElement;

void chrome.storage.local.get('bridge_url').then((v) => {
  input.value = typeof v['bridge_url'] === 'string' ? v['bridge_url'] : DEFAULT_BRIDGE_URL;
});

form.addEventListener('submit', (ev) => {
  ev.preventDefault();
  const url = input.value.trim();
  if (!/^ws:\/\/(127\.0\.0\.1|localhost|\[::1\]):\d+\/extension$/.test(url)) {
    saved.textContent = 'Use ws://127.0.0.1:<port>/extension (the bridge listens on loopback only).';
    return;
  }
  void chrome.storage.local.set({ bridge_url: url }).then(() => {
    saved.textContent = 'Saved.';
  });
});
