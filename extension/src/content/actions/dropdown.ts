// Dropdowns: select_option (values or labels; fires input and change) and get_dropdown_options
// (browser_use's text shape). Native <select>, plus role=listbox (options are role=option
// descendants or aria-owns/aria-controls targets, chosen by clicking them).
import type { GetDropdownOptionsParams, SelectOptionParams } from '../../../../schemas/generated/protocol';
import { errorInfo } from '../../../../schemas/lib/errors';
import { POINTER_CHECKS } from '../interaction/actionability';
import { fireChange, fireInput } from '../interaction/editing';
import { clickAt } from '../interaction/pointer';
import { actionPoint } from '../interaction/actionability';
import { fail, label, ok, prepare } from './common';
import type { PageHandler } from './registry';

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
    return [...el.options].map((o, index) => ({ index, text: o.text, value: o.value, selected: o.selected, disabled: o.disabled, el: o }));
  }
  const box = listboxOf(el);
  if (!box) return null;
  return [...box.querySelectorAll('[role=option]')].map((o, index) => {
    const text = collapse((o as HTMLElement).innerText ?? o.textContent ?? '');
    return { index, text, value: o.getAttribute('data-value') ?? o.getAttribute('value') ?? text, selected: o.getAttribute('aria-selected') === 'true', disabled: o.getAttribute('aria-disabled') === 'true', el: o };
  });
}

/** Python's json.dumps(s) (ensure_ascii): what browser_use prints for each option. */
export function pyJsonString(s: string): string {
  return JSON.stringify(s).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

export function formatOptions(options: { index: number; text: string }[]): string {
  return `${options.map((o) => `${o.index}: text=${pyJsonString(o.text)}`).join('\n')}\nUse the exact text string in select_dropdown_option`;
}

const publicOpt = (o: Opt) => ({ index: o.index, text: o.text, value: o.value, selected: o.selected, disabled: o.disabled });

export const getDropdownOptions: PageHandler = async (ctx, raw) => {
  const p = raw as GetDropdownOptionsParams;
  const r = await prepare(ctx, p, []);
  if (!r.ok) return r;
  const options = optionsOf(r.el);
  if (!options) return fail('TARGET_ELEMENT_NOT_INTERACTABLE', `${label(r.id, r.el)} is not a dropdown (<select> or role=listbox). Pick the select element from a new state; for a custom dropdown, click it open and take a new state.`, { element_id: r.id, check: 'dropdown' });
  if (options.length === 0) return ok('No options found in any frame for dropdown', { options: [], formatted: 'No options found in any frame for dropdown' }, false);
  const formatted = formatOptions(options);
  return ok(formatted, { options: options.map(publicOpt), formatted }, false);
};

function matchOptions(options: Opt[], p: SelectOptionParams): { ok: true; picked: Opt[] } | { ok: false; missing: string } {
  const picked: Opt[] = [];
  const byValue = p.values !== undefined;
  for (const wanted of (byValue ? p.values : p.labels) ?? []) {
    const usable = options.filter((o) => !o.disabled);
    const found = byValue
      ? usable.find((o) => o.value === wanted)
      : (usable.find((o) => collapse(o.text) === collapse(wanted)) ?? usable.find((o) => collapse(o.text).toLowerCase() === collapse(wanted).toLowerCase()) ?? labelAttributeMatch(usable, wanted));
    if (!found) return { ok: false, missing: wanted };
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
  if (p.values === undefined && p.labels === undefined) return fail('INVALID_MESSAGE', 'select_option needs values or labels (a list of option values, or of visible option texts).');
  const r = await prepare(ctx, p, ['visible', 'enabled']);
  if (!r.ok) return r;
  const options = optionsOf(r.el);
  if (!options) return fail('TARGET_ELEMENT_NOT_INTERACTABLE', `${label(r.id, r.el)} is not a dropdown (<select> or role=listbox). Pick the select element from a new state, or click a custom dropdown open and click the option.`, { element_id: r.id, check: 'dropdown' });
  const m = matchOptions(options, p);
  if (!m.ok) {
    const listed = options.map(publicOpt);
    return { ok: false, error: errorInfo('OPTION_NOT_FOUND', `${label(r.id, r.el)} has no enabled option with ${p.values ? 'value' : 'text'} ${JSON.stringify(m.missing)}. Options: ${options.map((o) => `${JSON.stringify(o.text)} (value ${JSON.stringify(o.value)})${o.disabled ? ' disabled' : ''}`).join(', ')}. Use one of these exactly.`, 'content_script', { element_id: r.id, requested: m.missing, options: listed }) };
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
    return ok(`selected option ${selected.map((o) => o.text).join(', ')} with value ${JSON.stringify(selected.map((o) => o.value))}${note}`, { element_id: r.id, values: selected.map((o) => o.value), labels: selected.map((o) => o.text) });
  }
  for (const o of m.picked) {
    if (o.selected) continue;
    o.el.scrollIntoView({ block: 'nearest', behavior: 'instant' });
    const a = await prepare(ctx, { element_id: ctx.refs.refFor(o.el), timeout_ms: p.timeout_ms, force: p.force }, POINTER_CHECKS);
    if (!a.ok) return a;
    clickAt(a.hit, a.point ?? actionPoint(o.el));
  }
  const after = optionsOf(el) ?? [];
  const selected = after.filter((o) => o.selected || m.picked.some((x) => x.el === o.el));
  return ok(`selected option ${selected.map((o) => o.text).join(', ')} in ${label(r.id, el)} by clicking it`, { element_id: r.id, values: selected.map((o) => o.value), labels: selected.map((o) => o.text) });
};
