// POST /pair {code}: the extension's side panel redeems a one-time pairing code (pairing.ts) for the
// extension secret. Only the extension's Origin is served (a web page cannot forge Origin; a local
// program that could would also need the code, printed only to the person's terminal), a wrong code
// is answered late through the same failure gate as wrong handshake proofs (rate-limit.ts: a few
// wrong answers per second, excess requests closed unanswered, never locks the person out; codes
// also expire and work once), and nothing is logged but the outcome, summarised per window.
import type http from 'node:http';

import type { Logger } from '../common/log';
import type { FailureGate, RefusalLog } from '../common/rate-limit';
import type { PairingCodes } from './pairing';

export interface PairContext {
  codes: PairingCodes;
  gate: FailureGate;
  refusals: RefusalLog;
  extensionOrigins: string[];
  secret: string;
  extensionUrl: string;
  log: Logger;
  /** A wrong code is answered within this long or not at all (the request is closed unanswered). */
  maxWaitMs: number;
}

const MAX_BODY = 1024;

function readBody(req: http.IncomingMessage): Promise<string | null> {
  return new Promise((resolve) => {
    let size = 0;
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY) {
        resolve(null);
        req.destroy();
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', () => resolve(null));
  });
}

export async function handlePairRequest(
  req: http.IncomingMessage,
  ctx: PairContext,
): Promise<{ code: number; body: Record<string, unknown> } | 'drop'> {
  const origin = req.headers.origin;
  if (req.method !== 'POST') return { code: 405, body: { error: 'POST {"code": "XXXX-XXXX"} from the extension' } };
  if (typeof origin !== 'string' || !ctx.extensionOrigins.includes(origin)) {
    ctx.refusals.refused('pairing refused: not the extension origin', 'pairing refused: not the extension origin', {
      origin: origin ?? null,
      remote: req.socket.remoteAddress,
    });
    return { code: 403, body: { error: 'Only the browser-use-ext extension may pair.' } };
  }
  const text = await readBody(req);
  let code: unknown;
  try {
    code = text === null ? null : (JSON.parse(text) as Record<string, unknown>)['code'];
  } catch {
    code = null;
  }
  if (typeof code !== 'string' || code.length > 64)
    return { code: 400, body: { error: 'Send {"code": "XXXX-XXXX"} as printed by `browser-use-ext pair`.' } };
  const r = ctx.codes.redeem(code);
  if (!r.ok) {
    // Verified first (the right code is answered at once, whatever floods the gate); a wrong one is
    // answered when the gate has a slot, or the request is closed unanswered (rate-limit.ts).
    const remote = req.socket.remoteAddress;
    const wrong = ctx.gate.fail('pairing code', {
      remote,
      deadline: Date.now() + ctx.maxWaitMs,
      message: 'pairing refused (more in this window are summarised in one line)',
      fields: { reason: r.reason, remote },
    });
    const cancel = () => wrong.cancel();
    req.socket.once('close', cancel);
    const outcome = await wrong.outcome;
    req.socket.off('close', cancel);
    if (outcome === 'drop') return 'drop';
    const why =
      r.reason === 'expired'
        ? 'That pairing code has expired (codes last 10 minutes).'
        : r.reason === 'no_code'
          ? 'This bridge has no pairing code waiting.'
          : 'That is not the pairing code this bridge is waiting for (codes work once).';
    return {
      code: 401,
      body: { error: `${why} Run \`browser-use-ext pair\` for a new one, with the same --config-dir as the bridge.`, reason: r.reason },
    };
  }
  ctx.log.info('extension paired with a one-time code');
  return { code: 200, body: { extension_secret: ctx.secret, bridge_url: ctx.extensionUrl } };
}
