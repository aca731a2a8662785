// The MCP tools: each one runs one protocol action (or a few, for fill_form and tabs) through the
// client's own bridge session and answers with the settled outcome and the new snapshot.
// Names follow Playwright MCP's (browser_click, browser_snapshot, ...) so prompts written for it fit.
import type { ActionResultMessage, SimplifiedState, TabInfo } from '../../../schemas/generated/protocol';
import { ACTION_VALIDATORS, type ActionName, type ActionParams } from '../../../schemas/generated/registry';
import type { AgentClient } from '../../client/agent-client';
import { BridgeClientError } from '../../client/agent-client';
import { cli } from '../../common/cli-invocation';
import { checkAgainst, describeProtocolErrors } from './arg-errors';
import { dropdownLookup } from './dropdown-options';
import { errorResult, outcomeLines, pageHeader, resultSummary, text, type ToolResult } from './format';
import { SnapshotMemory, subtreeState } from './snapshot-text';
import { type CallNotes, normalizeArgs, toProtocol } from './tool-args';
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
  /** Element tools: the element is required, optional (press, scroll, wait), or a drag's source. */
  target?: 'required' | 'optional' | 'drag';
  run(args: Args, ctx: ToolContext, notes: CallNotes): Promise<ToolResult>;
}

/** How to name an element, for argument errors. */
export const TARGET_HELP = '`ref` (the ref of the element from the last snapshot, e.g. e12), or `role` (+ `name`), or `selector`';
/** Element tools take the element in words too (Playwright MCP's `element`). */
const ELEMENT = ['element'];

// --- running actions ------------------------------------------------------------------------------

/** The action message's timeout: the bridge default, or longer for a wait the caller asked to be long. */
function messageTimeout(params: Args): number | undefined {
  const asked = Math.max(Number(params['timeout_ms'] ?? 0) || 0, Number(params['ms'] ?? 0) || 0);
  return asked > 10_000 ? Math.min(asked + 5_000, 610_000) : undefined;
}

/** An error action_result-like value made here, before or instead of the bridge's answer. */
function clientError(action: ActionName, code: string, message: string): ActionResultMessage {
  return {
    type: 'action_result',
    original_action_id: 'mcp',
    action,
    status: 'error',
    outcome_details: null,
    new_simplified_state: null,
    error_info: { error_code: code as never, message, component_origin: 'client' },
  };
}

/** What the person does when the MCP server cannot reach the bridge (one message, no second guess). */
export function bridgeDownMessage(url: string): string {
  return (
    `Cannot reach the browser-use-ext bridge at ${url}: it is not running, or runs on another port. ` +
    `Ask the person to start it (${cli('bridge')}) with the extension paired, then call the tool again.`
  );
}

/**
 * Runs one action with our arguments (ref, element); transport failures become an error
 * action_result-like value. The protocol schema is checked here first, so a bound the listed schema
 * leaves out (a length, the exactly-one-target rule) comes back in words naming the argument.
 */
/** The result's state with each closed dropdown's options on its line (dropdown-options.ts), for every snapshot alike. */
async function withDropdownOptions(ctx: ToolContext, agent: AgentClient, r: ActionResultMessage): Promise<ActionResultMessage> {
  const state = r.new_simplified_state;
  const tab = state?.tab_id ?? r.tab_id;
  if (r.status !== 'success' || !state || tab === undefined || tab === null) return r;
  return { ...r, new_simplified_state: await ctx.memory.dropdowns.fold(state, tab, dropdownLookup(agent, tab)) };
}

