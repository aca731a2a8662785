import type { NavigateParams } from '../../../../schemas/generated/protocol';
import { localTargetError } from '../person-policy';
import { navigateAndWait, normalizeUrl } from './navigation';
import type { WorkerContext, WorkerOutcome } from './types';

export function navigate(ctx: WorkerContext, params: NavigateParams): Promise<WorkerOutcome> {
  const url = normalizeUrl(params.url);
  // dispatch.ts judged params.url already; this judges the URL actually opened.
  const local = localTargetError('navigate', url);
  if (local) return Promise.resolve({ ok: false, error: local, stateTabId: null });
  return navigateAndWait(ctx, ctx.tab.id, `navigate to ${url}`, () => chrome.tabs.update(ctx.tab.id, { url }), params.timeout_ms);
}
