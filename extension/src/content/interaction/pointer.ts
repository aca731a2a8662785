// Synthetic pointer and mouse sequences in the order Chromium on Linux fires them for a real mouse
// (https://w3c.github.io/pointerevents/#the-pointerdown-event, UI Events "mouse event order"; the
// order, buttons and detail below were measured with Input.dispatchMouseEvent in Chromium):
//   move:    (pointerout, pointerleave...) pointerover, pointerenter..., (mouseout, mouseleave...) mouseover,
//            mouseenter..., pointermove, mousemove: enter/leave on every element entered/left
//   press:   pointerdown, mousedown, (focus), contextmenu (right button: on press, as on Linux/macOS;
//            Windows fires it after mouseup)
//   release: pointerup, mouseup, click (left) | auxclick (middle, right), dblclick after the 2nd click
// Each of move, press and release is its own task, as each real input event is (tasks.ts): work a
// page schedules in mousedown (a microtask, a MutationObserver callback, a setTimeout(0) or a message)
// runs before mouseup, never after the whole click. Pointer events carry detail 0; mouse events the click count.
// Only `click` runs activation behaviour for untrusted events (links, checkboxes, submit buttons),
// so focus is moved by hand after mousedown, as the browser's default action would.
import type { Modifier } from '../../shared/keys';
import type { Point } from './actionability';
import { composedParent, deepActiveElement, focusableAncestor } from './dom';
import { nextTask } from './tasks';

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

function pointer(type: string, target: Element | Document, init: MouseEventInit, bubbles = true): boolean {
  return target.dispatchEvent(
    new PointerEvent(type, {
      ...init,
      detail: 0,
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

function mouse(type: string, target: Element | Document, init: MouseEventInit, bubbles = true): boolean {
  return target.dispatchEvent(new MouseEvent(type, { ...init, bubbles, cancelable: bubbles && type !== 'mouseenter' }));
}

/** The element the synthetic pointer of this frame is over (the last move's target), as the
 * browser remembers the element under a real pointer. */
let under: WeakRef<Element> | null = null;

/** Parent in the flat tree (a slotted node's slot, a shadow root's host): the tree the browser's
 * boundary events walk (Chromium's BoundaryEventDispatcher builds its ancestor chains so). */
const flatParent = (n: Element): Element | null => n.assignedSlot ?? composedParent(n);

/** el, its flat-tree ancestors and the document, innermost first (Chromium's chain ends at the
 * document node: a pointer coming into the page enters it too). */
function chain(el: Element | null): (Element | Document)[] {
  const out: (Element | Document)[] = [];
  for (let n = el; n; n = flatParent(n)) out.push(n);
  if (el) out.push(el.ownerDocument);
  return out;
}

/**
 * The boundary events of one pointer kind when the pointer goes from `from` (null: from outside
 * the document) onto `to`, as UI Events and Pointer Events order them and Chromium dispatches them:
 * out on what it left, leave on each element it left (innermost first, up to the common ancestor),
 * over on the new element, enter on each element it entered (outermost first, down to the new one).
 */
function boundary(kind: 'pointer' | 'mouse', from: Element | null, to: Element, init: MouseEventInit): void {
  const send = kind === 'pointer' ? pointer : mouse;
  const left = chain(from);
  const entered = chain(to);
  const common = left.find((n) => entered.includes(n)) ?? null;
  if (from) {
    send(`${kind}out`, from, { ...init, relatedTarget: to });
    for (const n of left) {
      if (n === common) break;
      send(`${kind}leave`, n, { ...init, relatedTarget: to }, false);
    }
  }
  send(`${kind}over`, to, { ...init, relatedTarget: from });
  const into = common ? entered.slice(0, entered.indexOf(common)) : entered;
  for (const n of into.reverse()) send(`${kind}enter`, n, { ...init, relatedTarget: from }, false);
}

/**
 * Moves the pointer onto target at p (the hover sequence): the boundary events when it comes from
 * another element (pointer kind first, then the compatibility mouse events), then the moves.
 * Playwright's hover moves a real pointer, so a page's mouseenter on a menu's wrapper runs as well
 * as the one on the item, and the element it left hears mouseleave.
 */
export function pointerMove(target: Element, p: Point, mods: readonly Modifier[] = [], buttons = 0): void {
  const init = mouseInit(p, mods, 0, buttons, 0);
  const was = under?.deref() ?? null;
  if (was !== target) {
    const from = was?.isConnected ? was : null;
    boundary('pointer', from, target, init);
    boundary('mouse', from, target, init);
  }
  under = new WeakRef(target);
  pointer('pointermove', target, init);
  mouse('mousemove', target, init);
}

/**
 * pointerdown + mousedown, then focus like the browser's default action (unless mousedown was
 * cancelled); for the right button, contextmenu right after (Chromium on Linux fires it on press).
 */
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
  // contextmenu is not a compatibility mouse event: it comes even when pointerdown or mousedown was
  // cancelled. Chromium gives it the pressed button and detail 0.
  if (button === 'right') mouse('contextmenu', target, { ...init, detail: 0 });
}

/** pointerup + mouseup, then click (left) or auxclick (middle, right), as Chromium does on release. */
export function pointerUp(target: Element, p: Point, mods: readonly Modifier[], button: Button, detail: number): void {
  const init = mouseInit(p, mods, BUTTON_CODE[button], 0, detail);
  const pointerOk = pointer('pointerup', target, init);
  if (pointerOk) mouse('mouseup', target, init);
  mouse(button === 'left' ? 'click' : 'auxclick', target, init);
}

/**
 * A full click: hover, then clickCount press/release pairs (detail 1..n); dblclick after the second
 * left release. Move, each press and each release go in separate tasks (see the top of this file).
 */
export async function clickAt(
  target: Element,
  p: Point,
  opts: { button?: Button; clickCount?: number; modifiers?: readonly Modifier[] } = {},
): Promise<void> {
  const button = opts.button ?? 'left';
  const mods = opts.modifiers ?? [];
  pointerMove(target, p, mods);
  const count = opts.clickCount ?? 1;
  for (let i = 1; i <= count; i++) {
    await nextTask();
    pointerDown(target, p, mods, button, i);
    await nextTask();
    pointerUp(target, p, mods, button, i);
    if (i === 2 && button === 'left') mouse('dblclick', target, mouseInit(p, mods, 0, 0, 2));
  }
}
