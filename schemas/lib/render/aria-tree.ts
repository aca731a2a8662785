// Seed 001's accessibility-tree text (the form Playwright's ariaSnapshot popularised):
//   - heading "Sign in" [level=1]
//   - textbox "Email" [ref=e2]: ada@example.org
//   - button "Submit" [disabled] [ref=e3]
// One line per element or text block, indented two spaces per nesting level.
import type { ActionableElement, SimplifiedState } from '../../generated/protocol';
import { entries, labelOf, shownValue } from './common';

const quote = (s: string) => JSON.stringify(s);

function stateFlags(el: ActionableElement): string {
  const s = el.states ?? {};
  const f: string[] = [];
  if (s.checked === true) f.push('[checked]');
  else if (s.checked === 'mixed') f.push('[checked=mixed]');
  if (s.disabled) f.push('[disabled]');
  if (s.expanded === true) f.push('[expanded]');
  if (s.pressed === true) f.push('[pressed]');
  else if (s.pressed === 'mixed') f.push('[pressed=mixed]');
  if (s.selected) f.push('[selected]');
  if (s.focused) f.push('[active]');
  if (s.required) f.push('[required]');
  if (s.readonly) f.push('[readonly]');
  return f.join(' ');
}

const VALUE_ROLES = new Set(['textbox', 'searchbox', 'combobox', 'spinbutton', 'slider', 'listbox']);

export function renderAriaTree(state: SimplifiedState): string {
  const lines: string[] = [];
  const list = entries(state);
  for (const [i, e] of list.entries()) {
    const pad = '  '.repeat(e.depth);
    if (e.kind === 'text') {
      const t = e.item;
      // A <label>'s text right before the control it names is already that control's name.
      const next = list[i + 1];
      if (t.role === 'label' && next?.kind === 'element' && labelOf(next.el) === t.text) continue;
      if (t.role === 'heading') lines.push(`${pad}- heading ${quote(t.text)} [level=${t.level ?? 2}]`);
      else lines.push(`${pad}- ${t.role ?? 'text'}: ${t.text}`);
      continue;
    }
    const el = e.el;
    const label = labelOf(el);
    let line = `${pad}- ${el.role ?? el.type.toLowerCase()}${label ? ` ${quote(label)}` : ''}`;
    const flags = stateFlags(el);
    if (flags) line += ` ${flags}`;
    line += ` [ref=${el.id}]`;
    const value = shownValue(el);
    if (value !== undefined && value !== '' && (VALUE_ROLES.has(el.role ?? '') || el.redacted) && value !== label) line += `: ${value}`;
    else if (el.redacted) line += `: ${value}`;
    lines.push(line);
  }
  if (state.truncation) lines.push(`# truncated: ${state.truncation.message}`);
  return lines.join('\n');
}
