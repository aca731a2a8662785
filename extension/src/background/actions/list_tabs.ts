import type { TabInfo } from '../../../../schemas/generated/protocol';
import { isExtensionPage } from '../policy/agent-scope';
import type { WorkerContext, WorkerOutcome } from './types';

/**
 * Tabs of normal windows, window by window, in tab-strip order. No page state: listing touches no
 * page (and the bridge calls it often). Extension pages (our Settings, other extensions' pages) are
 * never listed to agents: they are never an agent's tab (agent-scope.ts).
 */
export async function listTabs(_ctx: WorkerContext): Promise<WorkerOutcome> {
  const all = await chrome.tabs.query({ windowType: 'normal' });
  all.sort((a, b) => a.windowId - b.windowId || a.index - b.index);
  const tabs: TabInfo[] = all
    .filter((t): t is chrome.tabs.Tab & { id: number } => t.id !== undefined && !isExtensionPage(t.url ?? t.pendingUrl))
    .map((t) => ({
      tab_id: t.id,
      url: t.url ?? t.pendingUrl ?? '',
      title: t.title ?? '',
      active: t.active,
      index: t.index,
      window_id: t.windowId,
    }));
  return { ok: true, message: `${tabs.length} open tab${tabs.length === 1 ? '' : 's'}.`, result: { tabs }, stateTabId: null };
}
