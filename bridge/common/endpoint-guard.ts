// The gate in front of an HTTP endpoint that agents reach with a token (/mcp, /cdp/<token>): the
// checks every request and upgrade passes before the endpoint reads it, in this order:
//   1. loopback peer address (even with --allow-remote: the token travels over plain http and must
//      not cross a network);
//   2. the bridge's /agent Host + Origin rule (origin-check.ts): Host must name this bridge (DNS
//      rebinding), and any Origin is refused (its clients are local programs and send none, while a
//      web page always sends one); the refusal names this endpoint;
//   3. a wrong token goes through the failure gate (rate-limit.ts: a few answers per second, the
//      excess closed unanswered, the right token never delayed). The endpoint verifies the token
//      first and comes here only with a wrong one.
// Refusals anybody can trigger are logged once per window (RefusalLog), never with the token.
import type http from 'node:http';

import type { Logger } from './log';
import type { EndpointName, UpgradeVerdict } from './origin-check';
import {
  DEFAULT_FAILURE_BURST,
  DEFAULT_FAILURE_INTERVAL_MS,
  DEFAULT_FAILURE_MAX_PENDING,
  FailureGate,
  RefusalLog,
  type WrongTryOutcome,
} from './rate-limit';

export interface EndpointGuardOptions {
  /** How a Host/Origin refusal names the endpoint ("call /mcp"). */
  name: EndpointName;
  /** Short name in log lines ("mcp", "cdp"). */
  logName: string;
  /** The 403 text for a peer that is not on this machine: why, and what to do instead. */
  loopbackOnly: string;
  /** The bridge's Host + Origin rule (BridgeContext.checkAgentHeaders). */
  checkHeaders: (headers: http.IncomingHttpHeaders, endpoint: EndpointName) => UpgradeVerdict;
  /** The failure gate's bucket: one per kind of credential ("MCP token"). */
  credential: string;
  log: Logger;
  /** Wrong tokens answered at once before they are slowed. */
  maxFailures?: number | undefined;
  /** Past that burst, one wrong-token answer per this many ms, across all addresses. */
  failureIntervalMs?: number | undefined;
  /** Wrong-token requests waiting for their answer; more are closed unanswered. */
  maxPendingFailures?: number | undefined;
  /** Refusals are logged once, then summarised per this many ms (default 10 s). */
  logWindowMs?: number | undefined;
}

export type GuardVerdict = { ok: true } | { ok: false; status: 403; message: string };

/** A wrong token is answered within this long or not at all (then: closed unanswered). */
const WRONG_TOKEN_MAX_WAIT_MS = 10_000;

export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false;
  const a = address.startsWith('::ffff:') ? address.slice(7) : address;
  return a === '::1' || /^127\.\d+\.\d+\.\d+$/.test(a);
}

export class EndpointGuard {
  /** Also for the endpoint's own refusals anybody can trigger (a connection cap). */
  readonly refusals: RefusalLog;
  private readonly failures: FailureGate;

  constructor(private readonly o: EndpointGuardOptions) {
    const warn = (message: string, fields?: Record<string, unknown>) => o.log.warn(message, fields);
    this.failures = new FailureGate({
      burst: o.maxFailures ?? DEFAULT_FAILURE_BURST,
      intervalMs: o.failureIntervalMs ?? DEFAULT_FAILURE_INTERVAL_MS,
      maxPending: o.maxPendingFailures ?? DEFAULT_FAILURE_MAX_PENDING,
      ...(o.logWindowMs === undefined ? {} : { windowMs: o.logWindowMs }),
      warn,
    });
    this.refusals = new RefusalLog(warn, o.logWindowMs);
  }

  /** Checks 1 and 2 (see the top of this file); `fields` go into the refusal's log line. */
  admit(req: http.IncomingMessage, fields?: Record<string, unknown>): GuardVerdict {
    if (!isLoopbackAddress(req.socket.remoteAddress)) return { ok: false, status: 403, message: this.o.loopbackOnly };
    const verdict = this.o.checkHeaders(req.headers, this.o.name);
    if (verdict.ok) return verdict;
    const kind = `refused ${this.o.logName} request`;
    this.refusals.refused(kind, kind, { reason: verdict.reason, ...fields });
    return { ok: false, status: 403, message: verdict.reason };
  }

  /**
   * Check 3 for a wrong token: resolves when the refusal may be answered ('answer'), or 'drop' when
   * the request is to be closed unanswered. A peer that goes away meanwhile frees its place.
   */
  async wrongToken(req: http.IncomingMessage, message: string, fields?: Record<string, unknown>): Promise<WrongTryOutcome> {
    const remote = req.socket.remoteAddress;
    const wrong = this.failures.fail(this.o.credential, {
      remote,
      deadline: Date.now() + WRONG_TOKEN_MAX_WAIT_MS,
      message,
      fields: { remote, ...fields },
    });
    const cancel = () => wrong.cancel();
    req.socket.once('close', cancel);
    try {
      return await wrong.outcome;
    } finally {
      req.socket.off('close', cancel);
    }
  }

  close(): void {
    this.failures.close();
    this.refusals.close();
  }
}
