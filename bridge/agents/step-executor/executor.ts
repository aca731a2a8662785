// Seed 003 ("Action Execution Step"): the executor layer as a call. Input {main_goal, plan_step,
// dom_snapshot, url, allowed_tools}; the tool is chosen from plan_step by the seed's Tool Selection
// (tool-selection.ts), or given by the caller (the wrapper form); exactly one browser action;
// output exactly {action, args{url, role, name, text, direction, key, seconds}, status, error_type,
// message}. Stateless and fail-fast: no retries; clicks are grounded in dom_snapshot (a target the
// snapshot does not contain is element_not_found without touching the page).
import type { ActionResultMessage, ErrorCode, SimplifiedState } from '../../../schemas/generated/protocol';
import type { ActionPort } from '../../client/action-port';
import type { AxNode, Seed003ErrorType, Seed003ToolCall } from './seed003-types';
import { selectTool } from './tool-selection';

export type { AxNode, Seed003ErrorType, Seed003ToolCall } from './seed003-types';

export const SEED003_TOOLS = ['navigate', 'click', 'type', 'search', 'scroll', 'press_key', 'wait'] as const;
export type Seed003Tool = (typeof SEED003_TOOLS)[number];

export interface Seed003Input {
  main_goal: string;
  plan_step: string;
  dom_snapshot: Record<string, unknown>;
  url: string;
  allowed_tools: string[];
}

export interface Seed003Args {
  url: string | null;
  role: string | null;
  name: string | null;
  text: string | null;
  direction: string | null;
  key: string | null;
  seconds: number | null;
}

export interface Seed003Output {
  action: string;
  args: Seed003Args;
  status: 'success' | 'failure';
  error_type: Seed003ErrorType;
  message: string;
}

/**
 * Our error codes -> seed 003 error_type (README/MIGRATION document this table). Codes not listed
 * (transport, auth, dialogs, timeouts, page errors) are `unknown`: the fallback layer decides.
 */
export const ERROR_TYPE_BY_CODE: Partial<Record<ErrorCode, Seed003ErrorType>> = {
  TARGET_ELEMENT_NOT_FOUND: 'element_not_found',
  TARGET_ELEMENT_NOT_INTERACTABLE: 'element_not_found',
  OPTION_NOT_FOUND: 'element_not_found',
  AMBIGUOUS_TARGET: 'ambiguous_step',
  INVALID_MESSAGE: 'ambiguous_step',
  UNSUPPORTED_ACTION: 'tool_limit',
  NOT_PERMITTED: 'tool_limit',
  NAVIGATION_FAILED: 'navigation_blocked',
  RESTRICTED_PAGE: 'navigation_blocked',
};

export function errorTypeOf(code: ErrorCode | undefined, tool: string): Seed003ErrorType {
  if (!code) return 'unknown';
  if (code === 'NOT_PERMITTED' && (tool === 'navigate' || tool === 'search')) return 'navigation_blocked';
  return ERROR_TYPE_BY_CODE[code] ?? 'unknown';
}

/** The accessibility tree seed 003 expects as dom_snapshot (Playwright's accessibility.snapshot() shape). */
export function axTree(state: SimplifiedState): AxNode {
  const root: AxNode = { role: 'WebArea', name: state.title, children: [] };
  const byIndex = new Map<number, AxNode>();
  const texts = [...(state.text_context ?? [])];
  let ti = 0;
  const flush = (upTo: number) => {
    while (ti < texts.length && (texts[ti]?.after_index ?? Infinity) <= upTo) {
      const t = texts[ti++];
      if (t && t.role === 'heading') root.children?.push({ role: 'heading', name: t.text, ...(t.level ? { level: t.level } : {}) });
      else if (t) root.children?.push({ role: 'text', name: t.text });
    }
  };
  flush(0);
  for (const [i, el] of state.actionable_elements.entries()) {
    const index = el.index ?? i + 1;
    const s = el.states ?? {};
    const node: AxNode = { role: el.role ?? 'generic', name: el.name || el.text_content || '' };
    if (el.current_value !== undefined && el.current_value !== '') node.value = el.current_value;
    if (s.checked !== undefined) node.checked = s.checked;
    if (s.disabled) node.disabled = true;
    if (s.focused) node.focused = true;
    byIndex.set(index, node);
    const parent = el.parent_index !== undefined ? byIndex.get(el.parent_index) : undefined;
    if (parent) (parent.children ??= []).push(node);
    else root.children?.push(node);
    flush(index);
  }
  flush(Infinity);
  return root;
}

