// What a seed translator needs from the bridge: an agent session that runs our actions. The
// connectors pass an AgentClient (bridge/client/agent-client.ts); unit tests pass a fake.
import type { ActionResultMessage, SettleOptions, SimplifiedState } from '../../schemas/generated/protocol';
import type { ActionName, ActionParams } from '../../schemas/generated/registry';

export interface ActionPort {
  call<A extends ActionName>(
    action: A,
    params: ActionParams<A>,
    options?: { tabId?: number; timeoutMs?: number; settle?: SettleOptions },
  ): Promise<ActionResultMessage>;
}

export interface TabRow {
  tab_id: number;
  url: string;
  title: string;
  active: boolean;
  index: number;
  window_id: number;
}

/** The result object of a successful action (outcome_details.result), {} when absent. */
export function resultOf(r: ActionResultMessage): Record<string, unknown> {
  const res = r.outcome_details?.result;
  return res && typeof res === 'object' && !Array.isArray(res) ? (res as Record<string, unknown>) : {};
}

export function stateOf(r: ActionResultMessage): SimplifiedState | null {
  return r.new_simplified_state ?? null;
}

/** "CODE: message", the form every seed error string takes here. */
export function errorText(r: ActionResultMessage): string {
  const e = r.error_info;
  return e ? `${e.error_code}: ${e.message}` : `action ${r.action ?? ''} failed without error_info`;
}

export async function listTabs(port: ActionPort): Promise<TabRow[]> {
  const r = await port.call('list_tabs', {});
  if (r.status !== 'success') throw new Error(errorText(r));
  const tabs = resultOf(r)['tabs'];
  return Array.isArray(tabs) ? (tabs as TabRow[]) : [];
}

/** The browser's active tab (the active tab of the first window that has one). */
export async function activeTab(port: ActionPort): Promise<TabRow | null> {
  const tabs = await listTabs(port);
  return tabs.find((t) => t.active) ?? null;
}
