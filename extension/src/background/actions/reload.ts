import type { ReloadParams } from '../../../../schemas/generated/protocol';
import { navigateAndWait } from './navigation';
import type { WorkerContext, WorkerOutcome } from './types';

export function reload(ctx: WorkerContext, params: ReloadParams): Promise<WorkerOutcome> {
  return navigateAndWait(
    ctx,
    ctx.tab.id,
    'reload',
    () => chrome.tabs.reload(ctx.tab.id, { bypassCache: params.bypass_cache === true }),
    params.timeout_ms,
  );
}
