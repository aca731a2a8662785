// The MCP tools: each one runs one protocol action (or a few, for fill_form and tabs) through the
// client's own bridge session and answers with the settled outcome and the new snapshot.
// Names follow Playwright MCP's (browser_click, browser_snapshot, ...) so prompts written for it fit.
import type { ActionResultMessage, SimplifiedState, TabInfo } from '../../../schemas/generated/protocol';
import type { ActionName, ActionParams } from '../../../schemas/generated/registry';
import type { AgentClient } from '../../client/agent-client';
import { BridgeClientError } from '../../client/agent-client';
import { errorResult, outcomeLines, pageHeader, resultSummary, text, type ToolResult } from './format';
import { SnapshotMemory, subtreeState } from './snapshot-text';
import { buildInputSchema, type ToolSchemaSpec } from './tool-schemas';

type Args = Record<string, unknown>;
type SnapshotMode = 'full' | 'incremental' | 'none';

/** What a tool needs from its MCP session. */
export interface ToolContext {
  agent(): Promise<AgentClient>;
  memory: SnapshotMemory;
  /** Tabs this session holds, as far as results and tab_released tell (the bridge is the authority). */
  myTabs: Set<number>;
  /** A one-time note to prepend (e.g. the bridge started a new session). */
  takeNotice(): string | null;
}

export interface ToolDef {
  name: string;
  title: string;
  description: string;
  schema: ToolSchemaSpec;
  readOnly?: boolean;
  run(args: Args, ctx: ToolContext): Promise<ToolResult>;
}

const TARGET_HELP = 'Target: exactly one of element_id (a ref), role (+ name), selector.';
/** browser_use's [N] index target: our snapshot shows refs, never indices, so MCP tools leave it out
 * (one long property less in every element tool's definition, which each model request carries). */
const NOT_FOR_MCP = ['index'];

// --- running actions ------------------------------------------------------------------------------

/** The action message's timeout: the bridge default, or longer for a wait the caller asked to be long. */
function messageTimeout(params: Args): number | undefined {
  const asked = Math.max(Number(params['timeout_ms'] ?? 0) || 0, Number(params['ms'] ?? 0) || 0);
  return asked > 10_000 ? Math.min(asked + 5_000, 610_000) : undefined;
}

/** Runs one action; transport failures become an error action_result-like value. */
async function call(ctx: ToolContext, action: ActionName, params: Args, tabId: number | undefined): Promise<ActionResultMessage> {
  try {
    const agent = await ctx.agent();
    const timeoutMs = messageTimeout(params);
    const result = await agent.call(action, params as ActionParams<typeof action>, {
      ...(tabId === undefined ? {} : { tabId }),
      ...(timeoutMs === undefined ? {} : { timeoutMs }),
    });
    noteTabs(ctx, action, result);
    return result;
  } catch (e) {
    const err =
      e instanceof BridgeClientError
        ? e
        : new BridgeClientError(e instanceof Error ? e.message : String(e), 'COMMUNICATION_ERROR_WITH_TARGET');
    const message =
      err.code === 'INVALID_MESSAGE'
        ? `The arguments do not match the protocol schema: ${err.message}. Fix the named field and call the tool again.`
        : err.code === 'COMMUNICATION_ERROR_WITH_TARGET'
          ? `${err.message} Start the bridge (npx browser-use-ext bridge) and make sure the extension is paired, then call the tool again.`
          : err.message;
    return {
      type: 'action_result',
      original_action_id: 'mcp',
      action,
      status: 'error',
      outcome_details: null,
      new_simplified_state: null,
      error_info: { error_code: err.code as never, message, component_origin: 'client' },
    };
  }
}

/** Mirrors the bridge's lease rules closely enough to mark "yours" in browser_tabs list. */
function noteTabs(ctx: ToolContext, action: ActionName, r: ActionResultMessage): void {
  if (r.status !== 'success') {
    if (r.error_info?.error_code === 'TAB_NOT_FOUND' && typeof r.tab_id === 'number') ctx.myTabs.delete(r.tab_id);
    return;
  }
  const result = (r.outcome_details?.result ?? {}) as Record<string, unknown>;
  if (action === 'close_tab') {
    const closed = result['closed_tab_id'];
    if (typeof closed === 'number') {
      ctx.myTabs.delete(closed);
      ctx.memory.forgetTab(closed);
    }
    return;
  }
  if (action !== 'list_tabs' && typeof r.tab_id === 'number') ctx.myTabs.add(r.tab_id);
  if ((action === 'open_tab' || action === 'switch_tab') && typeof result['tab_id'] === 'number') ctx.myTabs.add(result['tab_id']);
  if (typeof r.outcome_details?.new_tab_id === 'number') ctx.myTabs.add(r.outcome_details.new_tab_id);
}

