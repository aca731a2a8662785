// The gate shared by /mcp and /cdp (bridge/common/endpoint-guard.ts): loopback peers only, the /agent
// Host + Origin rule with refusals naming the endpoint the caller used, and wrong tokens through the
// failure gate. No sockets: requests are plain objects, so this runs in milliseconds.
import { EventEmitter } from 'node:events';
import type http from 'node:http';

import { expect } from 'chai';

import { EndpointGuard, isLoopbackAddress } from '../../bridge/common/endpoint-guard';
import type { Logger } from '../../bridge/common/log';
import { checkUpgrade, type EndpointName } from '../../bridge/common/origin-check';

const PORT = 8765;
const quiet: Logger = { error: () => undefined, warn: () => undefined, info: () => undefined, debug: () => undefined };

function request(remoteAddress: string, headers: http.IncomingHttpHeaders): http.IncomingMessage {
  const socket = Object.assign(new EventEmitter(), { remoteAddress });
  return { socket, headers } as unknown as http.IncomingMessage;
}

function guard(name: EndpointName, extra: { maxFailures?: number; maxPendingFailures?: number } = {}): EndpointGuard {
  return new EndpointGuard({
    name,
    logName: 'test',
    loopbackOnly: 'loopback only: run the client on this machine',
    checkHeaders: (headers, endpoint) => checkUpgrade('agent', headers, { port: PORT, extensionOrigins: [] }, endpoint),
    credential: 'test token',
    log: quiet,
    ...extra,
  });
}

const MCP: EndpointName = { action: 'call /mcp', callers: 'agents' };
const CDP: EndpointName = { action: 'use the CDP endpoint', callers: 'CDP clients' };

describe('endpoint guard (/mcp and /cdp)', () => {
  it('admits a loopback peer naming this bridge without an Origin; refuses other peers with the endpoint text', () => {
    const g = guard(MCP);
    try {
      for (const a of ['127.0.0.1', '127.3.2.1', '::1', '::ffff:127.0.0.1']) expect(isLoopbackAddress(a), a).to.equal(true);
      for (const a of ['10.0.0.2', '::ffff:192.168.1.5', '', undefined]) expect(isLoopbackAddress(a), String(a)).to.equal(false);
      expect(g.admit(request('127.0.0.1', { host: `127.0.0.1:${PORT}` }))).to.deep.equal({ ok: true });
      expect(g.admit(request('192.168.1.5', { host: `127.0.0.1:${PORT}` }))).to.deep.equal({
        ok: false,
        status: 403,
        message: 'loopback only: run the client on this machine',
      });
    } finally {
      g.close();
    }
  });

  it('refuses a foreign Host (DNS rebinding) and any browser Origin, naming the endpoint the caller used', () => {
    const mcp = guard(MCP);
    const cdp = guard(CDP);
    try {
      const rebinding = mcp.admit(request('127.0.0.1', { host: `evil.example:${PORT}` }));
      expect(rebinding.ok).to.equal(false);
      if (!rebinding.ok) expect(rebinding.message).to.contain('DNS-rebinding');
      const origin = { host: `127.0.0.1:${PORT}`, origin: 'https://evil.example' };
      const m = mcp.admit(request('127.0.0.1', origin));
      const c = cdp.admit(request('127.0.0.1', origin));
      expect(m).to.deep.equal({
        ok: false,
        status: 403,
        message: 'browser Origin "https://evil.example" may not call /mcp; agents are local programs that send no Origin',
      });
      expect(c).to.deep.equal({
        ok: false,
        status: 403,
        message: 'browser Origin "https://evil.example" may not use the CDP endpoint; CDP clients are local programs that send no Origin',
      });
    } finally {
      mcp.close();
      cdp.close();
    }
  });

  it('answers wrong tokens within the burst and closes the excess unanswered', async () => {
    const g = guard(CDP, { maxFailures: 1, maxPendingFailures: 0 });
    try {
      const req = request('127.0.0.1', { host: `127.0.0.1:${PORT}` });
      expect(await g.wrongToken(req, 'wrong token')).to.equal('answer');
      expect(await g.wrongToken(req, 'wrong token')).to.equal('drop');
      expect(req.socket.listenerCount('close'), 'no listener left behind').to.equal(0);
    } finally {
      g.close();
    }
  });
});
