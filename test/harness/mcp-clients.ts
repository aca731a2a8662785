// MCP clients for tests and benchmarks, built on the official SDK client: one over stdio (spawning
// the built CLI `dist/bridge/cli.js mcp`, exactly what an MCP client config runs) and one over
// Streamable HTTP to the bridge's /mcp with a bearer token.
import path from 'node:path';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

import { REPO_ROOT } from './browser';

export const BUILT_CLI = path.join(REPO_ROOT, 'dist', 'bridge', 'cli.js');

export interface ToolText {
  text: string;
  isError: boolean;
  images: { data: string; mimeType: string }[];
}

/** Calls a tool and flattens its content: all text parts joined, images apart. */
export async function callTool(client: Client, name: string, args: Record<string, unknown> = {}): Promise<ToolText> {
  const r = await client.callTool({ name, arguments: args });
  const content = (r.content ?? []) as { type: string; text?: string; data?: string; mimeType?: string }[];
  return {
    text: content
      .filter((c) => c.type === 'text')
      .map((c) => c.text ?? '')
      .join('\n'),
    isError: r.isError === true,
    images: content.filter((c) => c.type === 'image').map((c) => ({ data: c.data ?? '', mimeType: c.mimeType ?? '' })),
  };
}

/** `browser`: `mcp --browser NAME`, the browser its agent works in. */
export async function connectStdioClient(opts: { agentUrl: string; agentSecret: string; name: string; browser?: string }): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BUILT_CLI, 'mcp', '--bridge-url', opts.agentUrl, ...(opts.browser === undefined ? [] : ['--browser', opts.browser])],
    env: {
      PATH: process.env['PATH'] ?? '',
      BROWSER_USE_EXT_AGENT_SECRET: opts.agentSecret,
      BROWSER_USE_EXT_CONFIG_DIR: '/nonexistent-bux-config',
    },
    stderr: 'pipe',
  });
  const client = new Client({ name: opts.name, version: '1.0.0' });
  await client.connect(transport);
  return client;
}

export async function connectHttpClient(opts: { port: number; token: string; name: string; host?: string }): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(`http://${opts.host ?? '127.0.0.1'}:${opts.port}/mcp`), {
    requestInit: { headers: { Authorization: `Bearer ${opts.token}` } },
  });
  const client = new Client({ name: opts.name, version: '1.0.0' });
  await client.connect(transport);
  return client;
}
