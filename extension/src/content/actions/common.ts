// Shared steps of the element actions: resolve the target, wait for actionability, and shape results.
import type { ErrorInfo } from '../../../../schemas/generated/protocol';
import { errorInfo } from '../../../../schemas/lib/errors';
import { type Check, isTextEditableKind, type Point, waitForActionable } from '../interaction/actionability';
import { retarget } from '../interaction/dom';
import { DEFAULT_PRIVACY, sensitiveReason } from '../snapshot/privacy';
import { resolveTarget, type TargetParams } from '../target';
import type { HandlerOutcome, PageContext } from './types';

export interface ActionCommon extends TargetParams {
  timeout_ms?: number;
  force?: boolean;
}

export type Ready = { ok: true; el: Element; id: string; point: Point; hit: Element } | { ok: false; error: ErrorInfo };

/** Resolve + actionability: the element, its id and the point to act at. Text goes into a
 * <label>'s control when the label (or something inside it) is the target, as Playwright's fill
 * retargets it (https://playwright.dev/docs/api/class-locator#locator-fill): the result then names
 * the control, whose value it reads. */
export async function prepare(ctx: PageContext, p: ActionCommon, checks: Check[]): Promise<Ready> {
  const t = resolveTarget(ctx, p);
  if (!t.ok) return t;
  let el = t.element;
  let id = t.elementId;
  if (checks.includes('editable')) {
    const control = labelControl(el);
    if (control) {
      el = control;
      id = ctx.refs.refFor(control);
    }
  }
  const a = await waitForActionable(ctx, el, id, checks, p.timeout_ms, p.force === true);
  if (!a.ok) return a;
  return { ok: true, el, id, point: a.point, hit: a.hit };
}

/** The text control a label stands for: el is not itself editable and sits in a <label> (or is one)
 * whose control takes text. Playwright's retarget 'follow-label' (interaction/dom.ts), kept to
 * controls that take text, so a label of a checkbox is still refused as NOT_FILLABLE. */
function labelControl(el: Element): Element | null {
  if (isTextEditableKind(el)) return null;
  const control = retarget(el, 'follow-label');
  return control !== el && isTextEditableKind(control) ? control : null;
}

export function ok(message: string, result: Record<string, unknown>, settle = true): HandlerOutcome {
  return { ok: true, message, result, settle };
}

export function fail(code: ErrorInfo['error_code'], message: string, details?: Record<string, unknown>): HandlerOutcome {
  return { ok: false, error: errorInfo(code, message, 'content_script', details) };
}

/** The element's value for results; never a password, card, CVC or one-time code (privacy.ts). */
export function safeValue(el: Element): string | undefined {
  if (sensitiveReason(el, DEFAULT_PRIVACY)) return undefined;
  if (el instanceof HTMLInputElement) return el.value;
  if (el instanceof HTMLTextAreaElement || el instanceof HTMLSelectElement) return el.value;
  if ((el as HTMLElement).isContentEditable) return (el as HTMLElement).innerText;
  return undefined;
}

export const label = (id: string, el: Element) => `${id} <${el.localName}>`;
