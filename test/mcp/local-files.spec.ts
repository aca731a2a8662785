// An MCP client holding only a bearer token reaches the extension through the same actions as any
// agent, so it is refused local files too: no navigating to file://, no reading a tab the person
// has open at one (snapshot, text, screenshot), and the file's content never reaches a tool result.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { expect } from 'chai';

import { McpTokenStore } from '../../bridge/agents/mcp/tokens';
import { EXTENSION_ID } from '../../bridge/common/extension-id';
import { type Harness, startHarness } from '../harness/harness';
import { callTool, connectHttpClient } from '../harness/mcp-clients';

const MARKER = 'bux-mcp-local-marker-0c5e11';

describe('mcp: local files and the extension are refused to an MCP client', function () {
  this.timeout(120_000);
  let h: Harness;
  let tokenDir: string;
  let dir: string;
  let client: Client;

  before(async function () {
    this.timeout(90_000);
    tokenDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bux-mcp-tokens-'));
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bux-mcp-local-'));
    fs.writeFileSync(path.join(dir, 'secrets.json'), JSON.stringify({ agent_secret: MARKER }));
    const tokens = new McpTokenStore(tokenDir);
    const token = tokens.add('local-files');
    h = await startHarness({ bridgeOptions: { mcpTokens: tokens } });
    client = await connectHttpClient({ port: h.bridge.port, token, name: 'local-files' });
  });
  after(async () => {
    await client?.close().catch(() => undefined);
    await h?.close();
    fs.rmSync(tokenDir, { recursive: true, force: true });
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('browser_navigate to a file is NOT_PERMITTED; snapshot, text and screenshot of a file tab are refused; the content never shows', async () => {
    const secret = pathToFileURL(path.join(dir, 'secrets.json')).href;
    await h.openPage(h.fixtures.html('/mcp-local', '<p>web</p>', 'Web'));
    const results = [await callTool(client, 'browser_navigate', { url: secret })];
    expect(results[0]?.isError, results[0]?.text).to.equal(true);
    expect(results[0]?.text).to.match(/^Error NOT_PERMITTED: .*local file.*Settings/s);

    // The person has the file open in the active tab.
    await h.openPage(secret);
    for (const tool of ['browser_snapshot', 'browser_extract_text', 'browser_take_screenshot']) {
      const r = await callTool(client, tool);
      results.push(r);
      expect(r.isError, `${tool}: ${r.text}`).to.equal(true);
      expect(r.text, tool).to.match(/^Error NOT_PERMITTED: /);
      expect(r.images, tool).to.deep.equal([]);
    }
    expect(JSON.stringify(results)).to.not.include(MARKER);
  });

  it("browser_navigate to an extension page or chrome:// is NOT_PERMITTED; with the person on the extension's Settings, the client reads the page they used before it and never lists Settings", async () => {
    const options = `chrome-extension://${EXTENSION_ID}/options.html`;
    for (const url of [options, 'chrome://settings']) {
      const r = await callTool(client, 'browser_navigate', { url });
      expect(r.isError, r.text).to.equal(true);
      expect(r.text, url).to.match(/^Error NOT_PERMITTED: .*out of reach/s);
    }
    await h.openPage(h.fixtures.html('/mcp-before-settings', '<p>the page before Settings</p>', 'Before'));
    const settings = await h.openPage(options);
    try {
      const snap = await callTool(client, 'browser_snapshot');
      expect(snap.isError, snap.text).to.equal(false);
      expect(snap.text).to.contain('the page before Settings');
      const tabs = await callTool(client, 'browser_tabs', { action: 'list' });
      expect(tabs.text).to.not.contain('chrome-extension:');
      expect(settings.url()).to.equal(options);
    } finally {
      await settings.close();
    }
  });
});
