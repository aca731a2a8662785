// Pairing from the extension's pages: redeem a one-time code printed by `browser-use-ext pair` at
// the bridge's POST /pair (bridge/src/pairing-http.ts), or store a pasted secret. Either way the
// secret lands in chrome.storage.local (it survives browser restarts) and the worker reconnects at
// once (bridge-connection.ts watches those keys). The browser's name goes with it, in the same write,
// so the hello that follows carries it (the bridge numbers it when another browser has it already).
import { BROWSER_KEYS, checkBrowserName, storedBrowserName, suggestedName, thisBrand } from '../shared/browser-name';
import { DEFAULT_BRIDGE_URL, STORAGE_KEYS } from '../shared/config';

export const BRIDGE_URL_RE = /^ws:\/\/(127\.0\.0\.1|localhost|\[::1\]):\d+\/extension$/;

export function pairEndpoint(bridgeUrl: string): string {
  return bridgeUrl.replace(/^ws:/, 'http:').replace(/\/extension$/, '/pair');
}

export type PairOutcome = { ok: true; message: string } | { ok: false; message: string };

/** What the name field starts with: the name this browser has, else the brand's word (Chrome, Edge, Brave, Chromium). */
export async function pairName(): Promise<string> {
  const stored = storedBrowserName((await chrome.storage.local.get(BROWSER_KEYS.name))[BROWSER_KEYS.name]);
  return stored ?? suggestedName(thisBrand());
}

/** The storage entry for the typed name ({} when left empty: the bridge suggests one), or why it cannot be used. */
function nameEntry(raw: string): { ok: true; entry: Record<string, string> } | { ok: false; message: string } {
  if (!raw.trim()) return { ok: true, entry: {} };
  const c = checkBrowserName(raw);
  return c.ok ? { ok: true, entry: { [BROWSER_KEYS.name]: c.name } } : c;
}

export async function pairWithCode(code: string, bridgeUrl: string, name = ''): Promise<PairOutcome> {
  const url = bridgeUrl.trim() || DEFAULT_BRIDGE_URL;
  if (!BRIDGE_URL_RE.test(url)) return { ok: false, message: 'Use ws://127.0.0.1:<port>/extension (the bridge listens on loopback only).' };
  // Checked before the code is spent: a code works once.
  const named = nameEntry(name);
  if (!named.ok) return named;
  const clean = code.trim();
  if (!/^[A-Za-z0-9]{4}-?[A-Za-z0-9]{4}$/.test(clean))
    return { ok: false, message: 'A pairing code has 8 letters and digits, like K7F2-9QXM.' };
  let res: Response;
  try {
    res = await fetch(pairEndpoint(url), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ code: clean }),
    });
  } catch {
    return {
      ok: false,
      message: `No bridge answers at ${url}. Start it in a terminal: \`browser-use-ext bridge\`. Or correct the bridge address.`,
    };
  }
  const body = (await res.json().catch(() => ({}))) as { extension_secret?: unknown; bridge_url?: unknown; error?: unknown };
  if (!res.ok || typeof body.extension_secret !== 'string')
    return { ok: false, message: typeof body.error === 'string' ? body.error : `The bridge refused the code (HTTP ${res.status}).` };
  await chrome.storage.local.set({ ...named.entry, [STORAGE_KEYS.extensionSecret]: body.extension_secret, [STORAGE_KEYS.bridgeUrl]: url });
  return { ok: true, message: 'Paired. Connecting…' };
}

export async function pairWithSecret(secret: string, bridgeUrl: string, name = ''): Promise<PairOutcome> {
  const url = bridgeUrl.trim() || DEFAULT_BRIDGE_URL;
  if (!BRIDGE_URL_RE.test(url)) return { ok: false, message: 'Use ws://127.0.0.1:<port>/extension (the bridge listens on loopback only).' };
  const s = secret.trim();
  if (!/^[A-Za-z0-9_-]{16,}$/.test(s))
    return {
      ok: false,
      message: 'That does not look like a pairing secret: copy the extension secret exactly as --print-pairing shows it.',
    };
  const named = nameEntry(name);
  if (!named.ok) return named;
  await chrome.storage.local.set({ ...named.entry, [STORAGE_KEYS.extensionSecret]: s, [STORAGE_KEYS.bridgeUrl]: url });
  return { ok: true, message: 'Saved. Connecting…' };
}
