// drag_and_drop: from an element (or from_point) to an element (to) or a point (to_point).
// Fires the pointer/mouse sequence (down at the source, `steps` moves, up at the destination) and,
// when the source is draggable (draggable=true, links, images, selections), the HTML5 sequence
// dragstart, drag, dragenter/dragover on the drop target, drop (if dragover was cancelled), dragend,
// with one DataTransfer shared by all of them, as Chrome does for a real drag.
import type { DragAndDropParams } from '../../../../schemas/generated/protocol';
import { HOVER_CHECKS, type Point, POINTER_CHECKS } from '../interaction/actionability';
import { nextFrame } from '../interaction/dom';
import { deepElementAt } from '../interaction/hit-test';
import { pointerDown, pointerMove } from '../interaction/pointer';
import { hasTarget, type TargetParams } from '../target';
import { fail, label, ok, prepare } from './common';
import type { PageHandler } from './types';

function isDraggable(el: Element): boolean {
  for (let n: Element | null = el; n; n = n.parentElement) {
    if (n instanceof HTMLElement && n.draggable) return true;
    if (n.getAttribute('draggable') === 'false') return false;
  }
  return false;
}

function dragEvent(type: string, target: Element, p: Point, dt: DataTransfer, cancelable = true): boolean {
  return target.dispatchEvent(
    new DragEvent(type, { bubbles: true, cancelable, composed: true, clientX: p.x, clientY: p.y, dataTransfer: dt, view: window }),
  );
}

function mouse(type: string, target: Element, p: Point, buttons: number): void {
  const init = { bubbles: true, cancelable: true, composed: true, clientX: p.x, clientY: p.y, button: 0, buttons, view: window };
  target.dispatchEvent(
    new PointerEvent(type === 'mouseup' ? 'pointerup' : 'pointermove', { ...init, pointerId: 1, pointerType: 'mouse', isPrimary: true }),
  );
  target.dispatchEvent(new MouseEvent(type, init));
}

export const dragAndDrop: PageHandler = async (ctx, raw) => {
  const p = raw as DragAndDropParams;
  let source: Element;
  let from: Point;
  let sourceLabel: string;
  if (hasTarget(p)) {
    const r = await prepare(ctx, p, POINTER_CHECKS);
    if (!r.ok) return r;
    source = r.hit;
    from = r.point;
    sourceLabel = label(r.id, r.el);
  } else if (p.from_point) {
    from = p.from_point;
    const hit = deepElementAt(from.x, from.y);
    if (!hit)
      return fail(
        'TARGET_ELEMENT_NOT_FOUND',
        `Nothing is at (${from.x}, ${from.y}) to drag from; the point is outside the viewport. Use viewport coordinates or a source element.`,
        { reason: 'no_element_at_point' },
      );
    source = hit;
    sourceLabel = `(${from.x}, ${from.y})`;
  } else return fail('INVALID_MESSAGE', 'drag_and_drop needs a source: a target (element_id, index, role or selector) or from_point.');

  let to: Point;
  let toLabel: string;
  if (p.to) {
    // The worker translates index and frame ids of the top-level target only.
    if (p.to.index !== undefined)
      return fail(
        'INVALID_MESSAGE',
        `drag_and_drop's "to" cannot take an index; use to.element_id (the id listed with [${p.to.index}] in the state), to.role/name or to.selector.`,
        { index: p.to.index },
      );
    const r = await prepare(ctx, { ...(p.to as TargetParams), timeout_ms: p.timeout_ms, force: p.force }, HOVER_CHECKS);
    if (!r.ok) return r;
    to = r.point;
    toLabel = label(r.id, r.el);
  } else if (p.to_point) {
    to = p.to_point;
    toLabel = `(${to.x}, ${to.y})`;
  } else return fail('INVALID_MESSAGE', 'drag_and_drop needs a destination: to (a target) or to_point.');

  const steps = p.steps ?? 5;
  const html5 = isDraggable(source);
  const dt = new DataTransfer();
  pointerMove(source, from);
  pointerDown(source, from, [], 'left', 1);
  let accepted = false;
  let over: Element | null = null;
  if (html5) {
    if (!dragEvent('dragstart', source, from, dt)) {
      // The page cancelled dragstart: no drag happens; the mouse is still released.
      mouse('mouseup', source, from, 0);
      return ok(`The page refused to start dragging ${sourceLabel} (dragstart was cancelled).`, {
        from,
        to,
        html5: true,
        drop_accepted: false,
      });
    }
  }
  for (let i = 1; i <= steps; i++) {
    const pt = { x: from.x + ((to.x - from.x) * i) / steps, y: from.y + ((to.y - from.y) * i) / steps };
    const under = deepElementAt(pt.x, pt.y) ?? document.body;
    if (html5) {
      dragEvent('drag', source, pt, dt);
      if (under !== over) {
        if (over) dragEvent('dragleave', over, pt, dt, false);
        dragEvent('dragenter', under, pt, dt);
        over = under;
      }
      // Cancelling dragover is how a drop target says it accepts the drop.
      accepted = !dragEvent('dragover', under, pt, dt);
    } else {
      mouse('mousemove', under, pt, 1);
    }
    await nextFrame();
  }
  const end = deepElementAt(to.x, to.y) ?? document.body;
  if (html5) {
    if (accepted) dragEvent('drop', end, to, dt);
    else if (over) dragEvent('dragleave', over, to, dt, false);
    dragEvent('dragend', source, to, dt, false);
  } else {
    mouse('mouseup', end, to, 0);
  }
  return ok(`🖱️ Dragged ${sourceLabel} to ${toLabel}${html5 && !accepted ? ' (the drop target did not accept the drop)' : ''}.`, {
    from,
    to,
    html5,
    ...(html5 ? { drop_accepted: accepted } : {}),
  });
};
