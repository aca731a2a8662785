// One CDP client connection as the endpoint (cdp-endpoint.ts) tracks it, and the seam with what
// drives it (browser-emulator.ts's BrowserEmulator fits CdpEmulator; tests hand in a stand-in).
// Also what the endpoint learns by watching a connection's traffic: the browser's own
// Browser.getVersion answer, which /json/version then reports as Chrome does.
import type { WebSocket } from 'ws';

import type { CdpClientsMessage } from '../../../schemas/generated/protocol';
import type { AgentClient } from '../../client/agent-client';
import type { Logger } from '../../common/log';
import type { CdpSocket } from './cdp-writer';
import { type BrowserVersion, UNKNOWN_BROWSER } from './discovery';
import type { PageEndpoint } from './page-endpoints';
import type { BrowserVersionInfo } from './tab-answers';

export type { CdpSocket } from './cdp-writer';

export interface CdpEmulatorOptions {
  socket: CdpSocket;
  /** Already open (hello done), clientName `cdp:<name>`, maxTabs from the URL. */
  agent: AgentClient;
  /** A page endpoint names the tab too when another connection of the same URL holds it (its targets()). */
  target: { kind: 'browser' } | { kind: 'page'; targetId: string; tabId?: number };
  log: Logger;
  /** <config dir>/downloads/<URL name>, created before the emulator starts. */
  downloadsDir: string;
  /** The browser as the extension described it at hello: Browser.getVersion's answer before any tab is attached. */
  browser?: () => BrowserVersionInfo | null;
}

export interface CdpEmulator {
  start(): Promise<void>;
  handle(text: string): void;
  dispose(reason: string): Promise<void>;
  targets(): { targetId: string; tabId: number; url: string; title: string }[];
  stats(): CdpConnectionStats;
  /** A page WebSocket of /json/list on a target this connection holds (page-endpoints.ts); null when it holds none. */
  openPage?(targetId: string, socket: CdpSocket): PageEndpoint | null;
}

/** What the panel and /status show of one connection: the cdp_clients message's own shape (schemas/v1). */
export type CdpConnectionStats = CdpClientsMessage['clients'][number]['connections'][number];

export type CdpEmulatorFactory = (o: CdpEmulatorOptions) => CdpEmulator;

export interface Connection {
  id: number;
  name: string;
  /** The hash it authenticated with: a re-minted URL of the same name does not keep it alive. */
  sha256: string;
  ws: WebSocket | null;
  agent: AgentClient | null;
  emulator: CdpEmulator | null;
  /** Set once it must end (revoked, bridge closing); a connection still being set up checks it. */
  ended: string | null;
  /** Ids of the client's Browser.getVersion commands, to remember the answer for /json/version. */
  versionIds: Set<number>;
}

/** Close reasons are at most 123 bytes (RFC 6455 5.5); longer ones make ws throw. */
export function closeReason(text: string): string {
  let r = text;
  while (Buffer.byteLength(r) > 123) r = r.slice(0, -1);
  return r;
}

/** What an emulator reports, or the fallback when it throws (a report never takes the endpoint down). */
export function safe<T>(f: () => T, fallback: T): T {
  try {
    return f();
  } catch {
    return fallback;
  }
}

/** A client message that may be a browser-level Browser.getVersion: its id is remembered. */
export function noteVersionCommand(conn: Connection, text: string): void {
  try {
    const m = JSON.parse(text) as { id?: unknown; method?: unknown; sessionId?: unknown };
    if (m.method === 'Browser.getVersion' && typeof m.id === 'number' && m.sessionId === undefined && conn.versionIds.size < 16)
      conn.versionIds.add(m.id);
  } catch {
    // not JSON: the emulator answers that
  }
}

/** The browser as the answer to a remembered Browser.getVersion describes it; null for anything else. */
export function versionAnswer(conn: Connection, text: string): BrowserVersion | null {
  if (text.length > 8192 || !text.includes('"product"')) return null;
  try {
    const m = JSON.parse(text) as { id?: unknown; result?: Partial<Record<keyof BrowserVersion, unknown>> };
    if (typeof m.id !== 'number' || !conn.versionIds.delete(m.id)) return null;
    const r = m.result;
    // The placeholder (no tab attached yet) must not replace what a tab already told.
    if (typeof r?.product !== 'string' || r.product === UNKNOWN_BROWSER.product) return null;
    const s = (v: unknown, fallback: string) => (typeof v === 'string' ? v : fallback);
    return {
      product: r.product,
      protocolVersion: s(r.protocolVersion, '1.3'),
      userAgent: s(r.userAgent, ''),
      jsVersion: s(r.jsVersion, ''),
      revision: s(r.revision, ''),
    };
  } catch {
    return null; // not ours to judge
  }
}

/** Lets go of what a closed connection held: its tabs (the emulator's dispose) and its agent session. */
export async function releaseConnection(conn: Connection, reason: string, log: Logger): Promise<void> {
  try {
    await conn.emulator?.dispose(reason);
  } catch (e) {
    log.warn('cdp: releasing the tabs failed', { name: conn.name, error: e instanceof Error ? e.message : String(e) });
  }
  // The emulator ends the agent session; this only makes sure of it (close() twice is harmless).
  await conn.agent?.close().catch(() => undefined);
}
