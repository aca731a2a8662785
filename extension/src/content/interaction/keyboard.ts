// Key presses as Chrome dispatches them (UI Events key order): keydown, keypress (keys that produce
// a character, and Enter), beforeinput/input (the edit), keyup; modifiers go down first and up last.
// Task boundaries as with real input (tasks.ts): the page's microtasks from keydown run before
// keypress, its setTimeout(0) from keydown after the edit; keyup and every modifier key are events
// of their own, each in a later task.
// Synthetic key events do nothing by default, so the default actions a person relies on are done
// here when the page did not cancel keydown: text insertion, Enter (implicit form submission via
// requestSubmit, or activating a focused button/link, a newline in textareas and contenteditable),
// Tab/Shift+Tab (focus moves in sequential focus order), Backspace/Delete, Control/Meta+A (select all),
// arrows/Home/End (caret), Space (clicks a focused button/checkbox/radio on keyup).
import { type Chord, insertedText, type KeyDef, keyForChar, type Modifier, modifierKey } from '../../shared/keys';
import { composedParent, deepActiveElement, isVisible, sleep } from './dom';
import { deleteText, fireChange, fireInput, insertText, isTextField, moveCaret, selectAll } from './editing';
import { afterMicrotasks, nextTask } from './tasks';

function keyEvent(type: string, target: Element, def: KeyDef, mods: readonly Modifier[], repeat = false): boolean {
  const charCode = type === 'keypress' ? (def.text ? def.text.charCodeAt(0) : 0) : 0;
  const init: KeyboardEventInit & { keyCode: number; which: number; charCode: number } = {
    bubbles: true,
    cancelable: true,
    composed: true,
    view: window,
    key: def.key,
    code: def.code,
    location: def.location,
    repeat,
    altKey: mods.includes('Alt'),
    ctrlKey: mods.includes('Control'),
    metaKey: mods.includes('Meta'),
    shiftKey: mods.includes('Shift'),
    keyCode: type === 'keypress' ? charCode : def.keyCode,
    which: type === 'keypress' ? charCode : def.keyCode,
    charCode,
  };
  return target.dispatchEvent(new KeyboardEvent(type, init));
}

/** Where key events go: the focused element (inside shadow roots), else the body. */
export function keyTarget(): Element {
  return deepActiveElement() ?? document.body ?? document.documentElement;
}

// --- default actions ----------------------------------------------------------------------------

const TABBABLE =
  'a[href], area[href], button, input, select, textarea, summary, iframe, [tabindex], [contenteditable=""], [contenteditable="true"]';

function tabIndexOf(el: Element): number {
  const attr = el.getAttribute('tabindex');
  if (attr !== null && attr.trim() !== '' && !Number.isNaN(Number(attr))) return Number(attr);
  return 0;
}

/** Sequential focus order (HTML 6.6.3): positive tabindex ascending, then tabindex 0 in tree order. */
export function tabOrder(): HTMLElement[] {
  const found: HTMLElement[] = [];
  const visit = (root: Document | ShadowRoot) => {
    for (const el of root.querySelectorAll('*')) {
      if (
        el.matches(TABBABLE) &&
        el instanceof HTMLElement &&
        tabIndexOf(el) >= 0 &&
        !el.matches(':disabled') &&
        !(el instanceof HTMLInputElement && el.type === 'hidden') &&
        isVisible(el) &&
        !el.closest('[inert]')
      )
        found.push(el);
      if (el.shadowRoot) visit(el.shadowRoot);
    }
  };
  visit(document);
  // Radios of one group: only the checked one (or the first) is a tab stop.
  const seenGroups = new Set<string>();
  const filtered = found.filter((el) => {
    if (!(el instanceof HTMLInputElement) || el.type !== 'radio' || !el.name) return true;
    const key = `${el.form ? 'f' : 'd'}:${el.name}`;
    const group = found.filter(
      (o) => o instanceof HTMLInputElement && o.type === 'radio' && o.name === el.name && o.form === el.form,
    ) as HTMLInputElement[];
    const stop = group.find((r) => r.checked) ?? group[0];
    if (stop !== el || seenGroups.has(key)) return false;
    seenGroups.add(key);
    return true;
  });
  const positive = filtered.filter((e) => tabIndexOf(e) > 0).sort((a, b) => tabIndexOf(a) - tabIndexOf(b));
  return [...positive, ...filtered.filter((e) => tabIndexOf(e) === 0)];
}

