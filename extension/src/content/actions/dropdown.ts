// Dropdowns: select_option (values or labels; fires input and change) and get_dropdown_options
// (browser_use's text shape). Native <select>, plus role=listbox (options are role=option
// descendants or aria-owns/aria-controls targets, chosen by clicking them).
import type { GetDropdownOptionsParams, SelectOptionParams } from '../../../../schemas/generated/protocol';
import { errorInfo } from '../../../../schemas/lib/errors';
import { POINTER_CHECKS } from '../interaction/actionability';
import { actionPoint } from '../interaction/actionability';
import { fireChange, fireInput } from '../interaction/editing';
import { clickAt } from '../interaction/pointer';
import { fail, label, ok, prepare } from './common';
import type { HandlerOutcome, PageHandler } from './types';

interface Opt {
  index: number;
  text: string;
  value: string;
  selected: boolean;
  disabled: boolean;
  el: Element;
}

const collapse = (s: string) => s.replace(/\s+/g, ' ').trim();

function listboxOf(el: Element): Element | null {
  if (el.getAttribute('role') === 'listbox') return el;
  for (const attr of ['aria-controls', 'aria-owns']) {
    const id = el.getAttribute(attr);
    const root = el.getRootNode() as Document | ShadowRoot;
    const target = id ? root.getElementById(id.split(/\s+/)[0] as string) : null;
    if (target?.getAttribute('role') === 'listbox') return target;
  }
  return el.querySelector('[role=listbox]');
}

function optionsOf(el: Element): Opt[] | null {
  if (el instanceof HTMLSelectElement) {
    // :disabled covers an option inside a disabled <optgroup> too (its own .disabled stays false).
    return [...el.options].map((o, index) => ({
      index,
      text: o.text,
      value: o.value,
      selected: o.selected,
      disabled: o.disabled || o.matches(':disabled'),
      el: o,
    }));
  }
  const box = listboxOf(el);
  if (!box) return null;
  return [...box.querySelectorAll('[role=option]')].map((o, index) => {
    const text = collapse((o as HTMLElement).innerText ?? o.textContent ?? '');
    return {
      index,
      text,
      value: o.getAttribute('data-value') ?? o.getAttribute('value') ?? text,
      selected: o.getAttribute('aria-selected') === 'true',
      disabled: o.getAttribute('aria-disabled') === 'true',
      el: o,
    };
  });
}

