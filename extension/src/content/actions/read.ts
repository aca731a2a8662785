// get and is (seed 001): read text/value/attribute/html/title/url/count/box, and check
// visible/enabled/checked/editable/focused. Reading never needs actionability; `is visible` of a
// role/selector that matches nothing is false (Playwright's isVisible), every other check needs the element.
import type { Bounds, GetParams, IsParams } from '../../../../schemas/generated/protocol';
import { isDisabled, isEditable } from '../interaction/actionability';
import { composedContains, deepActiveElement, isVisible } from '../interaction/dom';
import {
  DEFAULT_PRIVACY,
  readableAttribute,
  readableElementText,
  readableHtml,
  readableValue,
  redactCardNumbers,
  sensitiveReason,
} from '../snapshot/privacy';
import { findAll, hasTarget, resolveTarget } from '../target';
import { checkedState } from './check';
import { fail, label, ok } from './common';
import type { PageHandler } from './types';

const MAX_HTML = 200_000;

export const get: PageHandler = (ctx, raw) => {
  const p = raw as GetParams;
  if (p.what === 'title') return ok(document.title, { value: document.title }, false);
  if (p.what === 'url') return ok(location.href, { value: location.href }, false);
  if (p.what === 'count') {
    if (p.role === undefined && p.selector === undefined)
      return fail('INVALID_MESSAGE', 'get count needs a role (+ name) or a selector to count.');
    const all = findAll(p);
    if (!all.ok) return all;
    return ok(`${all.elements.length} elements match.`, { value: all.elements.length }, false);
  }
  if (!hasTarget(p)) return fail('INVALID_MESSAGE', `get ${p.what} needs a target (element_id, index, role or selector).`);
  const t = resolveTarget(ctx, p);
  if (!t.ok) return t;
  const el = t.element;
  switch (p.what) {
    case 'text': {
      const text = readableElementText(el, (el as HTMLElement).innerText ?? el.textContent ?? '');
      return ok(text, { value: text }, false);
    }
    case 'value': {
      // A password field, also one a "show password" button switched to text (privacy.ts).
      const reason = sensitiveReason(el, DEFAULT_PRIVACY);
      if (reason === 'password')
        return fail('NOT_PERMITTED', `${label(t.elementId, el)} is a password field; its value never leaves the page.`, {
          element_id: t.elementId,
        });
      // The same filter as the snapshot (privacy.ts): card, CVC, one-time codes and PINs are withheld.
      if (reason)
        return ok(
          `${label(t.elementId, el)} holds a ${reason.replace(/_/g, ' ')}; its value is withheld.`,
          { value: readableValue(el, '').value },
          false,
        );
      if (
        el instanceof HTMLInputElement ||
        el instanceof HTMLTextAreaElement ||
        el instanceof HTMLSelectElement ||
        el instanceof HTMLOptionElement ||
        el instanceof HTMLButtonElement ||
        el instanceof HTMLOutputElement
      ) {
        const v = redactCardNumbers(el.value);
        return ok(v, { value: v }, false);
      }
      if ((el as HTMLElement).isContentEditable) {
        const v = readableElementText(el, (el as HTMLElement).innerText);
        return ok(v, { value: v }, false);
      }
      return fail(
        'TARGET_ELEMENT_NOT_INTERACTABLE',
        `${label(t.elementId, el)} has no value (it is not an input, textarea, select or contenteditable). Use what=text.`,
        { element_id: t.elementId, check: 'has_value' },
      );
    }
    case 'attribute': {
      if (!p.attribute) return fail('INVALID_MESSAGE', 'get attribute needs "attribute" (the attribute name).');
      const raw = el.getAttribute(p.attribute);
      const v = raw === null ? null : readableAttribute(el, p.attribute, raw);
      return ok(v === null ? `${label(t.elementId, el)} has no ${p.attribute} attribute.` : v, { value: v }, false);
    }
    case 'html': {
      const full = readableHtml(el);
      const html = full.length > MAX_HTML ? `${full.slice(0, MAX_HTML)}…` : full;
      return ok(html, { value: html }, false);
    }
    case 'box': {
      // Playwright's boundingBox: null exactly when the element has no layout box (DOM.getBoxModel
      // fails there); a visibility:hidden or zero-size element still has one. Measured in this
      // frame's viewport: the worker adds the frame's place on the page (background/page-watch/frame-box.ts).
      if (el.getClientRects().length === 0) return ok(`${label(t.elementId, el)} has no box (it is not rendered).`, { value: null }, false);
      const r = el.getBoundingClientRect();
      const box: Bounds = { x: r.x, y: r.y, width: r.width, height: r.height };
      return ok(`${label(t.elementId, el)} is ${box.width}x${box.height} px.`, { value: box }, false);
    }
  }
  return fail('INVALID_MESSAGE', `Unknown get what=${String(p.what)}.`);
};

export const is: PageHandler = (ctx, raw) => {
  const p = raw as IsParams;
  const t = resolveTarget(ctx, p);
  if (!t.ok) {
    if (p.what === 'visible' && t.error.error_code === 'TARGET_ELEMENT_NOT_FOUND')
      return ok('false (no such element)', { value: false }, false);
    return t;
  }
  const el = t.element;
  let value: boolean;
  switch (p.what) {
    case 'visible':
      value = isVisible(el);
      break;
    case 'enabled':
      value = !isDisabled(el);
      break;
    case 'editable':
      value = isEditable(el);
      break;
    case 'focused':
      value = composedContains(el, deepActiveElement()) && deepActiveElement() === el;
      break;
    case 'checked': {
      const c = checkedState(el);
      if (c === null)
        return fail(
          'TARGET_ELEMENT_NOT_INTERACTABLE',
          `${label(t.elementId, el)} is not a checkbox, radio or switch, so it has no checked state.`,
          { element_id: t.elementId, check: 'checkable' },
        );
      value = c;
      break;
    }
    default:
      return fail('INVALID_MESSAGE', `Unknown is what=${String(p.what)}.`);
  }
  return ok(String(value), { value }, false);
};
