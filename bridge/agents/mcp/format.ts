// Turns action_results into MCP tool results: the settled outcome in one or two short lines (what
// outcome_details says happened: navigation, new tab, dialog, change or no change), then the page
// and its snapshot. Failures are tool errors (isError) with the protocol's error code and one message
// that says what happened and what to do next. The code's generic meaning is not appended: for a
// failure the client saw first (bridge down, bad argument) it would describe another situation.
import type { ActionResultMessage, ErrorInfo, OutcomeDetails } from '../../../schemas/generated/protocol';
import { forMcpModel } from './reader-words';

export interface TextContent {
  type: 'text';
  text: string;
}
export interface ImageContent {
  type: 'image';
  data: string;
  mimeType: string;
}
export interface ToolResult {
  [key: string]: unknown;
  content: (TextContent | ImageContent)[];
  isError?: boolean;
}

const clip = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

/** The outcome of a successful action, from outcome_details. */
export function outcomeLines(action: string, d: OutcomeDetails | null | undefined, url: string | undefined): string[] {
  if (!d) return [`${action}: done.`];
  // Worker messages often start with the action's name already ("reload: loaded ...", "Clicked ...").
  const lines = [
    d.message.toLowerCase().startsWith(action.replace(/_/g, ' ').split(' ')[0] ?? action) ? d.message : `${action}: ${d.message}`,
  ];
  const facts: string[] = [];
  if (d.navigation_occurred) facts.push(`navigated${url ? ` to ${url}` : ''}`);
  if (d.new_tab_id !== undefined) facts.push(`opened tab ${d.new_tab_id} (yours: browser_tabs select to work in it)`);
  if (d.dialog) {
    const dl = d.dialog;
    facts.push(
      `${dl.kind} dialog "${clip(dl.message, 200)}" was ${dl.handled}${dl.prompt_text ? ` with "${clip(dl.prompt_text, 100)}"` : ''}${dl.count && dl.count > 1 ? ` (${dl.count} dialogs)` : ''} by the person's dialog policy`,
    );
  }
  if (d.dom_changed === true && !d.navigation_occurred) facts.push('the page changed');
  if (d.dom_changed === false && !d.navigation_occurred && d.new_tab_id === undefined) facts.push('no DOM change');
  if (d.settled === false)
    facts.push('the page had not settled yet (still changing or loading; take a snapshot again before relying on it)');
  if (d.no_change_notice) facts.push(d.no_change_notice);
  if (facts.length) lines.push(`Outcome: ${facts.join('; ')}.`);
  return lines;
}

export function pageHeader(tabId: number | undefined, title: string, url: string): string {
  return `Tab ${tabId ?? '?'}: ${clip(title, 120) || '(untitled)'} — ${url}`;
}

export function text(s: string): TextContent {
  return { type: 'text', text: s };
}

/** A tool error carrying a protocol error (what to do next is in the message). */
export function errorResult(error: Pick<ErrorInfo, 'error_code' | 'message'> & { details?: unknown }, extra: string[] = []): ToolResult {
  // In the model's words (reader-words.ts): browser_snapshot and ref, never get_state and element_id.
  const lines = [`Error ${error.error_code}: ${forMcpModel(error.message)}`];
  const details =
    error.details && typeof error.details === 'object' && Object.keys(error.details).length
      ? clip(forMcpModel(JSON.stringify(error.details)), 1500)
      : null;
  if (details) lines.push(`Details: ${details}`);
  return { content: [text([...lines, ...extra].join('\n'))], isError: true };
}

/** The action's own result fields worth showing (short). */
export function resultSummary(r: ActionResultMessage): string | null {
  const result = r.outcome_details?.result;
  if (!result || typeof result !== 'object' || Object.keys(result).length === 0) return null;
  return clip(JSON.stringify(result), 600);
}
