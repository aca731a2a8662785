// What the relay core offers the services that live beside it, and what it expects of them. The
// core (this folder) relays between agents and the extension; the agents that serve another
// protocol on the same port (MCP at /mcp) or that the person starts from the side panel (the seed
// 000/001 backend connectors) are built by the CLI (bridge/cli/wire.ts) and handed to the server as
// options, so the core never imports an agent and each agent reaches the relay as any agent does.
import type http from 'node:http';
import type { Duplex } from 'node:stream';

import type {
  BackendConnectorsMessage,
  CdpClientControlMessage,
  CdpClientsMessage,
  ConnectorControlMessage,
  ErrorInfo,
  HelloMessage,
} from '../../schemas/generated/protocol';
import type { LinkEnd } from '../common/in-process-link';
import type { Logger } from '../common/log';
import type { EndpointName, UpgradeVerdict } from '../common/origin-check';

/** What a service may use of the running bridge. */
export interface BridgeContext {
  log: Logger;
  /** The bridge's config dir (secrets, sessions, tokens), or null when it keeps nothing on disk. */
  configDir: string | null;
  /** ws://host:port/agent, once listening. */
  agentUrl(): string;
  agentSecret(): string;
  /** A new in-process link to /agent's relay for an agent living in this process (no loopback socket). */
  connectAgentInProcess(): LinkEnd;
  /** The bridge's Host + Origin rule (origin-check.ts) as it applies to /agent; refusals name `endpoint`. */
  checkAgentHeaders(headers: http.IncomingHttpHeaders, endpoint?: EndpointName): UpgradeVerdict;
  /** Sends to the connected extension; false when none is connected. */
  sendToExtension(m: BackendConnectorsMessage | CdpClientsMessage): boolean;
  /** The browser the extension runs in, as its hello said (the CDP endpoint's /json/version); undefined before. */
  extensionBrowser(): HelloMessage['browser'];
}

/** An HTTP endpoint beside the relay on the same port, e.g. MCP's Streamable HTTP at /mcp. */
export interface HttpService {
  readonly path: string;
  /** Shown in the 404 answer's list of endpoints. */
  readonly label: string;
  /** Does its own loopback, Host/Origin and credential checks. */
  handle(req: http.IncomingMessage, res: http.ServerResponse): void;
  close(): Promise<void>;
}

export type ConnectorReply = { ok: true; reply: BackendConnectorsMessage } | { ok: false; error: ErrorInfo };

/** The side panel's "Connect a backend": connector_control in, backend_connectors out. */
export interface ConnectorService {
  /** After the bridge listens: dial the saved backends again. */
  start(agentUrl: string, agentSecret: string): Promise<void>;
  /** The list, now (a newly connected extension). */
  publish(): void;
  /** browser: the name of the browser whose panel sent it; a connector it starts works in that browser. */
  handle(c: ConnectorControlMessage, browser: string | null): Promise<ConnectorReply>;
  close(): Promise<void>;
}

export type CdpControlReply = { ok: true; reply: CdpClientsMessage } | { ok: false; error: ErrorInfo };

/**
 * The CDP endpoint (bridge/agents/cdp): standard DevTools clients (Playwright connectOverCDP,
 * puppeteer, today's browser_use) reach the person's leased tabs under one path prefix, over HTTP
 * discovery (/json/version) and WebSocket. Each client is an ordinary agent session of the relay.
 */
export interface CdpService {
  /** The path prefix it owns, e.g. "/cdp/": every HTTP request and upgrade under it goes to the service. */
  readonly prefix: string;
  /** Shown in the 404 answer's list of endpoints. */
  readonly label: string;
  /** Does its own loopback, Host/Origin and token checks. */
  handle(req: http.IncomingMessage, res: http.ServerResponse): void;
  /** A WebSocket upgrade under the prefix; does its own checks and answers 403/404 itself. */
  upgrade(req: http.IncomingMessage, socket: Duplex, head: Buffer): void;
  /** What /status shows of the CDP clients (never a token). */
  status(): unknown;
  /** Sends cdp_clients to the extension now (it just connected). */
  publish(): void;
  /** The side panel's cdp_client_control (revoke a URL). */
  handleControl(c: CdpClientControlMessage): Promise<CdpControlReply>;
  close(): Promise<void>;
}

export interface BridgeServices {
  http?: (ctx: BridgeContext) => HttpService[];
  connectors?: (ctx: BridgeContext) => ConnectorService;
  cdp?: (ctx: BridgeContext) => CdpService;
}
