import type { SearchParams } from '../../../../schemas/generated/protocol';
import { loadUrl } from './load-url';
import { navigateAndWait } from './navigation';
import type { WorkerContext, WorkerOutcome } from './types';

/** The results URL browser_use 0.1.48's search_google opens (udm=14: the plain "Web" results). */
export function searchUrl(query: string): string {
  return `https://www.google.com/search?q=${encodeURIComponent(query)}&udm=14`;
}

export function search(ctx: WorkerContext, params: SearchParams): Promise<WorkerOutcome> {
  const url = searchUrl(params.query);
  return navigateAndWait(ctx, ctx.tab.id, `search for "${params.query}"`, () => loadUrl(ctx.budget, ctx.tab.id, url), params.timeout_ms);
}
