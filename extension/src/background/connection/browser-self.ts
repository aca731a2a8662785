// This browser's id and name as the bridge knows them. The bridge holds one connection per browser
// profile, keyed by an id the extension makes once and keeps in chrome.storage.local: it survives
// worker and browser restarts and extension updates, and a new profile (its own storage) gets its own,
// so a browser reconnecting replaces only its own earlier connection. The name is the person's (typed
// at pairing or in Settings); the bridge may answer another one (a second "Chrome" becomes "Chrome 2")
// and the extension keeps what it was answered, so agents and the panel say the same name.
import type { BrowserInfo, HelloMessage } from '../../../../schemas/generated/protocol';
import { BROWSER_KEYS, storedBrowserName } from '../../shared/browser-name';

const ID_RE = /^[A-Za-z0-9_-]{8,64}$/;

/** 16 random bytes, base64url (22 characters): what hello.browser_id allows. */
export function newBrowserId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
}

let made: Promise<string> | null = null;

/** The stable id, made on the first call ever in this profile. One worker makes it at most once. */
export function browserId(): Promise<string> {
  made ??= (async () => {
    const got = (await chrome.storage.local.get(BROWSER_KEYS.id))[BROWSER_KEYS.id];
    if (typeof got === 'string' && ID_RE.test(got)) return got;
    const id = newBrowserId();
    await chrome.storage.local.set({ [BROWSER_KEYS.id]: id });
    return id;
  })().catch((e: unknown) => {
    made = null; // storage failed: try again at the next hello rather than keep a failure
    throw e;
  });
  return made;
}

/** Forgets the id this worker read (tests; a real worker reads it once). */
export function forgetBrowserIdForTests(): void {
  made = null;
}

/** hello's browser_id and, once the person or the bridge gave it one, browser_name (none: the bridge suggests one from the brand). */
export async function helloSelf(): Promise<Pick<HelloMessage, 'browser_id' | 'browser_name'>> {
  const [id, stored] = await Promise.all([browserId(), chrome.storage.local.get(BROWSER_KEYS.name)]);
  const name = storedBrowserName(stored[BROWSER_KEYS.name]);
  return name ? { browser_id: id, browser_name: name } : { browser_id: id };
}

/** Keeps the name in force that the bridge answered for this browser (hello_ack, agent_sessions); others' are ignored. */
export async function keepBridgeName(info: BrowserInfo | undefined): Promise<void> {
  if (!info) return;
  const id = await browserId().catch(() => null);
  if (info.browser_id !== id) return;
  const name = storedBrowserName(info.name);
  if (!name) return;
  const stored = (await chrome.storage.local.get(BROWSER_KEYS.name))[BROWSER_KEYS.name];
  if (stored !== name) await chrome.storage.local.set({ [BROWSER_KEYS.name]: name });
}
