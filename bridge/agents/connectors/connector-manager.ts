// Connectors the bridge runs itself: the side panel's "Connect a backend". Each is
// a SeedConnector (an agent session of this bridge dialing its backend), tracked with the state of
// its backend link for the panel. The list is kept in a file (<config dir>/connectors.json) so the
// bridge dials the same backends again after a restart; a connector the person removes, or
// disconnects in the agent list (its session ends with 4003), is forgotten. A bridge shutting down
// stops its connectors but remembers them.
import crypto from 'node:crypto';
import { EventEmitter } from 'node:events';
import fs from 'node:fs';
import path from 'node:path';

import type { BackendConnectorInfo, ErrorInfo } from '../../../schemas/generated/protocol';
import { errorInfo } from '../../../schemas/lib/wire';
import type { Logger } from '../../common/log';
import { checkBackendUrl, type LinkFailure } from './backend-link';
import { type ConnectorOptions, type Dialect, SeedConnector } from './connector';

export type { BackendConnectorInfo };

export interface ConnectorManagerOptions {
  bridgeAgentUrl: string;
  agentSecret: string;
  logger?: Logger;
  allowRemote?: boolean;
  /** Where the list persists; omitted: memory only. */
  file?: string | null;
  /** Backoff bounds of the backend links (tests shorten them). */
  minDelayMs?: number;
  maxDelayMs?: number;
}

interface Entry {
  id: string;
  dialect: Dialect;
  url: string;
  /** The browser (by name) its agent session works in; null: the bridge's choice. */
  browser: string | null;
  connector: SeedConnector;
  backend: BackendConnectorInfo['backend'];
  retryInMs: number | null;
  lastError: ErrorInfo | null;
}

interface SavedFile {
  version: 1;
  /** browser: the name of the browser whose panel started it (absent in files from before several browsers). */
  connectors: { dialect: Dialect; url: string; browser?: string }[];
}

/** What the person reads when a backend link is down: nobody answers at the URL (e.g. ECONNREFUSED),
 * or a backend answers and refuses (an HTTP error status on the upgrade, a 1008/4xxx close).
 * details.reason tells the panel which ("Not reachable" or "Refused: <details.refusal>"). */
export function linkDownError(url: string, failure: LinkFailure): ErrorInfo {
  // When is in retry_in_ms (the panel counts it down); a number frozen into this text would go stale.
  const again = 'The bridge keeps trying.';
  if (failure.kind === 'refused')
    return errorInfo(
      'BACKEND_UNREACHABLE',
      `The backend at ${url} answered but refused the connection (${failure.why}). Check that the address (including its path) is the one the backend expects and that it accepts a browser connection, or remove this connector. ${again}`,
      'bridge',
      { url, reason: 'refused', refusal: failure.why },
    );
  return errorInfo(
    'BACKEND_UNREACHABLE',
    `No backend answers at ${url} (${failure.why}). Start the backend (it must listen on that address), or remove this connector. ${again}`,
    'bridge',
    { url, reason: 'unreachable' },
  );
}

/** Events: 'change' (the list or a connector's state changed). */
export class ConnectorManager extends EventEmitter {
  private readonly entries = new Map<string, Entry>();
  private closing = false;

  constructor(private readonly opts: ConnectorManagerOptions) {
    super();
  }

