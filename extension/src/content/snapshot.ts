// A basic simplified_state of the document (seed 004 section 1): the visible interactive
// elements in depth-first order, each with a stable ref.
import type { ActionableElement, ElementType, Operation, SimplifiedState } from '../../../schemas/generated/protocol';
import type { RefRegistry } from './refs';

const INTERACTIVE_SELECTOR = [
  'a[href]', 'button', 'input:not([type=hidden])', 'select', 'textarea', 'summary', '[contenteditable=""]', '[contenteditable=true]',
  '[role=button]', '[role=link]', '[role=checkbox]', '[role=radio]', '[role=switch]', '[role=tab]', '[role=menuitem]',
  '[role=option]', '[role=combobox]', '[role=textbox]', '[tabindex]:not([tabindex^="-"])',
].join(',');

const SHOWN_ATTRIBUTES = ['id', 'name', 'type', 'role', 'href', 'title', 'placeholder', 'aria-label', 'alt', 'value'];

export function isVisible(el: Element): boolean {
  if (!el.isConnected) return false;
  const rect = el.getBoundingClientRect();
  if (rect.width === 0 || rect.height === 0) return false;
  return el.checkVisibility({ checkOpacity: false, checkVisibilityCSS: true });
}

function elementType(el: Element): ElementType {
  const tag = el.localName;
  const role = el.getAttribute('role');
  if (tag === 'a' || role === 'link') return 'LINK';
  if (tag === 'button' || role === 'button') return 'BUTTON';
  if (tag === 'select') return 'SELECT';
  if (tag === 'textarea') return 'TEXT_AREA';
  if (tag === 'input') {
    const type = (el as HTMLInputElement).type;
    if (type === 'checkbox') return 'CHECKBOX';
    if (type === 'radio') return 'RADIO';
    if (type === 'submit' || type === 'button' || type === 'reset' || type === 'image') return 'BUTTON';
    return 'INPUT_FIELD';
  }
  if (role === 'checkbox' || role === 'switch') return 'CHECKBOX';
  if (role === 'radio') return 'RADIO';
  if (role === 'tab') return 'TAB';
  if (role === 'menuitem') return 'MENU_ITEM';
  if (role === 'option') return 'OPTION';
  if (tag === 'summary') return 'SUMMARY';
  if ((el as HTMLElement).isContentEditable) return 'CONTENT_EDITABLE';
  return 'OTHER';
}

function operationsFor(type: ElementType): Operation[] {
  switch (type) {
    case 'INPUT_FIELD':
    case 'TEXT_AREA':
    case 'CONTENT_EDITABLE':
      return ['click', 'input_text', 'read_value', 'get_attributes'];
    case 'SELECT':
      return ['select_option', 'read_value', 'get_attributes'];
    case 'CHECKBOX':
    case 'RADIO':
      return ['click', 'check', 'uncheck', 'read_value', 'get_attributes'];
    default:
      return ['click', 'read_text', 'get_attributes'];
  }
}

const collapse = (s: string) => s.replace(/\s+/g, ' ').trim();

export function takeSnapshot(refs: RefRegistry): SimplifiedState {
  const elements: ActionableElement[] = [];
  for (const el of document.body ? document.body.querySelectorAll(INTERACTIVE_SELECTOR) : []) {
    if (!isVisible(el)) continue;
    const type = elementType(el);
    const attributes: Record<string, string> = {};
    for (const name of SHOWN_ATTRIBUTES) {
      const v = el.getAttribute(name);
      if (v !== null) attributes[name] = v;
    }
    const item: ActionableElement = { id: refs.refFor(el), type, tag: el.localName, attributes, is_visible: true, available_operations: operationsFor(type) };
    const text = collapse((el as HTMLElement).innerText ?? el.textContent ?? '');
    if (text) item.text_content = text.slice(0, 200);
    if (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement || el instanceof HTMLSelectElement) {
      if (!(el instanceof HTMLInputElement && el.type === 'password')) item.current_value = el.value;
    }
    elements.push(item);
  }
  const active = document.activeElement;
  const activeRef = active && active !== document.body ? elements.find((e) => e.id === refs.refFor(active))?.id ?? null : null;
  return {
    url: location.href,
    title: document.title,
    active_element_id: activeRef,
    actionable_elements: elements,
    scroll_position: { x: window.scrollX, y: window.scrollY },
    viewport_dimensions: { width: window.innerWidth, height: window.innerHeight },
  };
}
