// Page side of trusted input (background/trusted-input.ts): target resolution and the Playwright
// actionability checks without any synthetic event, so the first event the page sees is the real
// (isTrusted) one the worker dispatches through chrome.debugger.
import { errorInfo } from '../../../../schemas/lib/errors';
import type { PrepareRequest, ReadValueRequest, RunActionResponse } from '../../shared/internal-messages';
import { EDIT_CHECKS, HOVER_CHECKS, POINTER_CHECKS, type Check } from '../interaction/actionability';
import { composedContains, deepActiveElement } from '../interaction/dom';
import { type ActionCommon, prepare, safeValue } from './common';
import type { PageContext } from './registry';

const CHECKS: Record<PrepareRequest['checks'], Check[]> = { pointer: POINTER_CHECKS, hover: HOVER_CHECKS, edit: EDIT_CHECKS, none: [] };

export async function prepareTrusted(ctx: PageContext, req: PrepareRequest): Promise<RunActionResponse> {
  const r = await prepare(ctx, req.params as ActionCommon, CHECKS[req.checks]);
  if (!r.ok) return r;
  let focused = false;
  if (req.focus) {
    (r.el as HTMLElement).focus?.({ preventScroll: true });
    focused = composedContains(r.el, deepActiveElement());
  }
  return { ok: true, message: '', result: { element_id: r.id, x: r.point.x, y: r.point.y, focused } };
}

export function readValue(ctx: PageContext, req: ReadValueRequest): RunActionResponse {
  const found = ctx.refs.resolve(req.element_id);
  if (!found.ok) return { ok: false, error: errorInfo('TARGET_ELEMENT_NOT_FOUND', `Element ${req.element_id} left the page. Take a new state (get_state).`, 'content_script', { element_id: req.element_id, reason: 'stale' }) };
  const value = safeValue(found.element);
  return { ok: true, message: '', result: value === undefined ? {} : { value } };
}
