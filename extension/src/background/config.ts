// Where the bridge is. Order: chrome.storage.local (set on the options page), then config.json
// shipped next to the worker (the test harness writes it), then the default port on loopback.
export const DEFAULT_BRIDGE_URL = 'ws://127.0.0.1:8765/extension';

export interface ExtensionConfig {
  bridgeUrl: string;
}

export async function loadConfig(): Promise<ExtensionConfig> {
  const stored = await chrome.storage.local.get('bridge_url');
  const fromStorage = stored['bridge_url'];
  if (typeof fromStorage === 'string' && fromStorage) return { bridgeUrl: fromStorage };
  try {
    const res = await fetch(chrome.runtime.getURL('config.json'));
    if (res.ok) {
      const json = (await res.json()) as { bridge_url?: unknown };
      if (typeof json.bridge_url === 'string' && json.bridge_url) return { bridgeUrl: json.bridge_url };
    }
  } catch {
    // No config.json in a normal install: fall through to the default.
  }
  return { bridgeUrl: DEFAULT_BRIDGE_URL };
}
