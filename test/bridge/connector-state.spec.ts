// The state the bridge reports for a backend connector (what the side panel's "Connect a backend"
// shows) is the backend link's real state: "connected" only once a backend accepted the WebSocket,
// "retrying" with why otherwise; a backend that answers and says no is told apart from one that is
// not there (details.reason refused / unreachable). Real ws servers and a real bridge, no browser.
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

import { expect } from 'chai';
import { WebSocketServer } from 'ws';

import { type BackendConnectorInfo, ConnectorManager } from '../../bridge/agents/connectors/connector-manager';
import { createBridge } from '../../bridge/cli/wire';
import { createLogger } from '../../bridge/common/log';
import type { BridgeServer } from '../../bridge/src/server';
import { freePort } from '../harness/free-port';

describe('backend connectors: the state the bridge reports', function () {
  this.timeout(20_000);
  let bridge: BridgeServer;
  let manager: ConnectorManager;
  /** Every state the manager reported for the one connector under test, in order. */
  let seen: BackendConnectorInfo[];
  let cfg: string;
  const closers: (() => Promise<void>)[] = [];

  beforeEach(async () => {
    cfg = fs.mkdtempSync(path.join(os.tmpdir(), 'bux-connector-state-'));
    bridge = createBridge({ port: 0, logger: createLogger('silent'), configDir: cfg });
    await bridge.start();
    manager = new ConnectorManager({
      bridgeAgentUrl: bridge.agentUrl,
      agentSecret: bridge.secrets.agent_secret,
      minDelayMs: 100,
      maxDelayMs: 200,
    });
    seen = [];
    manager.on('change', () => seen.push(...manager.list()));
  });
  afterEach(async () => {
    await manager.closeAll();
    for (const c of closers.splice(0)) await c();
    await bridge.close();
    fs.rmSync(cfg, { recursive: true, force: true });
  });

  const until = async (ok: () => boolean, what: string, ms = 8000) => {
    const end = Date.now() + ms;
    while (!ok()) {
      if (Date.now() > end) throw new Error(`not within ${ms} ms: ${what}; seen ${JSON.stringify(seen.map((s) => s.backend))}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };

  it('nothing listens: connecting, then retrying as not reachable, never connected', async () => {
    const url = `ws://127.0.0.1:${await freePort()}`;
    const added = await manager.add('001', url, false);
    expect(added.backend).to.equal('connecting');
    await until(() => seen.filter((s) => s.backend === 'retrying').length >= 2, 'two failed dials');
    expect(seen.map((s) => s.backend)).to.not.include('connected');
    const last = seen.at(-1)!;
    expect(last.last_error?.error_code).to.equal('BACKEND_UNREACHABLE');
    expect(last.last_error?.details).to.include({ reason: 'unreachable', url });
    expect(last.last_error?.message).to.contain(`No backend answers at ${url}`).and.not.contain('seed');
    expect(last.retry_in_ms).to.be.a('number');
  });

  it('a server that answers the upgrade with 403: retrying as refused, with the status', async () => {
    const srv = http.createServer((_req, res) => res.end());
    srv.on('upgrade', (_req, socket) => socket.end('HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\nConnection: close\r\n\r\n'));
    await new Promise<void>((r) => srv.listen(0, '127.0.0.1', () => r()));
    closers.push(() => new Promise<void>((r) => srv.close(() => r())));
    const url = `ws://127.0.0.1:${(srv.address() as net.AddressInfo).port}/wrong-path`;
    await manager.add('001', url, false);
    await until(() => seen.some((s) => s.backend === 'retrying'), 'a failed dial');
    const err = seen.find((s) => s.backend === 'retrying')!.last_error!;
    expect(err.details).to.include({ reason: 'refused', refusal: 'HTTP 403 Forbidden' });
    expect(err.message).to.contain('answered but refused the connection (HTTP 403 Forbidden)');
    expect(seen.map((s) => s.backend)).to.not.include('connected');
  });

  it('a backend that accepts and closes with 4001: refused, with its code and reason', async () => {
    const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    await new Promise<void>((r) => wss.once('listening', () => r()));
    wss.on('connection', (ws) => ws.close(4001, 'unknown client'));
    closers.push(() => new Promise<void>((r) => wss.close(() => r())));
    const url = `ws://127.0.0.1:${(wss.address() as net.AddressInfo).port}`;
    await manager.add('000', url, false);
    await until(() => seen.some((s) => s.backend === 'retrying'), 'the close');
    expect(seen.find((s) => s.backend === 'retrying')!.last_error?.details).to.include({
      reason: 'refused',
      refusal: 'closed with 4001 unknown client',
    });
  });

  it('a real backend: connected only once it has accepted the connection, and no error', async () => {
    const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    await new Promise<void>((r) => wss.once('listening', () => r()));
    let accepted = false;
    wss.on('connection', () => (accepted = true));
    closers.push(async () => {
      for (const c of wss.clients) c.terminate();
      await new Promise<void>((r) => wss.close(() => r()));
    });
    const url = `ws://127.0.0.1:${(wss.address() as net.AddressInfo).port}`;
    manager.on('change', () => {
      if (manager.list()[0]?.backend === 'connected') expect(accepted, 'connected before the backend accepted').to.equal(true);
    });
    await manager.add('001', url, false);
    await until(() => manager.list()[0]?.backend === 'connected', 'connected');
    expect(manager.list()[0]).to.include({ last_error: null, retry_in_ms: null });
  });
});
