// The MCP guide's config snippets work as printed: every JSON config and every `claude mcp add`
// line is extracted from docs/guide-mcp.md's "Config snippets" section, checked for the shape its
// client expects, and started the way the client would: stdio servers with the SDK's
// StdioClientTransport running the configured command (`browser-use-ext`, found on PATH: a shim in
// a temp dir that runs this checkout's dist/bridge/cli.js), HTTP servers with
// StreamableHTTPClientTransport and a token made by `browser-use-ext mcp-token add`; each lists
// the tools and takes a snapshot in real Chromium.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { expect } from 'chai';

import { McpTokenStore } from '../../bridge/agents/mcp/tokens';
import { REPO_ROOT } from '../harness/browser';
import { type Harness, startHarness } from '../harness/harness';
import { BUILT_CLI, callTool } from '../harness/mcp-clients';

interface Stdio {
  kind: 'stdio';
  from: string;
  command: string;
  args: string[];
}
interface Http {
  kind: 'http';
  from: string;
  url: string;
  headers: Record<string, string>;
}
type Server = Stdio | Http;

/** The MCP guide's section "Config snippets", up to the next second-level heading. */
export function mcpClientsSection(guide: string): string {
  const start = guide.indexOf('\n## Config snippets\n');
  if (start < 0) throw new Error('docs/guide-mcp.md has no "## Config snippets" section');
  const end = guide.indexOf('\n## ', start + 1);
  return guide.slice(start, end < 0 ? undefined : end);
}

/** Shell words of one line: spaces split, double or single quotes group (enough for the guide's lines). */
function shellWords(line: string): string[] {
  const words: string[] = [];
  for (const m of line.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)) words.push(m[1] ?? m[2] ?? m[3] ?? '');
  return words;
}

/** One MCP server entry of a client config, as the client reads it. */
function serverOf(from: string, entry: Record<string, unknown>, vscode: boolean): Server {
  const type = entry['type'];
  if (typeof entry['url'] === 'string') {
    if (vscode) expect(type, `${from}: VS Code needs "type": "http"`).to.equal('http');
    expect(entry['headers'], `${from}: headers`).to.be.an('object');
    return { kind: 'http', from, url: entry['url'], headers: entry['headers'] as Record<string, string> };
  }
  if (vscode) expect(type, `${from}: VS Code needs "type": "stdio"`).to.equal('stdio');
  expect(entry['command'], `${from}: command`).to.be.a('string');
  expect(entry['args'], `${from}: args`).to.be.an('array');
  return { kind: 'stdio', from, command: entry['command'] as string, args: entry['args'] as string[] };
}

