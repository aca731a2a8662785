// wait_for: poll (every 50 ms, timers only: background tabs pause animation frames) until a text or
// an element reaches a state, or TIMEOUT. Unlike acting, waiting is not strict: "visible" is met
// when any match is visible, "hidden" when none is.
import type { WaitForParams } from '../../../../schemas/generated/protocol';
import { isVisible, sleep } from '../interaction/dom';
import { findAll, hasTarget, resolveTarget } from '../target';
import { fail, ok } from './common';
import { findText } from './scroll';
import type { HandlerOutcome, PageContext, PageHandler } from './types';

type Probe = { done: boolean; elementId?: string } | { error: HandlerOutcome };

function probe(ctx: PageContext, p: WaitForParams, state: NonNullable<WaitForParams['state']>): Probe {
  let matches: Element[];
  if (p.text !== undefined) {
    const el = findText(p.text);
    matches = el ? [el] : [];
  } else if (p.element_id !== undefined || p.index !== undefined) {
    const t = resolveTarget(ctx, p);
    if (!t.ok) {
      const stale = (t.error.details as { reason?: string } | undefined)?.reason === 'stale';
      if (stale) matches = [];
      else return { error: t };
    } else matches = [t.element];
  } else {
    const all = findAll(p);
    if (!all.ok) return { error: all };
    matches = all.elements;
  }
  const visible = matches.filter(isVisible);
  switch (state) {
    case 'visible':
      return visible[0] ? { done: true, elementId: ctx.refs.refFor(visible[0]) } : { done: false };
    case 'hidden':
      return { done: visible.length === 0 };
    case 'attached':
      return matches[0] ? { done: true, elementId: ctx.refs.refFor(matches[0]) } : { done: false };
    case 'detached':
      return { done: matches.length === 0 };
  }
}

export const waitFor: PageHandler = async (ctx, raw) => {
  const p = raw as WaitForParams;
  if ((p.text === undefined) === !hasTarget(p))
    return fail('INVALID_MESSAGE', 'wait_for needs either text or a target (element_id, index, role or selector), not both.');
  const state = p.state ?? 'visible';
  const timeout = p.timeout_ms ?? 5000;
  const start = performance.now();
  const what =
    p.text !== undefined
      ? `text ${JSON.stringify(p.text)}`
      : (p.element_id ??
        (p.selector !== undefined
          ? `selector ${JSON.stringify(p.selector)}`
          : p.role !== undefined
            ? `role=${p.role}${p.name !== undefined ? ` name=${JSON.stringify(p.name)}` : ''}`
            : `index ${p.index}`));
  for (;;) {
    const r = probe(ctx, p, state);
    if ('error' in r) return r.error;
    const waited = Math.round(performance.now() - start);
    if (r.done)
      return ok(
        `${what} is ${state} (after ${waited} ms).`,
        { waited_ms: waited, ...(r.elementId ? { element_id: r.elementId } : {}) },
        false,
      );
    if (waited >= timeout)
      return fail(
        'TIMEOUT',
        `${what} did not become ${state} within ${timeout} ms. Take a new state to see the page, or wait longer with a larger timeout_ms.`,
        { state, timeout_ms: timeout, current_url: location.href },
      );
    await sleep(Math.min(50, timeout - waited));
  }
};
