// Seed 002's open_tool: a saved tool's name -> its URL, then exactly open_tab in the background.
import type { OpenToolParams } from '../../../../schemas/generated/protocol';
import { errorInfo } from '../../../../schemas/lib/errors';
import { openTab } from './open_tab';
import { findTool, readSavedTools } from './saved-tools';
import { type WorkerContext, type WorkerOutcome, WS } from './types';

export async function openTool(ctx: WorkerContext, params: OpenToolParams): Promise<WorkerOutcome> {
  const tools = await readSavedTools();
  const tool = findTool(tools, params.name);
  if (!tool) {
    const available = tools.map((t) => `"${t.name}"`).join(', ');
    // Seed 002's wording: Tool "Outlook" not found. Available tools: "Gmail", "Google Docs"
    const message = tools.length
      ? `Tool "${params.name}" not found. Available tools: ${available}`
      : `Tool "${params.name}" not found. Available tools: none (the person has saved no tools; use open_tab with the URL).`;
    return {
      ok: false,
      error: errorInfo('TARGET_ELEMENT_NOT_FOUND', message, WS, { available: tools.map((t) => t.name) }),
      stateTabId: null,
    };
  }
  const opened = await openTab(ctx, {
    url: tool.url,
    active: false,
    ...(params.timeout_ms === undefined ? {} : { timeout_ms: params.timeout_ms }),
  });
  if (!opened.ok) return opened;
  return {
    ...opened,
    message: `Opened tool "${tool.name}" (${tool.url}) in background tab ${String(opened.result['tab_id'])}.`,
    // Seed 002's open_tool result names the tab, the tool and its URL, nothing more (its schema is closed).
    result: { tab_id: opened.result['tab_id'], name: tool.name, url: tool.url },
  };
}
