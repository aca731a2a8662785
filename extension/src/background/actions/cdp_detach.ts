// cdp_detach: the CDP client lets go of the tab's DevTools protocol (the tab stays open and leased).
import { detachRelay } from '../cdp/cdp-relay';
import type { WorkerContext, WorkerOutcome } from './types';

export async function cdpDetach(ctx: WorkerContext): Promise<WorkerOutcome> {
  const detached = await detachRelay(ctx.tab.id);
  return {
    ok: true,
    message: detached ? `DevTools protocol detached from tab ${ctx.tab.id}.` : `Tab ${ctx.tab.id} was not attached; nothing to detach.`,
    result: { detached },
    stateTabId: null,
  };
}