/** Takes the dom_snapshot of the session's current tab. */
export async function domSnapshot(port: ActionPort, tabId?: number): Promise<{ dom_snapshot: AxNode; url: string }> {
  const r = await port.call('get_state', { viewport_expansion: -1 }, tabId === undefined ? {} : { tabId });
  if (r.status !== 'success' || !r.new_simplified_state)
    throw new Error(r.error_info ? `${r.error_info.error_code}: ${r.error_info.message}` : 'get_state failed');
  return { dom_snapshot: axTree(r.new_simplified_state), url: r.new_simplified_state.url };
}

function findNodes(tree: unknown, role: string, name: string): AxNode[] {
  const out: AxNode[] = [];
  const want = name.trim().toLowerCase();
  const walk = (n: unknown) => {
    if (!n || typeof n !== 'object') return;
    const node = n as Partial<AxNode>;
    if (node.role === role && typeof node.name === 'string' && node.name.trim().toLowerCase() === want) out.push(node as AxNode);
    if (Array.isArray(node.children)) node.children.forEach(walk);
  };
  walk(tree);
  return out;
}

const EMPTY: Seed003Args = { url: null, role: null, name: null, text: null, direction: null, key: null, seconds: null };

/** Schemes a plan step may load; the person's scope then judges the URL itself (sites, local folders). */
const WEB_SCHEMES = new Set(['http', 'https', 'file', 'about', 'data']);

/**
 * Why a URL is no web page the executor may load (chrome://settings, chrome-extension://,
 * view-source:, javascript:, ...), or null. Refused before the browser is asked, as seed 003's
 * navigation_blocked; the extension's own scope check refuses them too (a second wall, not the only one).
 */
