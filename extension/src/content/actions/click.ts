// click: resolves the ref, checks the element can take a click, then dispatches the event
// sequence a real mouse produces at the element's centre.
import type { ErrorInfo } from '../../../../schemas/generated/protocol';
import { errorInfo } from '../../../../schemas/lib/errors';
import type { RefRegistry } from '../refs';
import { isVisible } from '../snapshot';

export type Outcome<T> = { ok: true; value: T; message: string } | { ok: false; error: ErrorInfo };

export function resolveTarget(refs: RefRegistry, elementId: string): { ok: true; element: Element } | { ok: false; error: ErrorInfo } {
  const found = refs.resolve(elementId);
  if (found.ok) return found;
  const message =
    found.reason === 'stale'
      ? `Element ${elementId} is stale: it was removed from the page after the state that listed it. Take a new state (get_state) and use an id from it.`
      : `Element ${elementId} is not in this page's state: it was never listed here (or the page navigated). Take a new state (get_state) and use an id from it.`;
  return { ok: false, error: errorInfo('TARGET_ELEMENT_NOT_FOUND', message, 'content_script', { element_id: elementId, reason: found.reason, current_url: location.href }) };
}

export function click(refs: RefRegistry, elementId: string): Outcome<Record<string, never>> {
  const target = resolveTarget(refs, elementId);
  if (!target.ok) return target;
  const el = target.element;
  if (!isVisible(el)) {
    return { ok: false, error: errorInfo('TARGET_ELEMENT_NOT_INTERACTABLE', `Element ${elementId} <${el.localName}> is not visible, so it cannot be clicked. Scroll or open the part of the page that shows it, take a new state, and retry.`, 'content_script', { element_id: elementId, check: 'visible' }) };
  }
  if ((el as HTMLButtonElement).disabled === true) {
    return { ok: false, error: errorInfo('TARGET_ELEMENT_NOT_INTERACTABLE', `Element ${elementId} <${el.localName}> is disabled. Complete what enables it first (for example required fields), then take a new state.`, 'content_script', { element_id: elementId, check: 'enabled' }) };
  }
  el.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' });
  const rect = el.getBoundingClientRect();
  const x = rect.left + rect.width / 2;
  const y = rect.top + rect.height / 2;
  const common = { bubbles: true, cancelable: true, composed: true, view: window, clientX: x, clientY: y, button: 0 };
  el.dispatchEvent(new PointerEvent('pointerdown', { ...common, pointerId: 1, pointerType: 'mouse', isPrimary: true, buttons: 1 }));
  el.dispatchEvent(new MouseEvent('mousedown', { ...common, buttons: 1, detail: 1 }));
  if (el instanceof HTMLElement) el.focus({ preventScroll: true });
  el.dispatchEvent(new PointerEvent('pointerup', { ...common, pointerId: 1, pointerType: 'mouse', isPrimary: true, buttons: 0 }));
  el.dispatchEvent(new MouseEvent('mouseup', { ...common, buttons: 0, detail: 1 }));
  el.dispatchEvent(new MouseEvent('click', { ...common, buttons: 0, detail: 1 }));
  return { ok: true, value: {}, message: `Clicked ${elementId} <${el.localName}>.` };
}
