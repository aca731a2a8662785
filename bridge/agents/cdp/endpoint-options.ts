// What the CDP endpoint (cdp-endpoint.ts) is built with, handed in by the bridge's CLI (bridge/cli/wire.ts),
// and the constants its clients and tests see: the path prefix, the connection cap per URL, and the
// close code a revoked URL ends its connections with.
import type http from 'node:http';

import type { CdpClientsMessage, HelloMessage } from '../../../schemas/generated/protocol';
import type { LinkEnd } from '../../common/in-process-link';
import type { Logger } from '../../common/log';
import type { EndpointName, UpgradeVerdict } from '../../common/origin-check';
import type { CdpEmulatorFactory } from './cdp-connection';

export interface CdpEndpointOptions {
  /** Where cdp-clients.json and downloads/ live. */
  configDir: string;
  agentUrl: () => string;
  agentSecret: () => string;
  /** A new in-process link to the relay (no loopback socket per command); omitted: a WebSocket to agentUrl. */
  agentLink?: () => LinkEnd;
  /** The bridge's Host + Origin rule as it applies to /agent (refusals name this endpoint). */
  checkHeaders: (headers: http.IncomingHttpHeaders, endpoint: EndpointName) => UpgradeVerdict;
  /** Sends to the connected extension; false when none is connected. */
  sendToExtension: (m: CdpClientsMessage) => boolean;
  /** The browser the extension said it runs in (hello.browser), for /json/version before any tab answered. */
  extensionBrowser?: () => HelloMessage['browser'];
  log: Logger;
  emulator: CdpEmulatorFactory;
  /** WebSocket connections per URL at once (default 8). */
  maxConnectionsPerUrl?: number;
  /** Wrong tokens answered at once before they are slowed (rate-limit.ts). */
  maxFailures?: number;
  /** Past that burst, one wrong-token answer per this many ms, across all addresses. */
  failureIntervalMs?: number;
  /** Wrong-token requests waiting for their answer; more are closed unanswered. */
  maxPendingFailures?: number;
  /** Wrong tokens are logged once, then summarised per this many ms. */
  failureLogWindowMs?: number;
  /** How often the file is checked for new/revoked URLs and the panel's stats refreshed (default 1000 ms). */
  pollMs?: number;
}

export const CDP_PREFIX = '/cdp/';
export const DEFAULT_CDP_CONNECTIONS_PER_URL = 8;
/**
 * Close code when the person revokes a URL (or it is replaced): 1008 "policy violation". A CDP
 * client reports a close that is not 1000/1001 as an error carrying the reason (Python websockets
 * raises ConnectionClosedError "received 1008 (policy violation) <reason>", as browser_use shows),
 * where 1000 reads as a normal end the client may not even mention.
 */
export const CLOSE_REVOKED = 1008;
