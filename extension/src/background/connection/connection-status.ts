// The connection as the person sees it: one state with what happened and what to do next,
// written to chrome.storage.session for the side panel and the options page. The handshake (in
// bridge-connection.ts) reports each event here; this module turns it into words. Plain words only:
// the bridge URL, versions and codes are shown apart on a small details line (the pages build it from
// `url`, `bridge` and the protocol versions). A command to type is marked with backticks, which the
// pages render as a <code> box (shared/command-text.ts), and is the installed command (no npx): the
// pages show it in the form the bridge says its CLI is typed there (cli-form.ts).
import { PROTOCOL_VERSION } from '../../../../schemas/generated/registry';
import { CLOSE_CODES } from '../../../../schemas/lib/close-codes';
import { type ConnectionStatus, PANEL_KEYS } from '../../shared/panel-messages';
import { learnCliForm } from './cli-form';

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
  // The commands in next_step are shown in the form the bridge's CLI is typed there (cli-form.ts).
  void learnCliForm(status.url);
}

export function currentStatus(): ConnectionStatus | null {
  return current;
}

const base = (url: string) => ({ url, since: Date.now() });

export function notPaired(url: string): Promise<void> {
  return write({
    ...base(url),
    state: 'not_paired',
    message: 'This browser is not paired with a bridge yet.',
    next_step:
      'In a terminal run `browser-use-ext pair` and type the code it prints below (or paste the extension secret that `browser-use-ext bridge --print-pairing` shows).',
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
    message: 'Connecting to the bridge…',
    next_step: 'Wait a moment. If this stays, check that the bridge runs: `browser-use-ext bridge`.',
  });
}

export function connected(url: string, bridge: { name: string; version: string }): Promise<void> {
  return write({
    ...base(url),
    state: 'connected',
    message: `Connected to the bridge (version ${bridge.version}).`,
    next_step: 'Start an agent that accepts tasks, then type a task below.',
    bridge,
  });
}

export function secretRefused(url: string, bySide: 'bridge' | 'extension'): Promise<void> {
  const what =
    bySide === 'bridge'
      ? 'The bridge no longer accepts this browser: the pairing is outdated.'
      : 'The program at the bridge address could not prove it is your bridge: the pairing is outdated, or it is not your bridge.';
  return write({
    ...base(url),
    state: 'secret_refused',
    message: what,
    next_step:
      'Pair again: run `browser-use-ext pair` in a terminal and type the new code below. If you run several bridges, check the bridge address.',
  });
}

export function versionMismatch(
  url: string,
  bridgeVersion: number | null,
  upgrade: 'extension' | 'bridge' | null,
  _why: string,
): Promise<void> {
  const which =
    upgrade === 'extension'
      ? 'Update the extension to the version of your bridge, then press Reload on the extensions page (chrome://extensions).'
      : 'Update the bridge to the version that came with this extension, then start it again: `browser-use-ext bridge`.';
  return write({
    ...base(url),
    state: 'version_mismatch',
    // The bridge's own words (`_why`) name codes and commands for developers: the worker logs them (bridge-connection.ts).
    message: `The bridge and this extension are different versions and cannot work together.`,
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
    message: 'The bridge stopped answering this browser for a while, after several failed tries.',
    next_step: `Wait ${retryMs ? Math.ceil(retryMs / 1000) : 60} seconds. If the pairing is wrong, pair again.`,
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
        message: 'A bridge answers, but it accepts another copy of the extension, not this one.',
        next_step: `Start the bridge for this extension: \`browser-use-ext bridge --extension-id ${chrome.runtime.id}\``,
      });
    }
    return write({
      ...base(url),
      state: 'unreachable',
      message: 'The bridge does not answer.',
      next_step:
        'Start it in a terminal: `browser-use-ext bridge`. Or fix the bridge address in Settings. The extension keeps trying by itself.',
    });
  }
  return write({
    ...base(url),
    state: 'unreachable',
    message: 'The bridge closed the connection.',
    next_step: 'The extension reconnects by itself. If this stays, start the bridge again: `browser-use-ext bridge`.',
  });
}

/** New settings (secret, URL): the next attempt starts from "connecting" again. */
export function forgetRefusal(): void {
  current = null;
}
