// One MCP client = one agent session of the bridge. The link connects an AgentClient to /agent on
// the first tool call (not at start: an MCP client often starts its servers before the person has
// started the bridge), naming the MCP client in hello.client ("mcp:claude-code") so /status and the
// side panel show who holds which tabs. A connection that drops is resumed by AgentClient (same
// session, same tabs). When the bridge ended the session instead (closed it, or forgot it across a
// restart), the next call starts a new session and says so. When the person disconnected this
// client in the side panel (close 4003), every later call is refused with NOT_PERMITTED.
import type { TabReleasedMessage } from '../../../schemas/generated/protocol';
import { CLOSE_CODES } from '../../../schemas/lib/close-codes';
import { AgentClient, BridgeClientError } from '../../client/agent-client';

export interface BridgeLinkOptions {
  /** ws://127.0.0.1:PORT/agent */
  url: string;
  /** Agent secret; omitted: env BROWSER_USE_EXT_AGENT_SECRET, else the bridge's secrets file. */
  secret?: string;
  maxTabs?: number;
  /** The browser to work in, by name (AgentClientOptions.browser); omitted: the bridge's choice. */
  browser?: string;
}

export class BridgeLink {
  private client: AgentClient | null = null;
  private connecting: Promise<AgentClient> | null = null;
  private clientName = 'mcp:unknown-client';
  private clientVersion = '0';
  /** Set when the bridge ended our session; reported once by the next call. */
  notice: string | null = null;
  private closed = false;
  private disconnectedByPerson = false;
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
    if (this.disconnectedByPerson) {
      throw new BridgeClientError(
        'The person disconnected this MCP client in the browser-use-ext side panel, so it no longer drives their browser. Ask them; to use the browser again they restart this MCP server (or reconnect it in the MCP client).',
        'NOT_PERMITTED',
      );
    }
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
      ...(this.opts.browser === undefined ? {} : { browser: this.opts.browser }),
    });
    await client.open();
    client.on('tab_released', (m: TabReleasedMessage) => this.onTabReleased(m));
    client.on('reconnected', (ack: { resumed?: boolean } | null) => {
      if (ack && ack.resumed === false) this.sessionEnded('the bridge restarted or ended the session while the connection was down');
    });
    client.on('close', (code: number, reason: string) => {
      // AgentClient resumes after a drop or a bridge restart (1001) by itself. The person
      // disconnecting this client in the side panel is final for this server's life; a normal close
      // or a refusal from the bridge ends the session, and the next call starts a new one.
      if (code === CLOSE_CODES.disconnectedByPerson) {
        this.disconnectedByPerson = true;
        this.sessionEnded(null);
      } else if (code === 1000 || code === 1008 || code === CLOSE_CODES.secretRefused)
        this.sessionEnded(`the bridge closed the session (${code}${reason ? ` ${reason}` : ''})`);
    });
    this.client = client;
    this.onNewSession();
    return client;
  }

  /** why: what the next call's notice says (it starts a new session); null: no new session follows. */
  private sessionEnded(why: string | null): void {
    const old = this.client;
    if (!old) return;
    this.client = null;
    this.notice =
      why === null
        ? null
        : `Note: ${why}; this call started a new bridge session, so earlier tabs are no longer yours (browser_tabs list).`;
    void old.close().catch(() => undefined);
  }

  async close(): Promise<void> {
    this.closed = true;
    const c = this.client ?? (await this.connecting?.catch(() => null)) ?? null;
    this.client = null;
    await c?.close().catch(() => undefined);
  }
}
