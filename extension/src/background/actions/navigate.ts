import type { NavigateParams } from '../../../../schemas/generated/protocol';
import { navigateAndWait, normalizeUrl } from './navigation';
import type { WorkerContext, WorkerOutcome } from './types';

export function navigate(ctx: WorkerContext, params: NavigateParams): Promise<WorkerOutcome> {
  const url = normalizeUrl(params.url);
  return navigateAndWait(ctx, ctx.tab.id, `navigate to ${url}`, () => chrome.tabs.update(ctx.tab.id, { url }), params.timeout_ms);
}
