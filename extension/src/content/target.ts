// Resolves a target (a target names exactly one of element_id, index, role [+ name, exact], selector)
// to one element of this frame. The worker routes element ids of subframes ("f7e3") and indexes to
// the owning frame and rewrites them to the local ref ("e3") before calling the page (see route in
// background/run/route.ts); this file never guesses across frames, so it cannot act on the wrong
// element.
//
// Strictness (Playwright's, https://playwright.dev/docs/locators#strictness):
//   role: hidden elements never match; more than one match is AMBIGUOUS_TARGET with the candidates.
//   selector: several *visible* matches is AMBIGUOUS_TARGET; if exactly one match is visible it is
//   the target (sites often keep hidden duplicates, e.g. mobile and desktop menus); several matches
//   none of which is visible is AMBIGUOUS_TARGET too.
import type { ErrorInfo, Target } from '../../../schemas/generated/protocol';
import { errorInfo } from '../../../schemas/lib/errors';
import { isAgentUi } from '../shared/agent-ui-marker';
import { parseElementId } from '../shared/element-ref';
import type { PageContext } from './actions/types';
import { allElements, describe, isVisible, queryAllDeep } from './interaction/dom';
import { accessibleName } from './snapshot/accname';
import { roleOf } from './snapshot/roles';

/** The target fields every element action's params carry (schemas/v1/defs/target.json). */
export type TargetParams = Target;

export type Resolved = { ok: true; element: Element; elementId: string } | { ok: false; error: ErrorInfo };

const MAX_CANDIDATES = 10;

export function hasTarget(p: TargetParams): boolean {
  return p.element_id !== undefined || p.index !== undefined || p.role !== undefined || p.selector !== undefined;
}

function describeTarget(p: TargetParams): string {
  if (p.element_id !== undefined) return `element ${p.element_id}`;
  if (p.index !== undefined) return `index ${p.index}`;
  if (p.role !== undefined)
    return `role=${p.role}${p.name !== undefined ? ` name=${JSON.stringify(p.name)}${p.exact ? ' (exact)' : ''}` : ''}`;
  return `selector ${JSON.stringify(p.selector)}`;
}

const norm = (s: string) => s.replace(/\s+/g, ' ').trim();

export function nameMatches(actual: string, wanted: string, exact: boolean): boolean {
  return exact ? norm(actual) === norm(wanted) : norm(actual).toLowerCase().includes(norm(wanted).toLowerCase());
}

/** Hidden from the accessibility tree: aria-hidden on it or an ancestor, or not rendered. */
function ariaHidden(el: Element): boolean {
  if (el.closest('[aria-hidden="true"]')) return true;
  return !el.checkVisibility({ checkVisibilityCSS: true });
}

export function findByRole(role: string, name: string | undefined, exact: boolean): Element[] {
  const wanted = role.trim().toLowerCase();
  const out: Element[] = [];
  for (const el of allElements()) {
    if (roleOf(el) !== wanted) continue;
    if (ariaHidden(el) || isAgentUi(el)) continue;
    if (name !== undefined && !nameMatches(accessibleName(el), name, exact)) continue;
    out.push(el);
  }
  return out;
}

/** All matches of a role or selector target (count, wait_for, is visible), or an error for a bad selector. */
export function findAll(p: TargetParams): { ok: true; elements: Element[] } | { ok: false; error: ErrorInfo } {
  if (p.role !== undefined) return { ok: true, elements: findByRole(p.role, p.name, p.exact === true) };
  if (p.selector !== undefined) {
    try {
      return { ok: true, elements: queryAllDeep(p.selector).filter((el) => !isAgentUi(el)) };
    } catch (e) {
      const why = e instanceof Error ? e.message : String(e);
      return {
        ok: false,
        error: errorInfo(
          'INVALID_MESSAGE',
          `The selector ${JSON.stringify(p.selector)} is not valid CSS (${why}). Fix it, or target by element_id from get_state.`,
          'content_script',
          { selector: p.selector },
        ),
      };
    }
  }
  return { ok: false, error: errorInfo('INVALID_MESSAGE', 'Counting needs a role or selector target.', 'content_script') };
}