/** Every server the section configures: its JSON snippets and its `claude mcp add` lines. */
export function serversIn(section: string): Server[] {
  const out: Server[] = [];
  for (const [i, m] of [...section.matchAll(/```json\n([\s\S]*?)```/g)].entries()) {
    const from = `JSON snippet ${i + 1}`;
    const config = JSON.parse(m[1] ?? '') as Record<string, Record<string, Record<string, unknown>>>;
    const keys = Object.keys(config);
    expect(keys.length === 1 && (keys[0] === 'mcpServers' || keys[0] === 'servers'), `${from}: one top key`).to.equal(true);
    const vscode = keys[0] === 'servers';
    for (const entry of Object.values(config[keys[0] ?? ''] ?? {})) out.push(serverOf(from, entry, vscode));
  }
  for (const line of section.split('\n').filter((l) => l.startsWith('claude mcp add '))) {
    const words = shellWords(line).slice(3);
    const dash = words.indexOf('--');
    if (dash >= 0) {
      const [command, ...args] = words.slice(dash + 1);
      out.push({ kind: 'stdio', from: line, command: command ?? '', args });
      continue;
    }
    const transport = words[words.indexOf('--transport') + 1];
    expect(transport, line).to.equal('http');
    const url = words.find((w) => /^https?:\/\//.test(w)) ?? '';
    const header = words[words.indexOf('--header') + 1] ?? '';
    const colon = header.indexOf(':');
    out.push({ kind: 'http', from: line, url, headers: { [header.slice(0, colon)]: header.slice(colon + 1).trim() } });
  }
  return out;
}

describe("mcp: the MCP guide's config snippets start and work as printed", function () {
  this.timeout(180_000);
  let h: Harness;
  let tokenDir: string;
  let shimDir: string;
  let servers: Server[];
  const env = () => ({
    // The configured command is looked up on this PATH, as the MCP client's own spawn does.
    PATH: `${shimDir}${path.delimiter}${process.env['PATH'] ?? ''}`,
    // Where this test's bridge is: what a person's default port and config dir are in real use.
    BROWSER_USE_EXT_BRIDGE_URL: h.bridge.agentUrl,
    BROWSER_USE_EXT_CONFIG_DIR: h.configDir,
  });

  before(async function () {
    this.timeout(120_000);
    if (!fs.existsSync(BUILT_CLI)) throw new Error(`${BUILT_CLI} is missing: run npm run build first`);
    servers = serversIn(mcpClientsSection(fs.readFileSync(path.join(REPO_ROOT, 'docs', 'guide-mcp.md'), 'utf8')));
    shimDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bux-path-'));
    const shim = path.join(shimDir, 'browser-use-ext');
    fs.writeFileSync(shim, `#!/bin/sh\nexec "${process.execPath}" "${BUILT_CLI}" "$@"\n`, { mode: 0o755 });
    tokenDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bux-readme-tokens-'));
    h = await startHarness({
      fixturesDir: path.join(REPO_ROOT, 'python-shim-spec', 'tests', 'fixtures', 'shop'),
      bridgeOptions: { mcpTokens: new McpTokenStore(tokenDir) },
    });
    await h.openPage(h.fixtures.url('/index.html'));
  });
  after(async () => {
    await h?.close();
    for (const d of [tokenDir, shimDir]) if (d) fs.rmSync(d, { recursive: true, force: true });
  });

  it('has a stdio and an HTTP form for Claude Code, Cursor and VS Code and a stdio form for Claude Desktop, all with the installed command', () => {
    const stdio = servers.filter((s): s is Stdio => s.kind === 'stdio');
    const http = servers.filter((s): s is Http => s.kind === 'http');
    expect(stdio.length, 'stdio: Claude Desktop, Claude Code, Cursor, VS Code').to.equal(4);
    expect(http.length, 'HTTP: Claude Code, Cursor, VS Code').to.equal(3);
    for (const s of stdio)
      expect({ command: s.command, args: s.args }, s.from).to.deep.equal({ command: 'browser-use-ext', args: ['mcp'] });
    for (const s of http) {
      expect(s.url, s.from).to.equal('http://127.0.0.1:8765/mcp');
      expect(s.headers, s.from).to.deep.equal({ Authorization: 'Bearer bux_mcp_...' });
    }
    // Printed commands are the installed ones.
    expect(mcpClientsSection(fs.readFileSync(path.join(REPO_ROOT, 'docs', 'guide-mcp.md'), 'utf8'))).not.to.match(
      /\bnpx\b|dist\/bridge\/cli\.js/,
    );
  });

  it('starts every stdio snippet exactly as configured (command on PATH), lists the tools and snapshots the page', async () => {
    for (const s of servers.filter((x): x is Stdio => x.kind === 'stdio')) {
      const client = new Client({ name: 'readme-stdio', version: '1' });
      await client.connect(new StdioClientTransport({ command: s.command, args: s.args, env: env(), stderr: 'ignore' }));
      try {
        const { tools } = await client.listTools();
        expect(tools.length, s.from).to.equal(22);
        const snap = await callTool(client, 'browser_snapshot');
        expect(snap.isError, `${s.from}: ${snap.text}`).to.equal(false);
        expect(snap.text, s.from).to.contain('Paper & Co. office shop');
      } finally {
        await client.close();
      }
    }
  });

  it('connects every HTTP snippet with a token from `browser-use-ext mcp-token add`, lists the tools and snapshots the page', async () => {
    for (const [i, s] of servers.filter((x): x is Http => x.kind === 'http').entries()) {
      const out = execFileSync('browser-use-ext', ['mcp-token', 'add', `readme-${i}`], {
        env: { ...process.env, ...env(), BROWSER_USE_EXT_CONFIG_DIR: tokenDir },
        encoding: 'utf8',
      });
      const token = /bux_mcp_[A-Za-z0-9_-]{43}/.exec(out)?.[0];
      expect(token, out).to.be.a('string');
      const url = new URL(s.url);
      url.port = String(h.bridge.port); // the snippet's 8765 is the default port; this bridge runs elsewhere
      const headers = Object.fromEntries(Object.entries(s.headers).map(([k, v]) => [k, v.replace('bux_mcp_...', token ?? '')]));
      const client = new Client({ name: 'readme-http', version: '1' });
      const transport = new StreamableHTTPClientTransport(url, { requestInit: { headers } });
      await client.connect(transport);
      try {
        expect((await client.listTools()).tools.length, s.from).to.equal(22);
        const snap = await callTool(client, 'browser_snapshot');
        expect(snap.isError, `${s.from}: ${snap.text}`).to.equal(false);
        expect(snap.text, s.from).to.contain('Paper & Co. office shop');
      } finally {
        // Ends the bridge session (its lease on the tab), as a client that quits does.
        await transport.terminateSession().catch(() => undefined);
        await client.close();
      }
    }
  });
});
