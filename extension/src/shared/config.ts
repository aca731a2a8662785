// Where the bridge is and how to prove we are the paired extension. Order for each value:
// chrome.storage.local (set on the options page), then config.json shipped next to the worker
// (the test harness writes it), then the default (loopback URL; no secret = not paired yet).
export const DEFAULT_BRIDGE_URL = 'ws://127.0.0.1:8765/extension';

/** chrome.storage.local keys the options page writes. */
export const STORAGE_KEYS = {
  bridgeUrl: 'bridge_url',
  extensionSecret: 'extension_secret',
  allowEvaluate: 'allow_evaluate',
  trustedInput: 'trusted_input',
  dialogPolicy: 'dialog_policy',
} as const;

/** runtime.connect port name of the offscreen document that wakes a stopped worker (offscreen/index.ts). */
export const WAKE_PORT = 'bux-wake';

export interface ExtensionConfig {
  bridgeUrl: string;
  /** The pairing secret (the bridge and the extension prove they know it in the handshake); null
   * until the person pastes it into the options page. */
  extensionSecret: string | null;
}

const nonEmpty = (v: unknown): v is string => typeof v === 'string' && v.length > 0;

async function shippedConfig(): Promise<Record<string, unknown>> {
  try {
    const res = await fetch(chrome.runtime.getURL('config.json'));
    if (res.ok) return (await res.json()) as Record<string, unknown>;
  } catch {
    // No config.json in a normal install.
  }
  return {};
}

export async function loadConfig(): Promise<ExtensionConfig> {
  const stored = await chrome.storage.local.get([STORAGE_KEYS.bridgeUrl, STORAGE_KEYS.extensionSecret]);
  const storedUrl = stored[STORAGE_KEYS.bridgeUrl];
  const storedSecret = stored[STORAGE_KEYS.extensionSecret];
  if (nonEmpty(storedUrl) && nonEmpty(storedSecret)) return { bridgeUrl: storedUrl, extensionSecret: storedSecret };
  const shipped = await shippedConfig();
  return {
    bridgeUrl: nonEmpty(storedUrl) ? storedUrl : nonEmpty(shipped['bridge_url']) ? shipped['bridge_url'] : DEFAULT_BRIDGE_URL,
    extensionSecret: nonEmpty(storedSecret) ? storedSecret : nonEmpty(shipped['extension_secret']) ? shipped['extension_secret'] : null,
  };
}
