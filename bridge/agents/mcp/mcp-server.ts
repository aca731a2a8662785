// One MCP server instance = one MCP client = one bridge agent session (BridgeLink). Built on the
// official SDK's low-level Server so the tools' JSON Schemas go out exactly as derived from
// schemas/ (tool-schemas.ts); the high-level McpServer wants zod schemas instead.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

import type { TabReleasedMessage } from '../../../schemas/generated/protocol';
import { BRIDGE_VERSION } from '../../common/version';
import { BridgeLink, type BridgeLinkOptions } from './bridge-link';
import { errorResult, type ToolResult } from './format';
import { SnapshotMemory } from './snapshot-text';
import { listTools, runTool, TOOL_BY_NAME, type ToolContext } from './tools';

export const MCP_SERVER_NAME = 'browser-use-ext';

const INSTRUCTIONS =
  "These tools drive the person's own Chrome through the browser-use-ext extension. Start with browser_snapshot: every element you can act on has a [ref=...]. " +
  'Element tools take one target: `ref` (e.g. "e12"), or `role` + `name` (substring unless exact), or a CSS `selector`; `element` describes it in words. ' +
  "Playwright MCP's argument names work too (target, startTarget/endTarget, doubleClick, submit, time, textGone, function, index). " +
  'You work only in your own tabs (the first is the tab that was active when you started, if no other client holds it; open more with browser_tabs new); `tab_id` picks one. ' +
  'Each action waits until the page settled and returns the outcome (navigation, new tab, dialog, change or no change) and the new snapshot (`snapshot`: full, incremental = only what changed, none). ' +
  'force skips the actionability checks; timeout_ms bounds the wait for them. Errors carry a code and what to do next. ' +
  "JavaScript dialogs never block: the extension answers them by the person's policy and the outcome reports them.";

export interface McpSession {
  server: Server;
  link: BridgeLink;
  close(): Promise<void>;
}

export interface McpSessionOptions extends BridgeLinkOptions {
  /** Appended to the client name in hello.client (e.g. the HTTP token's name). */
  clientSuffix?: string;
}

export function createMcpSession(opts: McpSessionOptions): McpSession {
  const link = new BridgeLink(opts);
  const server = new Server(
    { name: MCP_SERVER_NAME, version: BRIDGE_VERSION },
    { capabilities: { tools: {} }, instructions: INSTRUCTIONS },
  );
  const memory = new SnapshotMemory();
  const myTabs = new Set<number>();
  link.onTabReleased = (m: TabReleasedMessage) => {
    myTabs.delete(m.tab_id);
    memory.forgetTab(m.tab_id);
  };
  link.onNewSession = () => myTabs.clear();
  server.oninitialized = () => {
    const info = server.getClientVersion();
    link.setClientInfo(info?.name, info?.version, opts.clientSuffix ?? '');
  };
  const ctx: ToolContext = {
    agent: () => link.agent(),
    memory,
    myTabs,
    takeNotice() {
      const n = link.notice;
      link.notice = null;
      return n;
    },
  };
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listTools() }));
  server.setRequestHandler(CallToolRequestSchema, async (req): Promise<ToolResult> => {
    const tool = TOOL_BY_NAME.get(req.params.name);
    if (!tool)
      return errorResult({
        error_code: 'UNSUPPORTED_ACTION',
        message: `No tool "${req.params.name}". Call tools/list for the tools this server has.`,
      });
    const args = (req.params.arguments ?? {}) as Record<string, unknown>;
    try {
      return await runTool(tool, args, ctx);
    } catch (e) {
      // A bug here must not take the MCP connection down; the client gets a tool error instead.
      return errorResult({
        error_code: 'EXTENSION_INTERNAL_ERROR',
        message: `The MCP server failed while running ${tool.name}: ${e instanceof Error ? e.message : String(e)}. Take a new browser_snapshot and retry; report the bug if it repeats.`,
      });
    }
  });
  return {
    server,
    link,
    async close() {
      await link.close();
      await server.close().catch(() => undefined);
    },
  };
}