function ambiguous(ctx: PageContext, p: TargetParams, matches: Element[]): ErrorInfo {
  const candidates = matches.slice(0, MAX_CANDIDATES).map((el) => {
    const d = describe(el);
    return {
      element_id: ctx.refs.refFor(el),
      role: roleOf(el),
      name: accessibleName(el),
      tag: d.tag,
      description: d.summary,
      visible: isVisible(el),
    };
  });
  const list = candidates.map((c) => `${c.element_id} ${c.role} "${c.name}"`).join('; ');
  return errorInfo(
    'AMBIGUOUS_TARGET',
    `${describeTarget(p)} matches ${matches.length} elements: ${list}${matches.length > MAX_CANDIDATES ? '; ...' : ''}. Retry with one of these element_ids, or a more specific name/selector.`,
    'content_script',
    { candidates, count: matches.length },
  );
}

function notFound(p: TargetParams, reason: string, hint: string): ErrorInfo {
  return errorInfo(
    'TARGET_ELEMENT_NOT_FOUND',
    `No element matches ${describeTarget(p)}${reason ? ` (${reason})` : ''}. ${hint}`,
    'content_script',
    {
      reason: reason || 'no_match',
      current_url: location.href,
      ...(p.role !== undefined ? { role: p.role, name: p.name } : {}),
      ...(p.selector !== undefined ? { selector: p.selector } : {}),
    },
  );
}

/** The one element the params target, or a typed error (never a different element). */
export function resolveTarget(ctx: PageContext, p: TargetParams): Resolved {
  if (p.element_id !== undefined) {
    const parsed = parseElementId(p.element_id);
    if (!parsed)
      return {
        ok: false,
        error: errorInfo(
          'TARGET_ELEMENT_NOT_FOUND',
          `"${p.element_id}" is not an element id (ids look like e12 or f7e3). Take a new state (get_state) and use an id from it.`,
          'content_script',
          { element_id: p.element_id, reason: 'unknown' },
        ),
      };
    if (parsed.frameId !== 0) {
      return {
        ok: false,
        error: errorInfo(
          'EXTENSION_INTERNAL_ERROR',
          `Element ${p.element_id} lives in frame ${parsed.frameId}, but the action reached a frame that cannot resolve it (the worker did not route it). Report the bug; meanwhile target it by role/name or selector.`,
          'content_script',
          { element_id: p.element_id },
        ),
      };
    }
    const found = ctx.refs.resolve(parsed.local);
    if (found.ok && isAgentUi(found.element))
      return {
        ok: false,
        error: errorInfo(
          'TARGET_ELEMENT_NOT_FOUND',
          `Element ${p.element_id} is part of the browser agent's own UI, which agents do not act on. Take a new state (get_state) and use an id from it.`,
          'content_script',
          { element_id: p.element_id, reason: 'unknown' },
        ),
      };
    if (found.ok) return { ok: true, element: found.element, elementId: p.element_id };
    const message =
      found.reason === 'stale'
        ? `Element ${p.element_id} is stale: it was removed from the page after the state that listed it. Take a new state (get_state) and use an id from it.`
        : `Element ${p.element_id} is not in this page's state: it was never listed here (or the page navigated). Take a new state (get_state) and use an id from it.`;
    return {
      ok: false,
      error: errorInfo('TARGET_ELEMENT_NOT_FOUND', message, 'content_script', {
        element_id: p.element_id,
        reason: found.reason,
        current_url: location.href,
      }),
    };
  }
  if (p.index !== undefined) {
    return {
      ok: false,
      error: errorInfo(
        'EXTENSION_INTERNAL_ERROR',
        `Index ${p.index} reached the page untranslated; the worker maps indexes to element ids. Retry with the element_id from get_state.`,
        'content_script',
        { index: p.index },
      ),
    };
  }
  const all = findAll(p);
  if (!all.ok) return all;
  let matches = all.elements;
  if (p.selector !== undefined && matches.length > 1) {
    const visible = matches.filter(isVisible);
    if (visible.length >= 1) matches = visible;
  }
  if (matches.length === 0) {
    const hint =
      p.role !== undefined
        ? 'Hidden elements do not count. Check the role and name in a new state (get_state), or use exact=false.'
        : 'Take a new state (get_state) and target by element_id, or fix the selector.';
    return { ok: false, error: notFound(p, '', hint) };
  }
  if (matches.length > 1) return { ok: false, error: ambiguous(ctx, p, matches) };
  const el = matches[0] as Element;
  return { ok: true, element: el, elementId: ctx.refs.refFor(el) };
}