const splitArgs = (args: Args, mcpOnly: readonly string[]) => {
  const params: Args = {};
  for (const [k, v] of Object.entries(args)) if (!mcpOnly.includes(k) && v !== undefined) params[k] = v;
  const tabId = typeof args['tab_id'] === 'number' ? args['tab_id'] : undefined;
  return { params, tabId };
};

function snapshotBlock(
  ctx: ToolContext,
  state: SimplifiedState | null | undefined,
  tabId: number | undefined,
  mode: SnapshotMode,
  scope = '0',
): string[] {
  if (!state || mode === 'none') return state ? [pageHeader(state.tab_id ?? tabId, state.title, state.url)] : [];
  const tab = state.tab_id ?? tabId ?? -1;
  const r = ctx.memory.render(tab, scope, state, mode === 'incremental');
  return [pageHeader(tab, state.title, state.url), r.incremental ? 'Snapshot (changes):' : 'Snapshot:', r.text];
}

/** The common answer: outcome lines, optional result fields, page and snapshot; errors as tool errors. */
function answer(
  ctx: ToolContext,
  r: ActionResultMessage,
  opts: { mode: SnapshotMode; tabId?: number; showResult?: boolean; extra?: string[] },
): ToolResult {
  const notice = ctx.takeNotice();
  const state = r.new_simplified_state;
  if (r.status !== 'success') {
    const info = r.error_info ?? {
      error_code: 'EXTENSION_INTERNAL_ERROR',
      message: 'The action failed without an error description. Take a new snapshot and retry.',
    };
    const after = state ? ['', ...snapshotBlock(ctx, state, r.tab_id ?? opts.tabId, opts.mode === 'none' ? 'none' : 'full')] : [];
    const res = errorResult(info, after);
    if (notice) res.content.unshift(text(notice));
    return res;
  }
  const lines = outcomeLines(r.action ?? 'action', r.outcome_details, state?.url);
  const summary = opts.showResult ? resultSummary(r) : null;
  if (summary) lines.push(`Result: ${summary}`);
  if (opts.extra) lines.push(...opts.extra);
  lines.push(...snapshotBlock(ctx, state, r.tab_id ?? opts.tabId, opts.mode));
  return { content: [...(notice ? [text(notice)] : []), text(lines.join('\n'))] };
}

/** A tool that is exactly one action plus tab_id and the snapshot mode. */
function actionTool(
  name: string,
  action: ActionName,
  title: string,
  description: string,
  o: { omit?: string[]; showResult?: boolean } = {},
): ToolDef {
  return {
    name,
    title,
    description,
    schema: { from: [{ action, omit: [...NOT_FOR_MCP, ...(o.omit ?? [])] }], extras: ['tab_id', 'snapshot'] },
    async run(args, ctx) {
      const { params, tabId } = splitArgs(args, ['tab_id', 'snapshot']);
      const r = await call(ctx, action, params, tabId);
      return answer(ctx, r, {
        mode: (args['snapshot'] as SnapshotMode | undefined) ?? 'full',
        ...(tabId === undefined ? {} : { tabId }),
        showResult: o.showResult ?? false,
      });
    },
  };
}

// --- the catalogue --------------------------------------------------------------------------------

