// Seed 004's context bundle for a task typed in the side panel: url, title, selected text, active tab
// id and a viewport summary of the actionable elements, plus the right-clicked element when the task
// came from "Ask the agent about this".
import type { ContextElement, UserTaskContext } from '../../../../schemas/generated/protocol';
import { agentsActiveTab, isRestrictedUrl } from '../policy/tabs';
import { collectState } from '../state/collect';

const SUMMARY_MAX_ELEMENTS = 60;

async function selectedText(tabId: number): Promise<string | null> {
  try {
    const [r] = await chrome.scripting.executeScript({ target: { tabId }, func: () => globalThis.getSelection?.()?.toString() ?? '' });
    const text = typeof r?.result === 'string' ? r.result.trim() : '';
    return text ? text.slice(0, 20_000) : null;
  } catch {
    return null;
  }
}

async function viewportSummary(tabId: number): Promise<string | null> {
  const s = await collectState(tabId, { viewport_expansion: 0, max_elements: SUMMARY_MAX_ELEMENTS, redact_pii: true });
  if (!s.ok) return null;
  const lines = s.state.actionable_elements
    .filter((e) => e.is_in_viewport !== false)
    .map((e) => `[${e.index ?? '?'}] ${e.role ?? e.tag}${e.name ? ` "${e.name.slice(0, 80)}"` : ''}`);
  return lines.length ? lines.join('\n').slice(0, 20_000) : '(no actionable elements in view)';
}

/**
 * The context bundle of a task the person typed: the page they were looking at (the side panel
 * itself is not a tab; the extension's Settings tab is never an agent's, so the page before it).
 */
export async function buildContext(element: ContextElement | null): Promise<UserTaskContext> {
  const tab = await agentsActiveTab();
  if (!tab || tab.id === undefined)
    return { url: '', page_title: '', selected_text: null, active_tab_id: 0, viewport_summary: null, element };
  const readable = !isRestrictedUrl(tab.url);
  const [selected, summary] = readable ? await Promise.all([selectedText(tab.id), viewportSummary(tab.id)]) : [null, null];
  return {
    url: tab.url ?? '',
    page_title: tab.title ?? '',
    selected_text: selected,
    active_tab_id: tab.id,
    viewport_summary: summary,
    element,
  };
}