/** Python's json.dumps(s) (ensure_ascii): what browser_use prints for each option. */
export function pyJsonString(s: string): string {
  return JSON.stringify(s).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

export function formatOptions(options: { index: number; text: string }[]): string {
  return `${options.map((o) => `${o.index}: text=${pyJsonString(o.text)}`).join('\n')}\nUse the exact text string in select_dropdown_option`;
}

/**
 * The target has no options: Playwright's selectOption says "Element is not a <select> element";
 * the same words lead, details.reason says it in a field (role=listbox dropdowns are accepted too).
 */
function notASelect(id: string, el: Element, next: string): HandlerOutcome {
  return fail(
    'TARGET_ELEMENT_NOT_INTERACTABLE',
    `Element is not a <select> element: ${label(id, el)} is neither a <select> nor a role=listbox dropdown, so it has no options to choose. ${next}`,
    { element_id: id, check: 'dropdown', reason: 'not_a_select' },
  );
}

const publicOpt = (o: Opt) => ({ index: o.index, text: o.text, value: o.value, selected: o.selected, disabled: o.disabled });

export const getDropdownOptions: PageHandler = async (ctx, raw) => {
  const p = raw as GetDropdownOptionsParams;
  const r = await prepare(ctx, p, []);
  if (!r.ok) return r;
  const options = optionsOf(r.el);
  if (!options)
    return notASelect(r.id, r.el, 'Pick the select element from a new state; for a custom dropdown, click it open and take a new state.');
  if (options.length === 0)
    return ok(
      'No options found in any frame for dropdown',
      { options: [], formatted: 'No options found in any frame for dropdown' },
      false,
    );
  const formatted = formatOptions(options);
  return ok(formatted, { options: options.map(publicOpt), formatted }, false);
};

type Match = { ok: true; picked: Opt[] } | { ok: false; missing: string | number; disabled?: Opt };

/**
 * Playwright's selectOption matching: a value matches an option's value, else its label; a label
 * matches the label (exact, then case-insensitive, then the label attribute); an index the
 * position. A disabled option (or one in a disabled optgroup) is reported, never selected.
 */
function matchOptions(options: Opt[], p: SelectOptionParams): Match {
  const picked: Opt[] = [];
  const byLabel = (wanted: string) =>
    options.find((o) => collapse(o.text) === collapse(wanted)) ??
    options.find((o) => collapse(o.text).toLowerCase() === collapse(wanted).toLowerCase()) ??
    labelAttributeMatch(options, wanted);
  const wants: { key: string | number; find: () => Opt | undefined }[] = [
    ...(p.values ?? []).map((v) => ({ key: v, find: () => options.find((o) => o.value === v) ?? byLabel(v) })),
    ...(p.labels ?? []).map((l) => ({ key: l, find: () => byLabel(l) })),
    ...(p.option_indexes ?? []).map((i) => ({ key: i, find: () => options[i] })),
  ];
  for (const w of wants) {
    const found = w.find();
    if (!found) return { ok: false, missing: w.key };
    if (found.disabled) return { ok: false, missing: w.key, disabled: found };
    if (!picked.includes(found)) picked.push(found);
  }
  return { ok: true, picked };
}

/** <option label="..."> differs from its text; accept either. */
function labelAttributeMatch(options: Opt[], wanted: string): Opt | undefined {
  return options.find((o) => o.el instanceof HTMLOptionElement && o.el.label !== o.text && collapse(o.el.label) === collapse(wanted));
}

export const selectOption: PageHandler = async (ctx, raw) => {
  const p = raw as SelectOptionParams;
  if (p.values === undefined && p.labels === undefined && p.option_indexes === undefined)
    return fail(
      'INVALID_MESSAGE',
      'select_option needs values, labels or option_indexes (option values or labels, visible option texts, or zero-based positions).',
    );
  // The kind of element does not change while waiting: a non-dropdown fails at once.
  const t = await prepare(ctx, p, []);
  if (!t.ok) return t;
  if (!optionsOf(t.el))
    return notASelect(t.id, t.el, 'Pick the select element from a new state, or click a custom dropdown open and click the option.');
  const r = await prepare(ctx, p, ['visible', 'enabled']);
  if (!r.ok) return r;
  const options = optionsOf(r.el) ?? [];
  const m = matchOptions(options, p);
  if (!m.ok) {
    const listed = options.map(publicOpt);
    const list = options
      .map((o) => `${JSON.stringify(o.text)} (value ${JSON.stringify(o.value)})${o.disabled ? ' disabled' : ''}`)
      .join(', ');
    const what =
      typeof m.missing === 'number'
        ? `index ${m.missing}`
        : p.labels?.includes(m.missing)
          ? `text ${JSON.stringify(m.missing)}`
          : `value or text ${JSON.stringify(m.missing)}`;
    if (m.disabled)
      return {
        ok: false,
        error: errorInfo(
          'OPTION_DISABLED',
          `The option with ${what} in ${label(r.id, r.el)} is disabled${m.disabled.el instanceof HTMLOptionElement && !m.disabled.el.disabled ? ' (its <optgroup> is disabled)' : ''}, so it cannot be selected. Pick an enabled option: ${list}.`,
          'content_script',
          { element_id: r.id, requested: m.missing, options: listed },
        ),
      };
    return {
      ok: false,
      error: errorInfo(
        'OPTION_NOT_FOUND',
        `${label(r.id, r.el)} has no option with ${what}. Options: ${list}. Use one of these exactly.`,
        'content_script',
        { element_id: r.id, requested: m.missing, options: listed },
      ),
    };
  }
  const el = r.el;
  let note = '';
  if (el instanceof HTMLSelectElement) {
    let picked = m.picked;
    if (!el.multiple && picked.length > 1) {
      note = ` (a single-choice select: only the first of ${picked.length} was selected)`;
      picked = picked.slice(0, 1);
    }
    el.focus({ preventScroll: true });
    for (const o of options) (o.el as HTMLOptionElement).selected = picked.includes(o);
    fireInput(el, 'insertReplacementText', null);
    fireChange(el);
    const selected = [...el.selectedOptions];
    return ok(
      `selected option ${selected.map((o) => o.text).join(', ')} with value ${JSON.stringify(selected.map((o) => o.value))}${note}`,
      { element_id: r.id, values: selected.map((o) => o.value), labels: selected.map((o) => o.text) },
    );
  }
  for (const o of m.picked) {
    if (o.selected) continue;
    o.el.scrollIntoView({ block: 'nearest', behavior: 'instant' });
    const a = await prepare(ctx, { element_id: ctx.refs.refFor(o.el), timeout_ms: p.timeout_ms, force: p.force }, POINTER_CHECKS);
    if (!a.ok) return a;
    await clickAt(a.hit, a.point ?? actionPoint(o.el));
  }
  const after = optionsOf(el) ?? [];
  const selected = after.filter((o) => o.selected || m.picked.some((x) => x.el === o.el));
  return ok(`selected option ${selected.map((o) => o.text).join(', ')} in ${label(r.id, el)} by clicking it`, {
    element_id: r.id,
    values: selected.map((o) => o.value),
    labels: selected.map((o) => o.text),
  });
};