function moveFocus(from: Element, backward: boolean): void {
  const order = tabOrder();
  if (order.length === 0) return;
  let i = order.indexOf(from as HTMLElement);
  if (i < 0) {
    // Focus is on something outside the order (body, a tabindex=-1 element): continue from its position.
    const after = order.findIndex((el) => from.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING);
    i = backward ? (after < 0 ? order.length : after) : after < 0 ? -1 : after - 1;
  }
  const next = order[(i + (backward ? -1 : 1) + order.length) % order.length];
  if (!next) return;
  next.focus();
  if (isTextField(next)) {
    try {
      next.select();
    } catch {
      // not selectable
    }
  }
}

const SUBMIT_BLOCKING_TYPES = new Set(['button', 'checkbox', 'radio', 'file', 'image', 'reset', 'submit', 'color', 'range']);

/** HTML's implicit submission (4.10.21.2): Enter in a single-line field submits the form. */
function implicitSubmit(input: HTMLInputElement): void {
  const form = input.form;
  if (!form || SUBMIT_BLOCKING_TYPES.has(input.type)) return;
  const defaultButton = [...form.elements].find(
    (e) =>
      (e instanceof HTMLButtonElement && e.type === 'submit') ||
      (e instanceof HTMLInputElement && (e.type === 'submit' || e.type === 'image')),
  ) as HTMLElement | undefined;
  if (defaultButton) {
    if (!(defaultButton as HTMLButtonElement).disabled) defaultButton.click();
    return;
  }
  const blocking = [...form.elements].filter(
    (e) => e instanceof HTMLInputElement && !SUBMIT_BLOCKING_TYPES.has(e.type) && e.type !== 'hidden',
  );
  if (blocking.length <= 1) form.requestSubmit();
}

function isActivatable(el: Element): boolean {
  return (
    el instanceof HTMLButtonElement ||
    (el instanceof HTMLAnchorElement && el.hasAttribute('href')) ||
    el.localName === 'summary' ||
    (el instanceof HTMLInputElement && ['button', 'submit', 'reset', 'image', 'checkbox', 'radio'].includes(el.type)) ||
    ['button', 'link', 'checkbox', 'radio', 'switch', 'menuitem', 'tab', 'option'].includes(el.getAttribute('role') ?? '')
  );
}

/** Arrow keys on a focused closed <select> change the choice (Windows/Linux behaviour), firing input and change. */
function stepSelect(select: HTMLSelectElement, key: string): void {
  const enabled = [...select.options].filter((o) => !o.disabled);
  if (enabled.length === 0) return;
  const current = enabled.indexOf(select.options[select.selectedIndex] as HTMLOptionElement);
  const next =
    key === 'Home'
      ? 0
      : key === 'End'
        ? enabled.length - 1
        : Math.min(enabled.length - 1, Math.max(0, current + (key === 'ArrowDown' ? 1 : -1)));
  const option = enabled[next];
  if (!option || option.selected) return;
  option.selected = true;
  fireInput(select, 'insertReplacementText', null);
  fireChange(select);
}

