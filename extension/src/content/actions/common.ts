// Shared steps of the element actions: resolve the target, wait for actionability, and shape results.
import type { ErrorInfo } from '../../../../schemas/generated/protocol';
import { errorInfo } from '../../../../schemas/lib/errors';
import { type Check, type Point, waitForActionable } from '../interaction/actionability';
import { DEFAULT_PRIVACY, sensitiveReason } from '../snapshot/privacy';
import { resolveTarget, type TargetParams } from '../target';
import type { HandlerOutcome, PageContext } from './types';

export interface ActionCommon extends TargetParams {
  timeout_ms?: number;
  force?: boolean;
}

export type Ready = { ok: true; el: Element; id: string; point: Point; hit: Element } | { ok: false; error: ErrorInfo };

/** Resolve + actionability: the element, its id and the point to act at. */
export async function prepare(ctx: PageContext, p: ActionCommon, checks: Check[]): Promise<Ready> {
  const t = resolveTarget(ctx, p);
  if (!t.ok) return t;
  const a = await waitForActionable(ctx, t.element, t.elementId, checks, p.timeout_ms, p.force === true);
  if (!a.ok) return a;
  return { ok: true, el: t.element, id: t.elementId, point: a.point, hit: a.hit };
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
