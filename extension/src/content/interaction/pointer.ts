// Synthetic pointer and mouse sequences in the order Chrome fires them for a real mouse
// (https://w3c.github.io/pointerevents/#the-pointerdown-event, UI Events "mouse event order"):
//   move:  pointerover, pointerenter, mouseover, mouseenter, pointermove, mousemove
//   press: pointerdown, mousedown, (focus), pointerup, mouseup, click | auxclick | contextmenu
// Only `click` runs activation behaviour for untrusted events (links, checkboxes, submit buttons),
// so focus is moved by hand after mousedown, as the browser's default action would.
import type { Modifier } from '../../shared/keys';
import type { Point } from './actionability';
import { deepActiveElement, focusableAncestor } from './dom';

export type Button = 'left' | 'right' | 'middle';
const BUTTON_CODE: Record<Button, number> = { left: 0, middle: 1, right: 2 };
const BUTTONS_MASK: Record<Button, number> = { left: 1, middle: 4, right: 2 };

function modifierInit(mods: readonly Modifier[]) {
  return {
    altKey: mods.includes('Alt'),
    ctrlKey: mods.includes('Control'),
    metaKey: mods.includes('Meta'),
    shiftKey: mods.includes('Shift'),
  };
}

function mouseInit(p: Point, mods: readonly Modifier[], button: number, buttons: number, detail: number): MouseEventInit {
  return {
    bubbles: true,
    cancelable: true,
    composed: true,
    view: window,
    clientX: p.x,
    clientY: p.y,
    screenX: p.x + window.screenX,
    screenY: p.y + window.screenY,
    button,
    buttons,
    detail,
    ...modifierInit(mods),
  };
}

function pointer(type: string, target: Element, init: MouseEventInit, bubbles = true): boolean {
  return target.dispatchEvent(
    new PointerEvent(type, {
      ...init,
      bubbles,
      cancelable: bubbles,
      pointerId: 1,
      pointerType: 'mouse',
      isPrimary: true,
      width: 1,
      height: 1,
      pressure: init.buttons ? 0.5 : 0,
    }),
  );
}

function mouse(type: string, target: Element, init: MouseEventInit, bubbles = true): boolean {
  return target.dispatchEvent(new MouseEvent(type, { ...init, bubbles, cancelable: bubbles && type !== 'mouseenter' }));
}

/** Moves the pointer onto target at p (the hover sequence). */
export function pointerMove(target: Element, p: Point, mods: readonly Modifier[] = [], buttons = 0): void {
  const init = mouseInit(p, mods, 0, buttons, 0);
  pointer('pointerover', target, init);
  pointer('pointerenter', target, init, false);
  mouse('mouseover', target, init);
  mouse('mouseenter', target, init, false);
  pointer('pointermove', target, init);
  mouse('mousemove', target, init);
}

/** pointerdown + mousedown, then focus like the browser's default action (unless mousedown was cancelled). */
export function pointerDown(target: Element, p: Point, mods: readonly Modifier[], button: Button, detail: number): void {
  const init = mouseInit(p, mods, BUTTON_CODE[button], BUTTONS_MASK[button], detail);
  const pointerOk = pointer('pointerdown', target, init);
  // A cancelled pointerdown suppresses the compatibility mouse events (Pointer Events 11.1).
  const mouseOk = pointerOk ? mouse('mousedown', target, init) : true;
  if (mouseOk && button !== 'middle') {
    const focusTarget = focusableAncestor(target);
    if (focusTarget) {
      if (deepActiveElement() !== focusTarget) focusTarget.focus({ preventScroll: true });
    } else {
      const active = deepActiveElement();
      if (active instanceof HTMLElement && active !== document.body) active.blur();
    }
  }
}

export function pointerUp(target: Element, p: Point, mods: readonly Modifier[], button: Button, detail: number): void {
  const init = mouseInit(p, mods, BUTTON_CODE[button], 0, detail);
  const pointerOk = pointer('pointerup', target, init);
  if (pointerOk) mouse('mouseup', target, init);
  if (button === 'left') mouse('click', target, init);
  else if (button === 'middle') mouse('auxclick', target, init);
  else mouse('contextmenu', target, { ...init, buttons: 0 });
}

/** A full click: hover, then clickCount press/release pairs (detail 1..n); dblclick after the second. */
export function clickAt(
  target: Element,
  p: Point,
  opts: { button?: Button; clickCount?: number; modifiers?: readonly Modifier[] } = {},
): void {
  const button = opts.button ?? 'left';
  const mods = opts.modifiers ?? [];
  pointerMove(target, p, mods);
  const count = opts.clickCount ?? 1;
  for (let i = 1; i <= count; i++) {
    pointerDown(target, p, mods, button, i);
    pointerUp(target, p, mods, button, i);
    if (i === 2 && button === 'left') mouse('dblclick', target, mouseInit(p, mods, 0, 0, 2));
  }
}
