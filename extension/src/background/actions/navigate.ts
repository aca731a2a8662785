import type { NavigateParams } from '../../../../schemas/generated/protocol';
import { scopeError, scopeWhenRead } from '../policy/person-policy';
import { loadUrl } from './load-url';
import { navigateAndWait, normalizeUrl } from './navigation';
import type { WorkerContext, WorkerOutcome } from './types';

export async function navigate(ctx: WorkerContext, params: NavigateParams): Promise<WorkerOutcome> {
  const url = normalizeUrl(params.url);
  // run/tab-gate.ts judged params.url already; this judges the URL actually opened.
  const out = await scopeWhenRead(url);
  if (out) return { ok: false, error: scopeError('navigate', url, out), stateTabId: null };
  return navigateAndWait(ctx, ctx.tab.id, `navigate to ${url}`, () => loadUrl(ctx.budget, ctx.tab.id, url), params.timeout_ms);
}