function notWeb(url: string): string | null {
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(url.trim())?.[1]?.toLowerCase();
  if (!scheme || WEB_SCHEMES.has(scheme) || /^[a-z0-9.-]+:\d+(?:[/?#]|$)/i.test(url.trim())) return null;
  return `${url} is not a web page: ${scheme}: pages are the browser's own or not pages at all, and agents never open them. Give an http:// or https:// address.`;
}

const hasSnapshot = (input: Seed003Input) => !!input.dom_snapshot && Object.keys(input.dom_snapshot).length > 0;

/**
 * Runs one plan step: the tool the caller chose, else the one seed 003's Tool Selection picks from
 * plan_step (grounded in dom_snapshot, or in a snapshot of the current tab when the input has none).
 * Never throws for a browser failure: it is reported.
 */
export async function executeStep(
  port: ActionPort,
  input: Seed003Input,
  chosen?: Seed003ToolCall,
  opts: { tabId?: number } = {},
): Promise<Seed003Output> {
  let call = chosen;
  if (!call) {
    let tree: unknown = input.dom_snapshot;
    if (!hasSnapshot(input)) {
      try {
        tree = (await domSnapshot(port, opts.tabId)).dom_snapshot;
      } catch (e) {
        return {
          action: '',
          args: { ...EMPTY },
          status: 'failure',
          error_type: 'unknown',
          message: `No dom_snapshot was given and the current page could not be read: ${e instanceof Error ? e.message : String(e)}`,
        };
      }
    }
    const picked = selectTool(input.plan_step, tree);
    if (!picked.ok)
      return { action: picked.tool, args: { ...EMPTY }, status: 'failure', error_type: picked.errorType, message: picked.message };
    call = picked.call;
    input = { ...input, dom_snapshot: tree as Record<string, unknown> };
  }
  const a = call.args ?? {};
  const tool = call.tool;
  const args: Seed003Args = { ...EMPTY };
  const out = (status: 'success' | 'failure', error_type: Seed003ErrorType, message: string): Seed003Output => ({
    action: tool,
    args,
    status,
    error_type,
    message,
  });
  const fromResult = (r: ActionResultMessage, ok: string): Seed003Output =>
    r.status === 'success'
      ? out('success', 'none', ok)
      : out('failure', errorTypeOf(r.error_info?.error_code, tool), r.error_info?.message ?? `${tool} failed`);
  // No 15 s no-change watch (a seed 002 notion): the executor reports at once, verification is upstream.
  const tab = { ...(opts.tabId === undefined ? {} : { tabId: opts.tabId }), settle: { no_change_timeout_ms: 0 } };
  if (!(SEED003_TOOLS as readonly string[]).includes(tool))
    return out('failure', 'tool_limit', `Unknown tool "${tool}". The executor has: ${SEED003_TOOLS.join(', ')}.`);
  if (!input.allowed_tools.includes(tool))
    return out('failure', 'tool_limit', `Tool "${tool}" is not in allowed_tools (${input.allowed_tools.join(', ') || 'none'}).`);
  try {
    switch (tool as Seed003Tool) {
      case 'navigate': {
        args.url = a.url ?? null;
        if (!a.url) return out('failure', 'ambiguous_step', 'navigate needs args.url.');
        const blocked = notWeb(a.url);
        if (blocked) return out('failure', 'navigation_blocked', blocked);
        return fromResult(await port.call('navigate', { url: a.url }, tab), `Navigated to ${a.url}.`);
      }
      case 'click': {
        args.role = a.role ?? null;
        args.name = a.name ?? null;
        if (!a.role || a.name === undefined)
          return out('failure', 'ambiguous_step', 'click needs args.role and args.name from dom_snapshot.');
        let name = a.name;
        if (hasSnapshot(input)) {
          const matches = findNodes(input.dom_snapshot, a.role, a.name);
          if (matches.length === 0) return out('failure', 'element_not_found', `No ${a.role} named "${a.name}" in dom_snapshot.`);
          if (matches.length > 1)
            return out(
              'failure',
              'ambiguous_step',
              `${matches.length} ${a.role} elements are named "${a.name}" in dom_snapshot; the step must say which.`,
            );
          name = (matches[0] as AxNode).name;
        }
        return fromResult(await port.call('click', { role: a.role, name, exact: true }, tab), `Clicked ${a.role} "${name}".`);
      }
      case 'type': {
        args.text = a.text ?? null;
        if (typeof a.text !== 'string') return out('failure', 'ambiguous_step', 'type needs args.text.');
        if (a.role && a.name) {
          // The field the step names (role and accessible name from dom_snapshot): typed into, as Playwright's fill targets.
          args.role = a.role;
          args.name = a.name;
          return fromResult(
            await port.call('type', { role: a.role, name: a.name, exact: true, text: a.text }, tab),
            `Typed "${a.text}" into ${a.role} "${a.name}".`,
          );
        }
        const s = await port.call('get_state', { viewport_expansion: -1, max_text_chars: 0 }, tab);
        const focused = s.new_simplified_state?.active_element_id;
        if (!focused) return out('failure', 'element_not_found', 'No focused field to type into. Click the field first (a separate step).');
        return fromResult(await port.call('type', { element_id: focused, text: a.text }, tab), `Typed "${a.text}" into the focused field.`);
      }
      case 'search': {
        const query = a.query ?? a.text;
        args.text = query ?? null;
        if (!query) return out('failure', 'ambiguous_step', 'search needs args.query.');
        // The page's own search box when it has exactly one, else Google (the seed: "on Google or search UI").
        const s = await port.call('get_state', { viewport_expansion: -1, max_text_chars: 0 }, tab);
        const boxes = (s.new_simplified_state?.actionable_elements ?? []).filter(
          (e) =>
            e.role === 'searchbox' ||
            ((e.role === 'textbox' || e.role === 'combobox') &&
              /search/i.test(`${e.name ?? ''} ${e.attributes['placeholder'] ?? ''} ${e.attributes['type'] ?? ''}`)),
        );
        if (boxes.length === 1) {
          const box = boxes[0] as { id: string };
          const filled = await port.call('fill', { element_id: box.id, value: query }, tab);
          if (filled.status !== 'success') return fromResult(filled, '');
          return fromResult(await port.call('press', { element_id: box.id, key: 'Enter' }, tab), `Searched the page for "${query}".`);
        }
        return fromResult(await port.call('search', { query }, tab), `Searched Google for "${query}".`);
      }
      case 'scroll': {
        args.direction = a.direction ?? null;
        if (a.direction !== 'up' && a.direction !== 'down')
          return out('failure', 'ambiguous_step', 'scroll takes args.direction "up" or "down".');
        const r = await port.call('scroll', { direction: a.direction }, tab);
        const moved = (r.outcome_details?.result as { moved?: boolean } | undefined)?.moved;
        if (r.status === 'success' && moved === false)
          return out('success', 'none', `Already at the ${a.direction === 'down' ? 'bottom' : 'top'}; nothing moved.`);
        return fromResult(r, `Scrolled ${a.direction}.`);
      }
      case 'press_key': {
        args.key = a.key ?? null;
        if (!a.key) return out('failure', 'ambiguous_step', 'press_key needs args.key, e.g. "Enter".');
        return fromResult(await port.call('press', { key: a.key }, tab), `Pressed ${a.key}.`);
      }
      case 'wait': {
        const seconds = a.seconds;
        args.seconds = typeof seconds === 'number' ? seconds : null;
        if (typeof seconds !== 'number' || !Number.isInteger(seconds) || seconds < 0 || seconds > 60)
          return out('failure', 'ambiguous_step', 'wait takes args.seconds, an integer 0-60.');
        return fromResult(
          await port.call('wait', { ms: seconds * 1000 }, { ...tab, timeoutMs: seconds * 1000 + 15_000 }),
          `Waited ${seconds} s.`,
        );
      }
    }
  } catch (e) {
    return out('failure', 'unknown', `The browser could not be reached: ${e instanceof Error ? e.message : String(e)}`);
  }
  return out('failure', 'tool_limit', `Unknown tool "${tool}".`);
}
