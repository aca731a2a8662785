// The checks of a request or upgrade under /cdp/<token>, in order: the endpoint guard (loopback,
// Host + Origin; bridge/common/endpoint-guard.ts), a token-shaped path segment (anything else guesses
// nothing and is answered at once), the token verified against cdp-clients.json, and only a wrong
// one through the failure gate. A URL that is unknown or revoked reads the same to the caller; a URL
// the person stopped is refused with that reason (stopped-url.ts), since its holder knows it anyway.
import type http from 'node:http';

import { cli } from '../../common/cli-invocation';
import type { EndpointGuard } from '../../common/endpoint-guard';
import type { Logger } from '../../common/log';
import { CDP_TOKEN_FORMAT, type CdpClientRecord, type CdpClientsFile } from './cdp-clients-file';
import { type CdpRoute, routeOf, splitCdpPath } from './discovery';
import { stoppedUrlMessage } from './stopped-url';

export type Checked =
  | { ok: true; record: CdpClientRecord; token: string; route: CdpRoute }
  /** stopped: the URL is right but the person stopped its client (stopped-url.ts), with the token it presented. */
  | { ok: false; status: number; message: string; stopped?: { token: string } }
  | { ok: false; status: 'drop' };

const MISSING_URL = `Unknown CDP URL. Make one with: ${cli('cdp-url --name NAME')}`;

export async function checkCdpRequest(
  req: http.IncomingMessage,
  via: 'http' | 'ws',
  o: { guard: EndpointGuard; file: CdpClientsFile; prefix: string; log: Logger },
): Promise<Checked> {
  const admitted = o.guard.admit(req, { via });
  if (!admitted.ok) return admitted;
  const parts = splitCdpPath(req.url, o.prefix);
  const token = parts?.token ?? '';
  const missing = { ok: false as const, status: via === 'ws' ? 403 : 404, message: MISSING_URL };
  if (!CDP_TOKEN_FORMAT.test(token)) {
    o.log.debug('refused cdp request: no token in the path', { via });
    return missing;
  }
  let record: CdpClientRecord | null;
  try {
    record = o.file.verify(token);
  } catch (e) {
    // A damaged file is the bridge's problem, not the client's: say which file and how to fix it.
    const why = e instanceof Error ? e.message : String(e);
    o.log.error('cannot read the CDP URL list', { error: why });
    return { ok: false, status: 503, message: `The bridge cannot read its CDP URL list: ${why}` };
  }
  if (!record) {
    // Same rule as the handshakes and /mcp: answered late, one bucket for every address.
    const outcome = await o.guard.wrongToken(
      req,
      'refused cdp request: unknown or revoked URL token (more in this window are summarised in one line)',
      { via },
    );
    return outcome === 'drop' ? { ok: false, status: 'drop' } : missing;
  }
  if (record.stopped_at !== null) return { ok: false, status: 403, message: stoppedUrlMessage(record), stopped: { token } };
  return { ok: true, record, token, route: routeOf(parts?.rest ?? '') };
}
