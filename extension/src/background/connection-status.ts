// The connection as the person sees it: one state with what happened and what to do next,
// written to chrome.storage.session for the side panel and the options page. The handshake (in
// bridge-connection.ts) reports each event here; this module turns it into words.
import { PROTOCOL_VERSION } from '../../../schemas/generated/registry';
import { CLOSE_CODES } from '../../../schemas/lib/close-codes';
import { type ConnectionStatus, PANEL_KEYS } from '../shared/panel-messages';

let current: ConnectionStatus | null = null;

async function write(status: ConnectionStatus): Promise<void> {
  // Retrying every 250 ms while the bridge is down repeats the same status: written once (and its
  // `since` stays when it began).
  if (
    current &&
    current.state === status.state &&
    current.url === status.url &&
    current.message === status.message &&
    current.next_step === status.next_step
  )
    return;
  current = status;
  await chrome.storage.session.set({ [PANEL_KEYS.connection]: status }).catch(() => undefined);
}

export function currentStatus(): ConnectionStatus | null {
  return current;
}

const base = (url: string) => ({ url, since: Date.now() });

export function notPaired(url: string): Promise<void> {
  return write({
    ...base(url),
    state: 'not_paired',
    message: 'Not paired with a bridge yet.',
    next_step:
      'Run `npx browser-use-ext pair` in a terminal and type the code it prints below (or paste the extension secret from `npx browser-use-ext bridge --print-pairing`).',
  });
}

export function connecting(url: string): Promise<void> {
  // Keep a refusal on screen while retrying: "connecting" would hide why it keeps failing.
  if (
    current &&
    current.url === url &&
    ['secret_refused', 'version_mismatch', 'rate_limited', 'refused', 'unreachable'].includes(current.state)
  )
    return Promise.resolve();
  return write({
    ...base(url),
    state: 'connecting',
    message: `Connecting to ${url}…`,
    next_step: 'Wait a moment. If this stays, check that the bridge is running (`npx browser-use-ext bridge`).',
  });
}

export function connected(url: string, bridge: { name: string; version: string }): Promise<void> {
  return write({
    ...base(url),
    state: 'connected',
    message: `Connected to ${bridge.name} ${bridge.version} at ${url}.`,
    next_step: 'Start an agent that accepts tasks (`python -m browser_use_ext serve`), then type a task below.',
    bridge,
  });
}

export function secretRefused(url: string, bySide: 'bridge' | 'extension'): Promise<void> {
  const what =
    bySide === 'bridge'
      ? "The bridge refused this extension's pairing secret."
      : `The server at ${url} could not prove it knows this extension's pairing secret: the secret is outdated (new secrets.json) or this is not your bridge.`;
  return write({
    ...base(url),
    state: 'secret_refused',
    message: what,
    next_step: 'Pair again: run `npx browser-use-ext pair` and type the new code below. Check the bridge URL if you run several bridges.',
  });
}

export function versionMismatch(
  url: string,
  bridgeVersion: number | null,
  upgrade: 'extension' | 'bridge' | null,
  why: string,
): Promise<void> {
  const which =
    upgrade === 'extension'
      ? 'Update the extension: rebuild (`npm run build`) and press Reload on chrome://extensions.'
      : 'Update the bridge (`npm i -g browser-use-ext@latest`, or pull and `npm run build`), then restart it.';
  return write({
    ...base(url),
    state: 'version_mismatch',
    message: `Protocol version mismatch: the bridge speaks ${bridgeVersion ?? '?'}, this extension speaks ${PROTOCOL_VERSION}. ${why}`,
    next_step: which,
    upgrade,
    bridge_protocol_version: bridgeVersion,
    extension_protocol_version: PROTOCOL_VERSION,
  });
}

export function rateLimited(url: string, retryMs: number | null): Promise<void> {
  return write({
    ...base(url),
    state: 'rate_limited',
    message: 'The bridge is refusing handshakes from this browser for a while after repeated failures.',
    next_step: `Wait ${retryMs ? Math.ceil(retryMs / 1000) : 60} s; pair again if the secret is wrong.`,
  });
}

/** The WebSocket closed before a handshake finished: nothing listening, or something refusing us. */
export async function closedBeforeHandshake(url: string, code: number, reason: string, opened: boolean): Promise<void> {
  if (code === CLOSE_CODES.secretRefused)
    return current?.state === 'secret_refused' && current.url === url ? undefined : secretRefused(url, 'bridge');
  if (code === CLOSE_CODES.versionMismatch) {
    const m = /bridge speaks (\d+)/.exec(reason);
    return versionMismatch(url, m ? Number(m[1]) : null, /upgrade the bridge/.test(reason) ? 'bridge' : 'extension', '');
  }
  if (current && current.url === url && ['secret_refused', 'version_mismatch', 'rate_limited'].includes(current.state)) return;
  if (!opened) {
    // Tell "nothing listens" from "a bridge is there but refused the WebSocket" (Origin/Host check).
    const health = url.replace(/^ws/, 'http').replace(/\/extension$/, '/healthz');
    const alive = await fetch(health, { signal: AbortSignal.timeout(1500) }).then(
      (r) => r.ok,
      () => false,
    );
    if (alive) {
      return write({
        ...base(url),
        state: 'refused',
        message: `A bridge answers at ${url} but refused this extension's connection.`,
        next_step: `This extension's id (${chrome.runtime.id}) is not the one the bridge accepts: start the bridge with --extension-id ${chrome.runtime.id}.`,
      });
    }
    return write({
      ...base(url),
      state: 'unreachable',
      message: `The bridge is unreachable at ${url}.`,
      next_step:
        'Start it with `npx browser-use-ext bridge` (or `npm start`), or fix the bridge URL in Settings. The extension retries by itself.',
    });
  }
  return write({
    ...base(url),
    state: 'unreachable',
    message: `The bridge at ${url} closed the connection${reason ? ` (${reason})` : ''}.`,
    next_step: 'The extension reconnects by itself; if this stays, restart the bridge.',
  });
}

/** New settings (secret, URL): the next attempt starts from "connecting" again. */
export function forgetRefusal(): void {
  current = null;
}