async function call(ctx: ToolContext, action: ActionName, args: Args, tabId: number | undefined): Promise<ActionResultMessage> {
  const params = toProtocol(args);
  const validate = ACTION_VALIDATORS[action].params;
  if (!validate(params)) return clientError(action, 'INVALID_MESSAGE', `${describeProtocolErrors(validate.errors, TARGET_HELP)}.`);
  try {
    const agent = await ctx.agent();
    const timeoutMs = messageTimeout(params);
    const result = await agent.call(action, params as ActionParams<typeof action>, {
      ...(tabId === undefined ? {} : { tabId }),
      ...(timeoutMs === undefined ? {} : { timeoutMs }),
    });
    noteTabs(ctx, action, result);
    return await withDropdownOptions(ctx, agent, result);
  } catch (e) {
    const err =
      e instanceof BridgeClientError
        ? e
        : new BridgeClientError(e instanceof Error ? e.message : String(e), 'COMMUNICATION_ERROR_WITH_TARGET');
    // AgentClient says "cannot connect to the bridge at URL: <cause>" when the socket never opened.
    const down = /^cannot connect to the bridge at (\S+):/.exec(err.message);
    const message = down?.[1] ? bridgeDownMessage(down[1]) : err.message;
    return clientError(action, err.code, message);
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
  // `element` is the element in words (Playwright MCP's): for errors, never sent to the page.
  mcpOnly = [...mcpOnly, 'element'];
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
  o: { omit?: string[]; showResult?: boolean; target?: ToolDef['target'] } = {},
): ToolDef {
  return {
    name,
    title,
    description,
    ...(o.target ? { target: o.target } : {}),
    schema: { from: [{ action, ...(o.omit ? { omit: o.omit } : {}) }], extras: [...(o.target ? ELEMENT : []), 'tab_id', 'snapshot'] },
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

/** One browser_fill_form field as the action that sets it (Playwright MCP's field types). */
function fieldAction(field: Args): { action: ActionName; params: Args } | string {
  const { type, value, ...rest } = field;
  if (type === undefined || type === 'textbox' || type === 'slider') return { action: 'fill', params: { ...rest, value } };
  if (type === 'checkbox' || type === 'radio') {
    if (value !== 'true' && value !== 'false')
      return `a ${type} field's \`value\` must be "true" or "false" (got ${JSON.stringify(value)})`;
    return { action: value === 'true' ? 'check' : 'uncheck', params: rest };
  }
  return { action: 'select_option', params: { ...rest, values: [value] } };
}

// --- the catalogue --------------------------------------------------------------------------------
// Descriptions are short on purpose: every definition is in the model's context on every request
// (tools/list budget: test/mcp/tool-schemas.spec.ts). What all tools share (refs, one target, the
// snapshot parameter, tab ownership) is said once, in the server's instructions (mcp-server.ts).

export const TOOLS: readonly ToolDef[] = [
  {
    name: 'browser_snapshot',
    title: 'Page snapshot',
    description:
      'Accessibility tree of the page with [ref=...] on each element you can act on; pass the ref as `ref` to element tools. ' +
      'Default: the viewport. ref: one subtree; incremental: only changes since your last snapshot.',
    readOnly: true,
    schema: {
      from: [
        {
          action: 'get_state',
          omit: [
            'include_dom_tree',
            'dom_tree_flavor',
            'highlight_elements',
            'include_tabs',
            'include_screenshot',
            'redact_card_and_otp',
            'since',
            // Pushes reach an agent session over /agent; an MCP client has no way to receive them.
            'watch',
          ],
        },
      ],
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
  actionTool('browser_click', 'click', 'Click', 'Click an element (waits until it is visible, stable, enabled and not covered).', {
    target: 'required',
  }),
  actionTool('browser_double_click', 'double_click', 'Double-click', 'Double-click an element.', { target: 'required' }),
  actionTool('browser_hover', 'hover', 'Hover', 'Move the mouse over an element.', { target: 'required' }),
  actionTool('browser_type', 'type', 'Type text', 'Type text key by key at the end of the value (browser_fill replaces it).', {
    target: 'required',
  }),
  actionTool('browser_fill', 'fill', 'Fill a field', 'Replace the value of an input, textarea or contenteditable.', { target: 'required' }),
  {
    name: 'browser_fill_form',
    title: 'Fill several fields',
    description: 'Fill several fields in order: text, checkbox, radio, select (type).',
    schema: { from: [], extras: ['fields', 'tab_id', 'snapshot'], required: ['fields'] },
    async run(args, ctx) {
      const fields = Array.isArray(args['fields']) ? (args['fields'] as Args[]) : [];
      let tabId = typeof args['tab_id'] === 'number' ? args['tab_id'] : undefined;
      const mode = (args['snapshot'] as SnapshotMode | undefined) ?? 'full';
      const done: string[] = [];
      let last: ActionResultMessage | null = null;
      for (const [i, field] of fields.entries()) {
        const label = String(field['element'] ?? field['ref'] ?? field['name'] ?? field['selector'] ?? i + 1);
        const step = fieldAction(field);
        const r =
          typeof step === 'string'
            ? clientError('fill', 'INVALID_MESSAGE', `browser_fill_form: ${step}.`)
            : await call(ctx, step.action, step.params, tabId);
        if (r.status !== 'success') {
          const res = answer(ctx, r, { mode, ...(tabId === undefined ? {} : { tabId }) });
          const first = res.content[0];
          if (first?.type === 'text')
            first.text = first.text.replace(
              /^Error (\S+): /,
              `Error $1: field ${i + 1} of ${fields.length} (${label}) failed, ${done.length} filled before it: `,
            );
          return res;
        }
        tabId ??= r.tab_id;
        done.push(label);
        last = r;
      }
      if (!last)
        return errorResult({ error_code: 'INVALID_MESSAGE', message: 'browser_fill_form: `fields` is empty: pass at least one field.' });
      return answer(
        ctx,
        { ...last, outcome_details: { ...(last.outcome_details ?? {}), message: `Filled ${done.length} field(s): ${done.join(', ')}.` } },
        { mode, ...(tabId === undefined ? {} : { tabId }) },
      );
    },
  },
  actionTool('browser_press_key', 'press', 'Press a key', 'Press a key on the element, or on the focused one.', { target: 'optional' }),
  actionTool('browser_select_option', 'select_option', 'Select an option', 'Select options of a <select> or listbox.', {
    showResult: true,
    target: 'required',
  }),
  actionTool('browser_check', 'check', 'Check', 'Check a checkbox or radio button.', { target: 'required' }),
  actionTool('browser_uncheck', 'uncheck', 'Uncheck', 'Uncheck a checkbox.', { target: 'required' }),
  actionTool('browser_drag', 'drag_and_drop', 'Drag and drop', 'Drag an element (or from_point) onto `to` or to_point.', {
    showResult: true,
    target: 'drag',
  }),
  actionTool('browser_scroll', 'scroll', 'Scroll', 'Scroll the page, or the element.', { showResult: true, target: 'optional' }),
  actionTool('browser_navigate', 'navigate', 'Navigate', 'Load a URL and wait for it.'),
  actionTool('browser_navigate_back', 'go_back', 'Back', 'Go back in history.'),
  actionTool('browser_navigate_forward', 'go_forward', 'Forward', 'Go forward in history.'),
  actionTool('browser_reload', 'reload', 'Reload', 'Reload the tab.'),
  {
    name: 'browser_tabs',
    title: 'Tabs',
    description: "List, open, select or close tabs. You may use only your own tabs; others' answer TAB_NOT_LEASED.",
    schema: { from: [{ action: 'open_tab', pick: ['url'] }], extras: ['tabs_action', 'tab_id', 'snapshot'], required: ['tabs_action'] },
    async run(args, ctx, notes) {
      const what = args['action'];
      const mode = (args['snapshot'] as SnapshotMode | undefined) ?? 'full';
      let tabId = typeof args['tab_id'] === 'number' ? args['tab_id'] : undefined;
      const listed = async (): Promise<{ tabs: TabInfo[] } | ActionResultMessage> => {
        const r = await call(ctx, 'list_tabs', {}, undefined);
        if (r.status !== 'success') return r;
        return { tabs: ((r.outcome_details?.result ?? {}) as { tabs?: TabInfo[] }).tabs ?? [] };
      };
      if (what === 'list') {
        const l = await listed();
        if (!('tabs' in l)) return answer(ctx, l, { mode: 'none' });
        const lines = l.tabs.map(
          (t, i) =>
            `- [${i}] tab ${t.tab_id}${ctx.myTabs.has(t.tab_id) ? ' [yours]' : ''}${t.active ? ' [active in its window]' : ''}: ${t.title || '(untitled)'} — ${t.url}`,
        );
        return {
          content: [
            text([`${l.tabs.length} tab(s); act only on tabs marked [yours], or open one with action "new".`, ...lines].join('\n')),
          ],
        };
      }
      if (what === 'new') {
        const params: Args = typeof args['url'] === 'string' ? { url: args['url'] } : {};
        return answer(ctx, await call(ctx, 'open_tab', params, undefined), { mode, showResult: true });
      }
      if (notes.tabIndex !== undefined) {
        // Playwright MCP names a tab by its position in the list.
        const l = await listed();
        if (!('tabs' in l)) return answer(ctx, l, { mode: 'none' });
        const t = l.tabs[notes.tabIndex];
        if (!t)
          return errorResult({
            error_code: 'TAB_NOT_FOUND',
            message: `browser_tabs: there is no tab at index ${notes.tabIndex} (${l.tabs.length} tab(s)); call browser_tabs list and use an index or tab_id from it.`,
          });
        tabId = t.tab_id;
      }
      if (what === 'select') {
        if (tabId === undefined)
          return errorResult({
            error_code: 'INVALID_MESSAGE',
            message: 'browser_tabs: `tab_id` is required for select (one of your tabs, from browser_tabs list).',
          });
        return answer(ctx, await call(ctx, 'switch_tab', { tab_id: tabId }, tabId), { mode, tabId });
      }
      const r = await call(ctx, 'close_tab', tabId === undefined ? {} : { tab_id: tabId }, tabId);
      return answer(ctx, r, { mode: 'none', showResult: true });
    },
  },
  {
    name: 'browser_wait_for',
    title: 'Wait',
    description: 'Wait for one thing: text, an element (state), ms, or network_idle. TIMEOUT after timeout_ms.',
    target: 'optional',
    schema: {
      from: [{ action: 'wait_for' }, { action: 'wait', keepRequired: false }, { action: 'wait_for_network_idle', pick: ['idle_ms'] }],
      extras: ['network_idle', ...ELEMENT, 'tab_id', 'snapshot'],
    },
    async run(args, ctx) {
      const { params, tabId } = splitArgs(args, ['tab_id', 'snapshot', 'network_idle', 'ms', 'idle_ms', 'element']);
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
          message:
            'browser_wait_for: wait for one thing at a time: `ms` alone, or `text` or an element (with `state`, `timeout_ms`), or `network_idle`.',
        });
      if (Object.keys(params).filter((k) => k !== 'timeout_ms' && k !== 'state').length === 0)
        return errorResult({
          error_code: 'INVALID_MESSAGE',
          message:
            'browser_wait_for: say what to wait for: `text`, an element (`ref`, `role` or `selector`), `ms`, or `network_idle: true`.',
        });
      return answer(ctx, await call(ctx, 'wait_for', params, tabId), o);
    },
  },
  {
    name: 'browser_take_screenshot',
    title: 'Screenshot',
    description: 'PNG of the visible part of the tab.',
    readOnly: true,
    schema: { from: [{ action: 'screenshot', omit: ['highlight_elements'] }], extras: ['tab_id'] },
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
    description: 'Readable text of the page and its frames, links as markdown.',
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
    "Evaluate a JavaScript expression in the page; returns its JSON value. Only if the person allowed it in the extension's Options.",
    { showResult: true },
  ),
];

export const TOOL_BY_NAME = new Map(TOOLS.map((t) => [t.name, t]));

const schemaCache = new Map<string, { type: 'object'; [k: string]: unknown }>();
/** A tool's listed inputSchema (what tools/list sends; built once). */
export function inputSchemaOf(tool: ToolDef): { type: 'object'; [k: string]: unknown } {
  let s = schemaCache.get(tool.name);
  if (!s) {
    s = buildInputSchema(tool.schema, tool.name);
    schemaCache.set(tool.name, s);
  }
  return s;
}

/** The tools/list entries. Annotations say only what differs from MCP's defaults (not read-only, open world). */
export function listTools(): {
  name: string;
  title: string;
  description: string;
  inputSchema: { type: 'object'; [k: string]: unknown };
  annotations?: Record<string, unknown>;
}[] {
  return TOOLS.map((t) => ({
    name: t.name,
    title: t.title,
    description: t.description,
    inputSchema: inputSchemaOf(t),
    ...(t.readOnly ? { annotations: { readOnlyHint: true } } : {}),
  }));
}

const TARGETS = ['ref', 'role', 'selector'] as const;
const named = (keys: readonly string[]) => keys.map((k) => `\`${k}\``).join(' and ');

/** The exactly-one-target rule, in words (the listed schema leaves it out: see tool-schemas.ts). */
function targetProblem(tool: ToolDef, a: Args): string | null {
  const one = (t: Args, what: string, required: boolean, alt = ''): string | null => {
    if (t['target'] !== undefined)
      return `give the ${what} once: \`target\` and ${named(TARGETS.filter((k) => t[k] !== undefined))} both name it`;
    const given = TARGETS.filter((k) => t[k] !== undefined);
    if (given.length > 1) return `give the ${what} once, not ${named(given)}`;
    if (given.length === 0 && required)
      return `\`ref\` is required (the ref of the ${what} from the last snapshot, e.g. e12; or \`role\` + \`name\`, or \`selector\`${alt})`;
    return null;
  };
  if (tool.target === 'required' || tool.target === 'optional') return one(a, 'element', tool.target === 'required');
  if (tool.target === 'drag') {
    const src = one(a, 'element to drag', a['from_point'] === undefined, ', or `from_point`');
    if (src) return src;
    if (typeof a['to'] === 'object' && a['to'] !== null) {
      const to = one(a['to'] as Args, 'drop target', true);
      return to === null ? null : to.replace(/`(ref|role|name|selector|target)`/g, '`to.$1`');
    }
    if (a['to_point'] === undefined)
      return '`to` is required (the drop target: `{"ref": "e12"}`, or role + name, or selector; or `to_point`)';
  }
  if (tool.name === 'browser_fill_form' && Array.isArray(a['fields']))
    for (const [i, f] of a['fields'].entries()) {
      if (typeof f !== 'object' || f === null) continue;
      const p = one(f as Args, 'field', true);
      if (p) return p.replace(/`(ref|role|name|selector|target)`/g, `\`fields[${i}].$1\``);
    }
  return null;
}

/**
 * Runs a tool call as the client wrote it: Playwright MCP's shapes are taken as ours (tool-args.ts),
 * then the arguments are checked (one message naming the argument and what it expects), then run.
 * A failure about an element the client described (`element`) names it.
 */
export async function runTool(tool: ToolDef, raw: Args, ctx: ToolContext): Promise<ToolResult> {
  const { args, notes } = normalizeArgs(tool.name, raw);
  const problem = targetProblem(tool, args) ?? checkAgainst(inputSchemaOf(tool), args);
  if (problem) return errorResult({ error_code: 'INVALID_MESSAGE', message: `${tool.name}: ${problem}.` });
  const res = await tool.run(args, ctx, notes);
  // The error text (a "new session" notice may come before it).
  const first = res.content.find((c) => c.type === 'text' && c.text.startsWith('Error '));
  if (res.isError && first?.type === 'text') {
    // An argument the protocol schema refused (call()) is named with its tool, like the checks above.
    first.text = first.text.replace(/^Error INVALID_MESSAGE: (?!browser_)/, `Error INVALID_MESSAGE: ${tool.name}: `);
    if (notes.element) first.text = first.text.replace(/^Error (\S+): /, (m) => `${m}${JSON.stringify(notes.element)}: `);
  }
  return res;
}
