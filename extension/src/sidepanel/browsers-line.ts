// Which browser this panel belongs to, and which others share its bridge. A person with a work and a
// personal profile (or Chrome and Edge) has one panel per browser, each listing only its own agents;
// the header names this one as agents name it (--browser Work), and one line names the others
// ("Also connected: Work · 2 agents, Edge") so an agent missing here is found there. Renders from
// what the worker stored from the bridge's agent_sessions (panel-relay.ts), and from this browser's
// stored name before the bridge said anything.
import type { BrowserInfo } from '../../../schemas/generated/protocol';
import { BROWSER_KEYS, storedBrowserName } from '../shared/browser-name';
import { type ConnectionStatus, PANEL_KEYS } from '../shared/panel-messages';

/** "Work · 2 agents, Edge": the connected other browsers, each with its agents when it has some; '' for none. */
export function otherBrowsersText(others: readonly BrowserInfo[]): string {
  const names = others
    .filter((b) => b.connected)
    .map((b) => {
      const n = b.agents ?? 0;
      return n > 0 ? `${b.name} · ${n} agent${n === 1 ? '' : 's'}` : b.name;
    });
  return names.length ? `Also connected: ${names.join(', ')}` : '';
}

/** Fills the header's name and the "Also connected" line, and keeps them current. */
export function showBrowsers(nameEl: HTMLElement, otherEl: HTMLElement): void {
  let self: BrowserInfo | null = null;
  let others: BrowserInfo[] = [];
  let storedName: string | null = null;
  let connected = false;
  const render = () => {
    const name = self?.name ?? storedName;
    nameEl.textContent = name ?? '';
    nameEl.hidden = !name;
    nameEl.title = name ? `This browser's name: agents choose it with --browser "${name}". Change it in Settings.` : '';
    // Only while connected: a list from before a drop may name browsers that left since.
    const text = connected ? otherBrowsersText(others) : '';
    otherEl.textContent = text;
    otherEl.hidden = text === '';
  };
  void Promise.all([
    chrome.storage.session.get([PANEL_KEYS.browser, PANEL_KEYS.otherBrowsers, PANEL_KEYS.connection]),
    chrome.storage.local.get(BROWSER_KEYS.name),
  ]).then(([s, l]) => {
    self = (s[PANEL_KEYS.browser] as BrowserInfo | null | undefined) ?? null;
    others = (s[PANEL_KEYS.otherBrowsers] as BrowserInfo[] | undefined) ?? [];
    connected = (s[PANEL_KEYS.connection] as ConnectionStatus | undefined)?.state === 'connected';
    storedName = storedBrowserName(l[BROWSER_KEYS.name]);
    render();
  });
  chrome.storage.onChanged.addListener((changes, area) => {
    if (area === 'session') {
      if (PANEL_KEYS.browser in changes) self = (changes[PANEL_KEYS.browser]?.newValue as BrowserInfo | null | undefined) ?? null;
      if (PANEL_KEYS.otherBrowsers in changes) others = (changes[PANEL_KEYS.otherBrowsers]?.newValue as BrowserInfo[] | undefined) ?? [];
      if (PANEL_KEYS.connection in changes)
        connected = (changes[PANEL_KEYS.connection]?.newValue as ConnectionStatus | undefined)?.state === 'connected';
    }
    if (area === 'local' && BROWSER_KEYS.name in changes) storedName = storedBrowserName(changes[BROWSER_KEYS.name]?.newValue);
    render();
  });
}