  /** Starts a connector (or returns the running one for the same dialect and URL). Throws
   * BackendUrlError for a URL that is not ws(s):// or (unless allowRemote) not loopback. */
  async add(dialect: Dialect, url: string, persist = true, browser: string | null = null): Promise<BackendConnectorInfo> {
    checkBackendUrl(url, this.opts.allowRemote ?? false);
    for (const e of this.entries.values()) if (e.dialect === dialect && e.url === url) return this.info(e);
    const copts: ConnectorOptions = {
      dialect,
      backendUrl: url,
      bridgeUrl: this.opts.bridgeAgentUrl,
      secret: this.opts.agentSecret,
      allowRemote: this.opts.allowRemote ?? false,
      // Started from one browser's panel: its agent session works in that browser, not the bridge's default.
      ...(browser === null ? {} : { browser }),
      ...(this.opts.logger ? { logger: this.opts.logger } : {}),
      ...(this.opts.minDelayMs === undefined ? {} : { minDelayMs: this.opts.minDelayMs }),
      ...(this.opts.maxDelayMs === undefined ? {} : { maxDelayMs: this.opts.maxDelayMs }),
    };
    const connector = new SeedConnector(copts);
    const entry: Entry = {
      id: `c${crypto.randomBytes(4).toString('hex')}`,
      dialect,
      url,
      browser,
      connector,
      backend: 'connecting',
      retryInMs: null,
      lastError: null,
    };
    connector.on('backend-open', () => this.update(entry, { backend: 'connected', retryInMs: null, lastError: null }));
    connector.on('backend-retry', (ms: number, _why: string, failure: LinkFailure) =>
      this.update(entry, { backend: 'retrying', retryInMs: ms, lastError: linkDownError(url, failure) }),
    );
    // The person disconnected it in the agent list (its session ended): forget it, unless the
    // bridge itself is shutting down.
    connector.on('stopped', () => {
      if (this.closing || !this.entries.has(entry.id)) return;
      this.entries.delete(entry.id);
      this.save();
      this.emit('change');
    });
    this.entries.set(entry.id, entry);
    try {
      await connector.start();
    } catch (e) {
      this.entries.delete(entry.id);
      throw e;
    }
    if (persist) this.save();
    this.emit('change');
    return this.info(entry);
  }

  /** Stops a connector and forgets it. false: no such connector. */
  async remove(id: string): Promise<boolean> {
    const e = this.entries.get(id);
    if (!e) return false;
    this.entries.delete(id);
    this.save();
    await e.connector.stop('removed by the person');
    this.emit('change');
    return true;
  }

  list(): BackendConnectorInfo[] {
    return [...this.entries.values()].map((e) => this.info(e));
  }

  /** Dials every saved backend again (bridge start). Failures are logged, never thrown. */
  async restore(): Promise<void> {
    for (const c of this.load()) {
      try {
        await this.add(c.dialect, c.url, false, typeof c.browser === 'string' && c.browser.length > 0 ? c.browser : null);
      } catch (e) {
        this.opts.logger?.warn('could not restore a backend connector', {
          dialect: c.dialect,
          url: c.url,
          error: e instanceof Error ? e.message : String(e),
        });
      }
    }
  }

  /** Bridge shutdown: stops every connector but keeps the saved list. */
  async closeAll(): Promise<void> {
    this.closing = true;
    const all = [...this.entries.values()];
    this.entries.clear();
    await Promise.all(all.map((e) => e.connector.stop('bridge shutting down')));
  }

  private update(e: Entry, patch: Partial<Pick<Entry, 'backend' | 'retryInMs' | 'lastError'>>): void {
    Object.assign(e, patch);
    if (this.entries.has(e.id)) this.emit('change');
  }

  private info(e: Entry): BackendConnectorInfo {
    return {
      connector_id: e.id,
      dialect: e.dialect,
      url: e.url,
      client_name: e.connector.clientName,
      session_id: e.connector.sessionId,
      backend: e.backend,
      retry_in_ms: e.retryInMs,
      last_error: e.lastError,
    };
  }

  private load(): SavedFile['connectors'] {
    const file = this.opts.file;
    if (!file || !fs.existsSync(file)) return [];
    try {
      const saved = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<SavedFile>;
      return (saved.connectors ?? []).filter((c) => (c.dialect === '000' || c.dialect === '001') && typeof c.url === 'string');
    } catch (e) {
      this.opts.logger?.warn('ignoring an unreadable connectors file', { file, error: e instanceof Error ? e.message : String(e) });
      return [];
    }
  }

  private save(): void {
    const file = this.opts.file;
    if (!file) return;
    const data: SavedFile = {
      version: 1,
      connectors: [...this.entries.values()].map((e) => ({
        dialect: e.dialect,
        url: e.url,
        ...(e.browser === null ? {} : { browser: e.browser }),
      })),
    };
    try {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      const tmp = `${file}.${process.pid}.tmp`;
      fs.writeFileSync(tmp, JSON.stringify(data, null, 2));
      fs.renameSync(tmp, file);
    } catch (e) {
      this.opts.logger?.error('could not save the backend connectors', { file, error: e instanceof Error ? e.message : String(e) });
    }
  }
}