function defaultAction(target: Element, chord: Chord, text: string): void {
  const key = chord.key.key;
  const mods = chord.modifiers;
  const shortcut = mods.includes('Control') || mods.includes('Meta');
  if (shortcut && (key === 'a' || key === 'A')) return selectAll(target);
  if (key === 'Tab' && !mods.includes('Control') && !mods.includes('Alt') && !mods.includes('Meta'))
    return moveFocus(target, mods.includes('Shift'));
  if (key === 'Enter' && !shortcut) {
    if (target instanceof HTMLTextAreaElement) {
      insertText(target, '\n', 'insertLineBreak', true);
      return;
    }
    if (target instanceof HTMLInputElement && !['checkbox', 'radio', 'button', 'submit', 'reset', 'image'].includes(target.type))
      return implicitSubmit(target);
    if ((target as HTMLElement).isContentEditable) {
      insertText(target, '\n', mods.includes('Shift') ? 'insertLineBreak' : 'insertParagraph', true);
      return;
    }
    if (isActivatable(target) && !(target instanceof HTMLInputElement && (target.type === 'checkbox' || target.type === 'radio')))
      (target as HTMLElement).click();
    return;
  }
  if (key === 'Backspace' || key === 'Delete') {
    deleteText(target, key === 'Backspace' ? 'backward' : 'forward');
    return;
  }
  if (target instanceof HTMLSelectElement && !target.multiple && ['ArrowUp', 'ArrowDown', 'Home', 'End'].includes(key)) {
    stepSelect(target, key);
    return;
  }
  if (['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown', 'Home', 'End'].includes(key) && isTextField(target)) {
    moveCaret(target, key, mods.includes('Shift'));
    return;
  }
  if (!shortcut && !mods.includes('Alt') && scrollByKey(target, key, mods.includes('Shift'))) return;
  if (text) insertText(target, text, 'insertText', true);
}

const SCROLL_KEYS = new Set(['PageDown', 'PageUp', 'ArrowDown', 'ArrowUp', 'ArrowLeft', 'ArrowRight', 'Home', 'End', ' ']);
/** Chromium's steps: an arrow scrolls 40 px, a page 87.5% of the scroller's visible size. */
const LINE_STEP = 40;
const PAGE_FRACTION = 0.875;

function canScroll(el: Element, dx: number, dy: number): boolean {
  if (el !== document.scrollingElement) {
    const style = getComputedStyle(el);
    const axis = dy !== 0 ? style.overflowY : style.overflowX;
    if (axis !== 'auto' && axis !== 'scroll') return false;
  }
  if (dy > 0) return el.scrollTop + el.clientHeight < el.scrollHeight - 1;
  if (dy < 0) return el.scrollTop > 0;
  if (dx > 0) return el.scrollLeft + el.clientWidth < el.scrollWidth - 1;
  return el.scrollLeft > 0;
}

/**
 * The scrolling keys' default action where they do not edit or choose (PageDown/PageUp, Space and
 * Shift+Space, arrows, Home/End on the page or a focused button or link): the nearest ancestor
 * that can scroll that way scrolls, else the page. Real keys do this in the browser; synthetic ones
 * would leave the page where it was.
 */
function scrollByKey(target: Element, key: string, shift: boolean): boolean {
  if (!SCROLL_KEYS.has(key)) return false;
  if (
    target instanceof HTMLInputElement ||
    target instanceof HTMLTextAreaElement ||
    target instanceof HTMLSelectElement ||
    (target as HTMLElement).isContentEditable ||
    (key === ' ' && isActivatable(target))
  )
    return false;
  const page = key === 'PageDown' || key === 'PageUp' || key === ' ';
  const sign = key === 'PageUp' || key === 'ArrowUp' || key === 'ArrowLeft' || key === 'Home' || (key === ' ' && shift) ? -1 : 1;
  const horizontal = key === 'ArrowLeft' || key === 'ArrowRight';
  const probeX = horizontal ? sign : 0;
  const probeY = horizontal ? 0 : sign;
  let scroller: Element | null = null;
  for (let n: Element | null = target; n; n = composedParent(n)) {
    if (n === document.body || n === document.documentElement) break;
    if (canScroll(n, probeX, probeY)) {
      scroller = n;
      break;
    }
  }
  scroller ??= document.scrollingElement;
  if (!scroller) return false;
  const size = horizontal ? scroller.clientWidth : scroller === document.scrollingElement ? window.innerHeight : scroller.clientHeight;
  const step = key === 'Home' || key === 'End' ? scroller.scrollHeight : page ? Math.max(1, Math.floor(size * PAGE_FRACTION)) : LINE_STEP;
  scroller.scrollBy({ left: horizontal ? sign * step : 0, top: horizontal ? 0 : sign * step, behavior: 'instant' });
  return true;
}

