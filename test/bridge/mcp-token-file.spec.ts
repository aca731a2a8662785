// A damaged mcp-tokens.json (truncated, empty, not a list) is the bridge's problem, not the client's:
// /mcp answers 503 with what to do (delete the file, issue new tokens) instead of a 500 that says
// "report the bug", the bridge stays up, and a repaired file works without a restart.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { expect } from 'chai';

import { McpTokenStore } from '../../bridge/agents/mcp/tokens';
import { createBridge } from '../../bridge/cli/wire';
import { createLogger } from '../../bridge/common/log';
import type { BridgeServer } from '../../bridge/src/server';

describe('MCP token file damaged (real bridge, real HTTP)', () => {
  let bridge: BridgeServer;
  let dir: string;
  let store: McpTokenStore;
  beforeEach(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bux-mcp-tokens-'));
    store = new McpTokenStore(dir);
    bridge = createBridge({ port: 0, logger: createLogger('silent'), mcpTokens: store });
    await bridge.start();
  });
  afterEach(async () => {
    await bridge.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const post = (token: string) =>
    fetch(`http://127.0.0.1:${bridge.port}/mcp`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 't', version: '1' } },
      }),
    });

  for (const [what, text] of [
    ['truncated', '{"tokens": [{"name": "a", "sha'],
    ['empty', ''],
    ['not a token list', 'null'],
  ] as const) {
    it(`${what}: 503 naming the file and the command that fixes it; the bridge stays up`, async () => {
      const token = store.add('client-a');
      fs.writeFileSync(store.file, text);
      const r = await post(token);
      expect(r.status).to.equal(503);
      const body = (await r.json()) as { error: { message: string } };
      expect(body.error.message).to.contain(store.file).and.to.contain('mcp-token add');
      expect(body.error.message).to.not.contain(token);
      expect((await fetch(`http://127.0.0.1:${bridge.port}/healthz`)).status).to.equal(200);
      // Repaired without a restart: a new token works at once.
      fs.rmSync(store.file);
      const fresh = store.add('client-b');
      expect((await post(fresh)).status).to.equal(200);
    });
  }
});
