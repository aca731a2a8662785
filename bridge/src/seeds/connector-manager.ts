// Connectors the bridge runs itself, for the panel's "connect to a backend" setting (issue 14 item
// 1, UI by issue 10): add / remove / list, each connector an agent session of this bridge dialing
// its backend. The bridge process owns them, so they live as long as the bridge does. Wiring a
// message or route to it is the caller's job (see the report of issue 14).
import crypto from 'node:crypto';
import type { Logger } from '../log';
import { checkBackendUrl } from './backend-link';
import { SeedConnector, type Dialect } from './connector';

export interface ConnectorInfo {
  id: string;
  dialect: Dialect;
  url: string;
  /** hello.client.name of its agent session (what the agent list shows). */
  client_name: string;
  backend_connected: boolean;
}

export class ConnectorManager {
  private readonly connectors = new Map<string, { connector: SeedConnector; dialect: Dialect; url: string; connected: boolean }>();

  constructor(private readonly opts: { bridgeAgentUrl: string; agentSecret: string; logger?: Logger; allowRemote?: boolean }) {}

  /** Starts a connector; throws BackendUrlError for a non-loopback URL unless allowed. */
  async add(dialect: Dialect, url: string): Promise<ConnectorInfo> {
    checkBackendUrl(url, this.opts.allowRemote ?? false);
    for (const [id, c] of this.connectors) if (c.dialect === dialect && c.url === url) return this.info(id);
    const connector = new SeedConnector({ dialect, backendUrl: url, bridgeUrl: this.opts.bridgeAgentUrl, secret: this.opts.agentSecret, allowRemote: this.opts.allowRemote ?? false, ...(this.opts.logger ? { logger: this.opts.logger } : {}) });
    const id = `c${crypto.randomBytes(4).toString('hex')}`;
    const entry = { connector, dialect, url, connected: false };
    connector.on('backend-open', () => (entry.connected = true));
    connector.on('backend-close', () => (entry.connected = false));
    // Disconnected from the panel (its session ended): forget it.
    connector.on('stopped', () => this.connectors.delete(id));
    await connector.start();
    this.connectors.set(id, entry);
    return this.info(id);
  }

  async remove(id: string): Promise<boolean> {
    const c = this.connectors.get(id);
    if (!c) return false;
    this.connectors.delete(id);
    await c.connector.stop('removed');
    return true;
  }

  list(): ConnectorInfo[] {
    return [...this.connectors.keys()].map((id) => this.info(id));
  }

  async closeAll(): Promise<void> {
    await Promise.all([...this.connectors.keys()].map((id) => this.remove(id)));
  }

  private info(id: string): ConnectorInfo {
    const c = this.connectors.get(id);
    if (!c) throw new Error(`no connector ${id}`);
    return { id, dialect: c.dialect, url: c.url, client_name: c.connector.clientName, backend_connected: c.connected };
  }
}
