// One MCP client = one agent session of the bridge. The link connects an AgentClient to /agent on
// the first tool call (not at start: an MCP client often starts its servers before the person has
// started the bridge), naming the MCP client in hello.client ("mcp:claude-code") so /status and the
// side panel show who holds which tabs. A connection that drops is resumed by AgentClient (same
// session, same tabs). When the bridge ended the session instead (the person disconnected this
// client, or the bridge restarted), the next call starts a new session and says so.
import { AgentClient, BridgeClientError } from '../client/agent-client';
import type { TabReleasedMessage } from '../../../schemas/generated/protocol';

export interface BridgeLinkOptions {
  /** ws://127.0.0.1:PORT/agent */
  url: string;
  /** Agent secret; omitted: env BROWSER_USE_EXT_AGENT_SECRET, else the bridge's secrets file. */
  secret?: string;
  maxTabs?: number;
}

export class BridgeLink {
  private client: AgentClient | null = null;
  private connecting: Promise<AgentClient> | null = null;
  private clientName = 'mcp:unknown-client';
  private clientVersion = '0';
  /** Set when the bridge ended our session; reported once by the next call. */
  notice: string | null = null;
  private closed = false;
  /** Called with each tab the bridge took back (tab limit, tab closed). */
  onTabReleased: (m: TabReleasedMessage) => void = () => undefined;
  /** Called when a new bridge session starts (the previous one's tabs are gone). */
  onNewSession: () => void = () => undefined;

  constructor(private readonly opts: BridgeLinkOptions) {}

  /** From the MCP initialize request's clientInfo; hello.client_info.name is limited to 100 chars. */
  setClientInfo(name: string | undefined, version: string | undefined, suffix = ''): void {
    const clean = (s: string) => s.replace(/[^\x20-\x7e]/g, '').trim();
    this.clientName = `mcp:${clean(name ?? '') || 'unknown-client'}${suffix}`.slice(0, 100);
    this.clientVersion = (clean(version ?? '') || '0').slice(0, 50);
  }

  get name(): string {
    return this.clientName;
  }

  get sessionId(): string | null {
    return this.client?.sessionId ?? null;
  }

  /** The connected client; connects (or reconnects after the bridge ended the session) on demand. */
  async agent(): Promise<AgentClient> {
    if (this.closed) throw new BridgeClientError('This MCP session is closed.', 'COMMUNICATION_ERROR_WITH_TARGET');
    if (this.client) return this.client;
    this.connecting ??= this.connect().finally(() => {
      this.connecting = null;
    });
    return this.connecting;
  }

  private async connect(): Promise<AgentClient> {
    const client = new AgentClient({
      url: this.opts.url,
      ...(this.opts.secret === undefined ? {} : { secret: this.opts.secret }),
      clientName: this.clientName,
      capabilities: ['mcp'],
      ...(this.opts.maxTabs === undefined ? {} : { maxTabs: this.opts.maxTabs }),
    });
    await client.open();
    client.on('tab_released', (m: TabReleasedMessage) => this.onTabReleased(m));
    client.on('reconnected', (ack: { resumed?: boolean } | null) => {
      if (ack && ack.resumed === false) this.sessionEnded('the bridge restarted or ended the session while the connection was down');
    });
    client.on('close', (code: number, reason: string) => {
      // AgentClient resumes after a drop by itself; a normal close from the bridge (the person
      // disconnected this client, or the bridge shut down) and a refused session do not come back.
      if (code === 1000 || code === 1001 || code === 1008) this.sessionEnded(`the bridge closed the session (${code}${reason ? ` ${reason}` : ''})`);
    });
    this.client = client;
    this.onNewSession();
    return client;
  }

  private sessionEnded(why: string): void {
    const old = this.client;
    if (!old) return;
    this.client = null;
    this.notice = `Note: ${why}; this call started a new bridge session, so earlier tabs are no longer yours (browser_tabs list).`;
    void old.close().catch(() => undefined);
  }

  async close(): Promise<void> {
    this.closed = true;
    const c = this.client ?? (await this.connecting?.catch(() => null)) ?? null;
    this.client = null;
    await c?.close().catch(() => undefined);
  }
}
