import type { CloseTabParams } from '../../../../schemas/generated/protocol';
import { resolveTab } from '../policy/tabs';
import type { WorkerContext, WorkerOutcome } from './types';

export async function closeTab(ctx: WorkerContext, params: CloseTabParams): Promise<WorkerOutcome> {
  const resolved = params.tab_id === undefined ? { ok: true as const, tab: ctx.tab } : await resolveTab(params.tab_id);
  if (!resolved.ok) return { ok: false, error: resolved.error, stateTabId: null };
  const { id, windowId } = resolved.tab;
  await chrome.tabs.remove(id);
  const [next] = await chrome.tabs.query({ active: true, windowId }).catch(() => [] as chrome.tabs.Tab[]);
  const active = next?.id ?? null;
  return {
    ok: true,
    message: `Closed tab ${id}.${active === null ? '' : ` Tab ${active} is now active in that window.`}`,
    result: { closed_tab_id: id, active_tab_id: active },
    stateTabId: active,
  };
}