// --- presses ------------------------------------------------------------------------------------

/** Presses one chord on the focused element; resolves with the element that had focus for it. */
export async function pressChord(chord: Chord): Promise<Element> {
  const mods = chord.modifiers;
  const held: Modifier[] = [];
  let target = keyTarget();
  // The modifier keys as named (ShiftRight has location 2), else the left-hand ones.
  const modKey = (m: Modifier, i: number): KeyDef => chord.modifierKeys?.[i] ?? modifierKey(m);
  for (const [i, m] of mods.entries()) {
    held.push(m);
    keyEvent('keydown', target, modKey(m, i), held);
    await nextTask();
    target = keyTarget();
  }
  const isModifierKey = (['Shift', 'Control', 'Alt', 'Meta'] as string[]).includes(chord.key.key);
  const text = insertedText(chord);
  // A modifier key is held during its own keydown (shiftKey is true on Shift's keydown), not its keyup.
  const downOk = keyEvent(
    'keydown',
    target,
    chord.key,
    isModifierKey && !mods.includes(chord.key.key as Modifier) ? [...mods, chord.key.key as Modifier] : mods,
  );
  if (downOk && !isModifierKey) {
    const producesKeypress =
      text !== '' || (chord.key.key === 'Enter' && !mods.includes('Control') && !mods.includes('Meta') && !mods.includes('Alt'));
    if (producesKeypress) await afterMicrotasks();
    // A keydown handler may move focus (e.g. to a search box); the rest goes to the new focus.
    target = keyTarget();
    const pressOk = producesKeypress ? keyEvent('keypress', target, chord.key, mods) : true;
    if (pressOk) defaultAction(target, chord, text);
  }
  await nextTask();
  const upTarget = keyTarget();
  const upOk = keyEvent('keyup', upTarget, chord.key, mods);
  // Space activates a focused button, checkbox or radio on keyup.
  if (
    upOk &&
    downOk &&
    chord.key.key === ' ' &&
    mods.length === 0 &&
    isActivatable(upTarget) &&
    !isTextField(upTarget) &&
    !(upTarget as HTMLElement).isContentEditable
  )
    (upTarget as HTMLElement).click();
  for (let i = mods.length - 1; i >= 0; i--) {
    const m = mods[i] as Modifier;
    held.splice(held.indexOf(m), 1);
    await nextTask();
    keyEvent('keyup', keyTarget(), modKey(m, i), held);
  }
  return target;
}

/**
 * Types text key by key like Playwright's keyboard.type: each character the US layout has is pressed
 * as its own key with no modifier held ("!" is key "!" on Digit1 with shiftKey false, no Shift
 * keydown: Playwright sends the shifted character without pressing Shift); characters the layout
 * lacks are only inserted (one input event, as Input.insertText).
 */
export async function typeText(text: string, delayMs = 0): Promise<void> {
  let first = true;
  for (const ch of text) {
    if (!first) await (delayMs > 0 ? sleep(delayMs) : nextTask());
    first = false;
    const def = keyForChar(ch);
    if (def.code === '' && def.key !== 'Enter') {
      const target = keyTarget();
      insertText(target, ch);
      continue;
    }
    await pressChord({ modifiers: [], key: def });
  }
}

/** "tag#id" of the focused element, for results. */
export function focusedDescription(): string {
  const el = deepActiveElement();
  if (!el) return 'none';
  let where = el.localName + (el.id ? `#${el.id}` : '');
  if (composedParent(el) === null && el !== document.documentElement) where += ' (detached)';
  return where;
}
