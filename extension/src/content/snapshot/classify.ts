// Which elements are interactive (seed 000 section 5, seed 004 "Criteria
// for Actionable") and what an agent can do with them: type, available_operations and states.
import type { ElementStates, ElementType, Operation } from '../../../../schemas/generated/protocol';
import { hasHref, INTERACTIVE_ROLES } from './roles';

const INTERACTIVE_TAGS = new Set(['button', 'select', 'textarea', 'summary']);

/**
 * Interactive by markup alone (no style needed): a[href], button, input (not hidden), select,
 * textarea, summary, a contenteditable editing host, an interactive ARIA role, tabindex >= 0, an
 * `onclick` content attribute (an inline click handler is the page saying "click me"; browser_use
 * 0.1.48's buildDomTree.js lists these too, reference section 1.12).
 * cursor:pointer and labels of hidden controls are decided by the walker, which has the styles.
 */
/** role: the element's role when it has a role attribute ('' when it has none: only explicit roles count here). */
/**
 * tag: el.localName; attrs: el.hasAttributes() (false skips the attribute checks: the walk asks
 * this of every rendered element, and most have no attributes).
 */
export function isInteractiveByMarkup(el: Element, role: string, tag: string = el.localName, attrs = true): boolean {
  if (INTERACTIVE_TAGS.has(tag)) return true;
  if (tag === 'input') return (el as HTMLInputElement).type !== 'hidden';
  // Options of a listbox <select> (size > 1 or multiple) are rendered rows an agent picks (role option);
  // a dropdown's options have no box until it opens.
  if (tag === 'option') {
    const select = (el as HTMLOptionElement).parentElement?.closest('select');
    return !!select && (select.multiple || select.size > 1);
  }
  if (tag === 'a' || tag === 'area') return attrs && hasHref(el);
  if (attrs) {
    if (INTERACTIVE_ROLES.has(role) && el.hasAttribute('role')) return true;
    const tabindex = el.getAttribute('tabindex');
    if (tabindex !== null && tabindex.trim() !== '' && Number(tabindex) >= 0) return true;
  }
  // Without attributes an element can still be an editing host (designMode).
  if (isEditingHost(el)) return true;
  if (attrs && el.hasAttribute('onclick') && tag !== 'body' && tag !== 'html') return true;
  return false;
}

/**
 * A focus target listed even without a box (Chromium's accessibility tree keeps them: focus reaches
 * them, Enter follows a link): a link, or an element made focusable by tabindex >= 0. Not a form
 * control (a zero-size field is a visually hidden one its label operates, or a honeypot no person
 * sees) and not inside aria-hidden (Chromium leaves those out). tag: el.localName; attrs: el.hasAttributes().
 */
export function focusableWithoutBox(el: Element, tag: string, attrs: boolean): boolean {
  if (!attrs || FORM_CONTROLS.has(tag)) return false;
  const link = tag === 'a' && hasHref(el);
  if (!link) {
    const tabindex = el.getAttribute('tabindex');
    if (tabindex === null || tabindex.trim() === '' || !(Number(tabindex) >= 0)) return false;
  }
  return el.closest('[aria-hidden="true"]') === null;
}

export function isEditingHost(el: Element): boolean {
  const h = el as HTMLElement;
  if (!h.isContentEditable) return false;
  const parent = el.parentElement as HTMLElement | null;
  return !parent || !parent.isContentEditable;
}

export function elementType(el: Element, role: string): ElementType {
  const tag = el.localName;
  if (tag === 'input') {
    const type = (el as HTMLInputElement).type;
    if (type === 'checkbox') return 'CHECKBOX';
    if (type === 'radio') return 'RADIO';
    if (type === 'range') return 'SLIDER';
    if (['submit', 'button', 'reset', 'image', 'file'].includes(type)) return 'BUTTON';
    return 'INPUT_FIELD';
  }
  if (tag === 'textarea') return 'TEXT_AREA';
  if (tag === 'select') return 'SELECT';
  if (tag === 'summary') return 'SUMMARY';
  if (tag === 'iframe') return 'IFRAME';
  switch (role) {
    case 'link':
      return 'LINK';
    case 'button':
      return 'BUTTON';
    case 'checkbox':
    case 'switch':
    case 'menuitemcheckbox':
      return role === 'menuitemcheckbox' ? 'MENU_ITEM' : 'CHECKBOX';
    case 'radio':
      return 'RADIO';
    case 'menuitemradio':
    case 'menuitem':
      return 'MENU_ITEM';
    case 'tab':
      return 'TAB';
    case 'option':
      return 'OPTION';
    case 'slider':
    case 'scrollbar':
      return 'SLIDER';
    case 'combobox':
    case 'listbox':
      return 'SELECT';
    case 'textbox':
    case 'searchbox':
    case 'spinbutton':
      return isEditingHost(el) ? 'CONTENT_EDITABLE' : 'INPUT_FIELD';
    case 'img':
      return 'IMAGE';
    case 'listitem':
      return 'LIST_ITEM';
    default:
      break;
  }
  if (isEditingHost(el)) return 'CONTENT_EDITABLE';
  if (tag === 'img') return 'IMAGE';
  if (tag === 'video') return 'VIDEO';
  return 'OTHER';
}

