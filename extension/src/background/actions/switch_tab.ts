import type { SwitchTabParams } from '../../../../schemas/generated/protocol';
import { resolveTab } from '../policy/tabs';
import type { WorkerContext, WorkerOutcome } from './types';

export async function switchTab(_ctx: WorkerContext, params: SwitchTabParams): Promise<WorkerOutcome> {
  const resolved = await resolveTab(params.tab_id);
  if (!resolved.ok) return { ok: false, error: resolved.error, stateTabId: null };
  const tab = await chrome.tabs.update(resolved.tab.id, { active: true });
  await chrome.windows.update(resolved.tab.windowId, { focused: true }).catch(() => undefined);
  return {
    ok: true,
    message: `Switched to tab ${resolved.tab.id} (${tab?.url ?? resolved.tab.url ?? ''}).`,
    result: { tab_id: resolved.tab.id },
    stateTabId: resolved.tab.id,
  };
}
