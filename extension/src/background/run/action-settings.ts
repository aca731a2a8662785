// The person's action settings (trusted input, settle defaults), read once per worker life and read
// again after they change, so an action on the hot path does not wait for chrome.storage.
import { STORAGE_KEYS } from '../../shared/config';
import { SETTLE_OPTIONS_KEY } from '../page-watch/settle-rule';

/** chrome.storage.local key: true = pointer/keyboard actions use chrome.debugger Input.* (trusted events). */
export const TRUSTED_INPUT_KEY = STORAGE_KEYS.trustedInput;

let settingsCache: Promise<Record<string, unknown>> | null = null;

export const readActionSettings = (): Promise<Record<string, unknown>> =>
  (settingsCache ??= chrome.storage.local.get([TRUSTED_INPUT_KEY, SETTLE_OPTIONS_KEY]));

/** Forgets the cached settings when the person changes them (registered from index.ts). */
export function installActionSettings(): void {
  chrome.storage.onChanged.addListener((changes, area) => {
    if (area === 'local' && (TRUSTED_INPUT_KEY in changes || SETTLE_OPTIONS_KEY in changes)) settingsCache = null;
  });
}