/**
 * One frozen list per answer, shared by every element that has it: a whole-page state lists
 * thousands of elements, and a list of their own each (two arrays with the spread) is work for the
 * first state's garbage collector (bench/results/cold-walk.md). Frozen: a caller that wants another
 * list makes one (walk.ts filters out click for an element without a box).
 */
const OPS = {
  disabled: ops('read_text'),
  field: ops('click', 'input_text', 'read_value', 'press_key'),
  select: ops('select_option', 'click', 'read_value'),
  checkable: ops('click', 'check', 'uncheck', 'read_value'),
  slider: ops('click', 'read_value', 'press_key'),
  other: ops('click', 'read_text'),
};
// hover, focus and scroll_into_view apply to every listed element (see operation.json); not repeated per element.
function ops(...own: Operation[]): Operation[] {
  return Object.freeze([...own, 'get_attributes']) as Operation[];
}

export function operationsFor(type: ElementType, disabled: boolean): Operation[] {
  if (disabled) return OPS.disabled;
  switch (type) {
    case 'INPUT_FIELD':
    case 'TEXT_AREA':
    case 'CONTENT_EDITABLE':
      return OPS.field;
    case 'SELECT':
      return OPS.select;
    case 'CHECKBOX':
    case 'RADIO':
      return OPS.checkable;
    case 'SLIDER':
      return OPS.slider;
    default:
      return OPS.other;
  }
}

const FORM_CONTROLS = new Set(['button', 'input', 'select', 'textarea', 'optgroup', 'option', 'fieldset']);
const CHECKABLE = new Set(['checkbox', 'radio', 'switch', 'menuitemcheckbox', 'menuitemradio']);

const NO_ATTRIBUTE = () => null;

/**
 * States per WAI-ARIA 1.2 from DOM properties first, aria-* attributes second. hasAria: whether el
 * has any aria-* attribute (false: the seven aria lookups are skipped).
 */
export function statesOf(el: Element, role: string, focused: boolean, hasAria = true): ElementStates {
  const s: ElementStates = {};
  const aria: (n: string) => string | null = hasAria ? (n) => el.getAttribute(n) : NO_ATTRIBUTE;
  if (CHECKABLE.has(role)) {
    if (el instanceof HTMLInputElement && (el.type === 'checkbox' || el.type === 'radio'))
      s.checked = el.indeterminate ? 'mixed' : el.checked;
    else s.checked = aria('aria-checked') === 'mixed' ? 'mixed' : aria('aria-checked') === 'true';
  }
  // The tag first: instanceof walks the prototype chain of every other listed element (an option is always <option>).
  if (el.localName === 'option' && el instanceof HTMLOptionElement) s.selected = el.selected;
  else if (aria('aria-selected') !== null) s.selected = aria('aria-selected') === 'true';
  const expanded = aria('aria-expanded');
  if (expanded !== null) s.expanded = expanded === 'true';
  else if (el.localName === 'summary' && el.parentElement?.localName === 'details')
    s.expanded = (el.parentElement as HTMLDetailsElement).open;
  const pressed = aria('aria-pressed');
  if (pressed !== null && role === 'button') s.pressed = pressed === 'mixed' ? 'mixed' : pressed === 'true';
  // :disabled also covers controls inside a disabled <fieldset>; only form controls can match it.
  // disabled, readOnly and required are properties of form controls only (and of <link>/<style>,
  // which are never listed): any other element is not asked (a missing property is looked up
  // through the whole prototype chain, once per listed link).
  const control = FORM_CONTROLS.has(el.localName);
  if ((control && ((el as HTMLButtonElement).disabled === true || el.matches(':disabled'))) || aria('aria-disabled') === 'true')
    s.disabled = true;
  if ((control && (el as HTMLInputElement).readOnly === true) || aria('aria-readonly') === 'true') s.readonly = true;
  if ((control && (el as HTMLInputElement).required === true) || aria('aria-required') === 'true') s.required = true;
  if (focused) s.focused = true;
  return s;
}