export const TOOLS: readonly ToolDef[] = [
  {
    name: 'browser_snapshot',
    title: 'Page snapshot',
    description:
      'Accessibility-tree text of the page with a [ref=...] on every element you can act on (pass it as element_id). ' +
      "Default: what is in the viewport; viewport_expansion -1 = the whole page. `ref` limits it to one element's subtree; `incremental` returns only what changed since your last snapshot of this tab.",
    readOnly: true,
    schema: {
      from: [{ action: 'get_state', omit: ['include_dom_tree', 'redact_card_and_otp', 'since'] }],
      extras: ['tab_id', 'ref', 'incremental'],
    },
    async run(args, ctx) {
      const { params, tabId } = splitArgs(args, ['tab_id', 'ref', 'incremental']);
      const ref = typeof args['ref'] === 'string' ? args['ref'] : undefined;
      // A subtree may lie outside the viewport: look at the whole page unless told otherwise.
      if (ref !== undefined && params['viewport_expansion'] === undefined) params['viewport_expansion'] = -1;
      const r = await call(ctx, 'get_state', params, tabId);
      if (r.status !== 'success' || !r.new_simplified_state)
        return answer(ctx, r, { mode: 'none', ...(tabId === undefined ? {} : { tabId }) });
      let state = r.new_simplified_state;
      const scope = `${String(params['viewport_expansion'] ?? 0)}${ref ? `#${ref}` : ''}`;
      if (ref !== undefined) {
        const cut = subtreeState(state, ref);
        if (!cut)
          return errorResult({
            error_code: 'TARGET_ELEMENT_NOT_FOUND',
            message: `No element with ref "${ref}" is on the page now (it was removed, or the ref is from another tab). Take a browser_snapshot without ref and use a ref from it.`,
            details: { ref, tab_id: r.tab_id },
          });
        state = cut;
      }
      const notice = ctx.takeNotice();
      const lines = snapshotBlock(ctx, state, r.tab_id ?? tabId, args['incremental'] === true ? 'incremental' : 'full', scope);
      if (r.outcome_details?.api_activity?.length)
        lines.push(`# network since the last state: ${r.outcome_details.api_activity.length} fetch/XHR call(s)`);
      return { content: [...(notice ? [text(notice)] : []), text(lines.join('\n'))] };
    },
  },
  actionTool(
    'browser_click',
    'click',
    'Click',
    `Click an element like a mouse (scrolls it into view, waits until it is visible, stable, enabled and not covered). ${TARGET_HELP}`,
  ),
  actionTool('browser_double_click', 'double_click', 'Double-click', `Double-click an element. ${TARGET_HELP}`),
  actionTool('browser_hover', 'hover', 'Hover', `Move the mouse over an element. ${TARGET_HELP}`),
  actionTool(
    'browser_type',
    'type',
    'Type text',
    `Type text key by key into an editable element at the caret (appends; use browser_fill to replace the value). ${TARGET_HELP}`,
  ),
  actionTool('browser_fill', 'fill', 'Fill a field', `Replace the value of an input, textarea or contenteditable element. ${TARGET_HELP}`),
  {
    name: 'browser_fill_form',
    title: 'Fill several fields',
    description:
      'Fill several fields in one call, in order (each item is a browser_fill: a target and its value). Stops at the first field that fails and names it.',
    schema: { from: [], extras: ['fields', 'tab_id', 'snapshot'], required: ['fields'] },
    async run(args, ctx) {
      const fields = Array.isArray(args['fields']) ? (args['fields'] as Args[]) : [];
      let tabId = typeof args['tab_id'] === 'number' ? args['tab_id'] : undefined;
      const mode = (args['snapshot'] as SnapshotMode | undefined) ?? 'full';
      const done: string[] = [];
      let last: ActionResultMessage | null = null;
      for (const [i, field] of fields.entries()) {
        const r = await call(ctx, 'fill', field, tabId);
        if (r.status !== 'success') {
          const res = answer(ctx, r, { mode, ...(tabId === undefined ? {} : { tabId }) });
          const first = res.content[0];
          if (first?.type === 'text')
            first.text = `Field ${i + 1} of ${fields.length} failed (${done.length} filled before it).\n${first.text}`;
          return res;
        }
        tabId ??= r.tab_id;
        done.push(String(field['element_id'] ?? field['name'] ?? field['selector'] ?? field['index'] ?? i + 1));
        last = r;
      }
      if (!last) return errorResult({ error_code: 'INVALID_MESSAGE', message: 'fields is empty: pass at least one {target, value}.' });
      return answer(
        ctx,
        { ...last, outcome_details: { ...(last.outcome_details ?? {}), message: `Filled ${done.length} field(s): ${done.join(', ')}.` } },
        { mode, ...(tabId === undefined ? {} : { tabId }) },
      );
    },
  },
  actionTool(
    'browser_press_key',
    'press',
    'Press a key',
    'Press a key or chord (Playwright syntax: "Enter", "Control+A", "Shift+Tab"), on an element when a target is given, else on the focused element.',
  ),
  actionTool(
    'browser_select_option',
    'select_option',
    'Select an option',
    `Select options of a <select> (or ARIA listbox) by value or by label. ${TARGET_HELP}`,
    { showResult: true },
  ),
  actionTool('browser_check', 'check', 'Check', `Check a checkbox or radio button (no change when it is checked already). ${TARGET_HELP}`),
  actionTool('browser_uncheck', 'uncheck', 'Uncheck', `Uncheck a checkbox (no change when it is unchecked already). ${TARGET_HELP}`),
  actionTool(
    'browser_drag',
    'drag_and_drop',
    'Drag and drop',
    `Drag an element (or from_point) onto another element ("to", a target) or to_point; HTML5 drag-and-drop and pointer-driven drags both work. ${TARGET_HELP}`,
    { showResult: true },
  ),
  actionTool(
    'browser_scroll',
    'scroll',
    'Scroll',
    'Scroll the page, or a scrollable element when a target is given, by amount pixels or pages in a direction.',
    { showResult: true },
  ),
  actionTool('browser_navigate', 'navigate', 'Navigate', 'Load a URL in the tab and wait for it to load.'),
  actionTool('browser_navigate_back', 'go_back', 'Back', "Go back in the tab's history."),
  actionTool('browser_navigate_forward', 'go_forward', 'Forward', "Go forward in the tab's history."),
  actionTool('browser_reload', 'reload', 'Reload', 'Reload the tab.'),
  {
    name: 'browser_tabs',
    title: 'Tabs',
    description:
      "list: every tab of the browser, marking yours and the current one; new: open a tab of your own (url optional); select: make one of your tabs current; close: close one of your tabs. Other clients' tabs cannot be used (TAB_NOT_LEASED).",
    schema: { from: [{ action: 'open_tab', pick: ['url'] }], extras: ['tabs_action', 'tab_id', 'snapshot'], required: ['tabs_action'] },
    async run(args, ctx) {
      const what = args['action'];
      const mode = (args['snapshot'] as SnapshotMode | undefined) ?? 'full';
      const tabId = typeof args['tab_id'] === 'number' ? args['tab_id'] : undefined;
      if (what === 'list') {
        const r = await call(ctx, 'list_tabs', {}, undefined);
        if (r.status !== 'success') return answer(ctx, r, { mode: 'none' });
        const tabs = ((r.outcome_details?.result ?? {}) as { tabs?: TabInfo[] }).tabs ?? [];
        const lines = tabs.map(
          (t) =>
            `- tab ${t.tab_id}${ctx.myTabs.has(t.tab_id) ? ' [yours]' : ''}${t.active ? ' [active in its window]' : ''}: ${t.title || '(untitled)'} — ${t.url}`,
        );
        return {
          content: [text([`${tabs.length} tab(s); act only on tabs marked [yours], or open one with action "new".`, ...lines].join('\n'))],
        };
      }
      if (what === 'new') {
        const params: Args = typeof args['url'] === 'string' ? { url: args['url'] } : {};
        return answer(ctx, await call(ctx, 'open_tab', params, undefined), { mode, showResult: true });
      }
      if (what === 'select') {
        if (tabId === undefined)
          return errorResult({
            error_code: 'INVALID_MESSAGE',
            message: 'action "select" needs tab_id: one of your tabs from browser_tabs list.',
          });
        return answer(ctx, await call(ctx, 'switch_tab', { tab_id: tabId }, tabId), { mode, tabId });
      }
      if (what === 'close') {
        const r = await call(ctx, 'close_tab', tabId === undefined ? {} : { tab_id: tabId }, tabId);
        return answer(ctx, r, { mode: 'none', showResult: true });
      }
      return errorResult({
        error_code: 'INVALID_MESSAGE',
        message: `Unknown action ${JSON.stringify(what)}: use list, new, select or close.`,
      });
    },
  },
  {
    name: 'browser_wait_for',
    title: 'Wait',
    description:
      'Wait for one thing: text to appear (text; state "hidden" = to disappear) or an element (a target), a time (ms), or the network to go idle (network_idle: true, idle_ms). Fails with TIMEOUT after timeout_ms.',
    schema: {
      from: [
        { action: 'wait_for', omit: NOT_FOR_MCP },
        { action: 'wait', keepRequired: false },
        { action: 'wait_for_network_idle', pick: ['idle_ms'] },
      ],
      extras: ['network_idle', 'tab_id', 'snapshot'],
    },
    async run(args, ctx) {
      const { params, tabId } = splitArgs(args, ['tab_id', 'snapshot', 'network_idle', 'ms', 'idle_ms']);
      const mode = (args['snapshot'] as SnapshotMode | undefined) ?? 'full';
      const o = { mode, ...(tabId === undefined ? {} : { tabId }), showResult: true };
      if (args['network_idle'] === true) {
        const p: Args = {};
        if (args['idle_ms'] !== undefined) p['idle_ms'] = args['idle_ms'];
        if (args['timeout_ms'] !== undefined) p['timeout_ms'] = args['timeout_ms'];
        return answer(ctx, await call(ctx, 'wait_for_network_idle', p, tabId), o);
      }
      if (args['ms'] !== undefined && Object.keys(params).length === 0)
        return answer(ctx, await call(ctx, 'wait', { ms: args['ms'] }, tabId), o);
      if (args['ms'] !== undefined)
        return errorResult({
          error_code: 'INVALID_MESSAGE',
          message: 'Wait for one thing at a time: ms alone, or text/a target (with state, timeout_ms), or network_idle.',
        });
      return answer(ctx, await call(ctx, 'wait_for', params, tabId), o);
    },
  },
  {
    name: 'browser_take_screenshot',
    title: 'Screenshot',
    description: 'PNG screenshot of the visible part of the tab (image content).',
    readOnly: true,
    schema: { from: [{ action: 'screenshot' }], extras: ['tab_id'] },
    async run(args, ctx) {
      const { tabId } = splitArgs(args, ['tab_id']);
      const r = await call(ctx, 'screenshot', {}, tabId);
      if (r.status !== 'success') return answer(ctx, r, { mode: 'none' });
      const shot = (r.outcome_details?.result ?? {}) as { data_base64?: string; width?: number; height?: number };
      if (!shot.data_base64)
        return errorResult({
          error_code: 'EXTENSION_INTERNAL_ERROR',
          message: 'The screenshot came back empty. Retry; report the bug if it repeats.',
        });
      const state = r.new_simplified_state;
      const header = state ? pageHeader(state.tab_id ?? r.tab_id, state.title, state.url) : `Tab ${r.tab_id ?? '?'}`;
      return {
        content: [
          text(`${header}\nScreenshot ${shot.width ?? '?'}x${shot.height ?? '?'} px:`),
          { type: 'image', data: shot.data_base64, mimeType: 'image/png' },
        ],
      };
    },
  },
  {
    name: 'browser_extract_text',
    title: 'Page text',
    description: 'The readable text of the page (every frame), as markdown-ish text with links.',
    readOnly: true,
    schema: { from: [{ action: 'extract_content' }], extras: ['tab_id'] },
    async run(args, ctx) {
      const { params, tabId } = splitArgs(args, ['tab_id']);
      const r = await call(ctx, 'extract_content', params, tabId);
      if (r.status !== 'success') return answer(ctx, r, { mode: 'none' });
      const res = (r.outcome_details?.result ?? {}) as { text?: string; truncated?: boolean; frames?: number };
      const state = r.new_simplified_state;
      const header = state ? pageHeader(state.tab_id ?? r.tab_id, state.title, state.url) : `Tab ${r.tab_id ?? '?'}`;
      return { content: [text(`${header}\n${res.truncated ? '(cut at max_chars)\n' : ''}${res.text ?? ''}`)] };
    },
  },
  actionTool(
    'browser_evaluate',
    'evaluate',
    'Evaluate JavaScript',
    "Evaluate a JavaScript expression in the page and return its JSON value. Works only when the person allowed it in the extension's Options (otherwise NOT_PERMITTED).",
    { showResult: true },
  ),
];

export const TOOL_BY_NAME = new Map(TOOLS.map((t) => [t.name, t]));

/** The tools/list entries. */
export function listTools(): {
  name: string;
  title: string;
  description: string;
  inputSchema: { type: 'object'; [k: string]: unknown };
  annotations: Record<string, unknown>;
}[] {
  return TOOLS.map((t) => ({
    name: t.name,
    title: t.title,
    description: t.description,
    inputSchema: buildInputSchema(t.schema),
    annotations: { title: t.title, readOnlyHint: t.readOnly === true, openWorldHint: true },
  }));
}
