// Text editing the way the browser's own editing does it, for untrusted key events (which insert
// nothing by themselves): values go through the prototype's native setter, so React's and Vue's
// value trackers see a change on the following `input` event; contenteditable goes through
// execCommand, which fires beforeinput/input itself and keeps the undo stack.

type TextField = HTMLInputElement | HTMLTextAreaElement;

/** Input types whose value must parse; anything else is set to "". */
export const STRICT_TYPES = new Set(['number', 'date', 'time', 'datetime-local', 'month', 'week']);

/** input types that take typed text (a checkbox or a date picker does not). */
const TYPEABLE = new Set(['text', 'search', 'email', 'url', 'tel', 'password', 'number']);

/** A field whose value is free text: textarea or a typeable input. */
export function isTextField(el: Element): el is TextField {
  return el instanceof HTMLTextAreaElement || (el instanceof HTMLInputElement && TYPEABLE.has(el.type));
}

/** Any input/textarea whose value fill may set (typeable, plus date, color, range...). */
function isValueField(el: Element): el is TextField {
  return el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement;
}

/** Sets .value through HTMLInputElement/HTMLTextAreaElement/HTMLSelectElement.prototype's setter. */
export function setNativeValue(el: TextField | HTMLSelectElement, value: string): void {
  const proto =
    el instanceof HTMLTextAreaElement
      ? HTMLTextAreaElement.prototype
      : el instanceof HTMLSelectElement
        ? HTMLSelectElement.prototype
        : HTMLInputElement.prototype;
  const setter = Object.getOwnPropertyDescriptor(proto, 'value')?.set;
  if (setter) setter.call(el, value);
  else el.value = value;
}

/** input types whose selectionStart is null (email, number, date...): edits append at the end. */
function selectionOf(el: TextField): { start: number; end: number } {
  try {
    if (el.selectionStart !== null && el.selectionEnd !== null) return { start: el.selectionStart, end: el.selectionEnd };
  } catch {
    // selectionStart throws on some input types in older engines.
  }
  return { start: el.value.length, end: el.value.length };
}

function setCaret(el: TextField, pos: number): void {
  try {
    el.setSelectionRange(pos, pos);
  } catch {
    // Not supported for this input type.
  }
}

export function fireInput(el: Element, inputType: string, data: string | null): void {
  el.dispatchEvent(new InputEvent('input', { bubbles: true, cancelable: false, composed: true, inputType, data }));
}

function beforeInput(el: Element, inputType: string, data: string | null): boolean {
  return el.dispatchEvent(new InputEvent('beforeinput', { bubbles: true, cancelable: true, composed: true, inputType, data }));
}

export function fireChange(el: Element): void {
  el.dispatchEvent(new Event('change', { bubbles: true }));
}

function editingHost(el: Element): HTMLElement | null {
  for (let n: Element | null = el; n; n = n.parentElement) {
    if (!(n instanceof HTMLElement) || !n.isContentEditable) break;
    if (!n.parentElement || !n.parentElement.isContentEditable) return n;
  }
  return null;
}

/** Inserts text at the caret of a text field or editing host; false when the page cancelled it. */
/**
 * The legacy textInput event Chromium fires for typed text right after beforeinput (React's
 * onBeforeInput is built on it); cancelling it stops the insertion. false when the page cancelled it.
 */
function textInput(el: Element, data: string): boolean {
  const e = document.createEvent('TextEvent');
  e.initTextEvent('textInput', true, true, window, data);
  return el.dispatchEvent(e);
}

/** Inserts text at the caret; `typed`: it comes from a key press, so textInput fires too (as Chromium does for keys). */
export function insertText(el: Element, text: string, inputType = 'insertText', typed = false): boolean {
  if (isTextField(el)) {
    if (el.readOnly || el.disabled) return false;
    if (!beforeInput(el, inputType, text)) return false;
    if (typed && !(el instanceof HTMLInputElement && inputType === 'insertLineBreak') && !textInput(el, text)) return false;
    const { start, end } = selectionOf(el);
    let insert = text;
    if (el instanceof HTMLInputElement) insert = insert.replace(/[\r\n]/g, '');
    const max = el.maxLength;
    const before = el.value.slice(0, start);
    const after = el.value.slice(end);
    if (max >= 0) insert = insert.slice(0, Math.max(0, max - before.length - after.length));
    setNativeValue(el, before + insert + after);
    setCaret(el, start + insert.length);
    fireInput(el, inputType, text);
    return true;
  }
  if (editingHost(el)) {
    if (typed && !textInput(el, text)) return false;
    const command =
      inputType === 'insertParagraph' ? 'insertParagraph' : inputType === 'insertLineBreak' ? 'insertLineBreak' : 'insertText';
    return document.execCommand(command, false, command === 'insertText' ? text : undefined);
  }
  return false;
}

/** Backspace (backward) or Delete (forward): the selection, else one character. */
export function deleteText(el: Element, direction: 'backward' | 'forward'): boolean {
  const inputType = direction === 'backward' ? 'deleteContentBackward' : 'deleteContentForward';
  if (isTextField(el)) {
    if (el.readOnly || el.disabled) return false;
    let { start, end } = selectionOf(el);
    if (start === end) {
      if (direction === 'backward') start = Math.max(0, start - 1);
      else end = Math.min(el.value.length, end + 1);
    }
    if (start === end) return false;
    if (!beforeInput(el, inputType, null)) return false;
    setNativeValue(el, el.value.slice(0, start) + el.value.slice(end));
    setCaret(el, start);
    fireInput(el, inputType, null);
    return true;
  }
  if (editingHost(el)) return document.execCommand(direction === 'backward' ? 'delete' : 'forwardDelete');
  return false;
}

/** Control+A: the field's text, the editing host's content, or the whole document. */
export function selectAll(el: Element | null): void {
  if (el && isTextField(el)) {
    el.select();
    return;
  }
  const host = el ? editingHost(el) : null;
  const sel = window.getSelection();
  if (!sel) return;
  const range = document.createRange();
  range.selectNodeContents(host ?? document.body);
  sel.removeAllRanges();
  sel.addRange(range);
}

export function caretToEnd(el: Element): void {
  if (isTextField(el)) {
    setCaret(el, el.value.length);
    return;
  }
  const host = editingHost(el);
  const sel = window.getSelection();
  if (!host || !sel) return;
  const range = document.createRange();
  range.selectNodeContents(host);
  range.collapse(false);
  sel.removeAllRanges();
  sel.addRange(range);
}

/** Moves the caret for arrow/Home/End keys in a text field (collapsed selection). */
export function moveCaret(el: Element, key: string, extend: boolean): boolean {
  if (!isTextField(el)) return false;
  const { start, end } = selectionOf(el);
  const len = el.value.length;
  // Shift extends the selection from its anchor: the end that moves is the focus, which is the start
  // of a selection made leftwards (direction "backward"), else its end.
  const backward = el.selectionDirection === 'backward';
  const anchor = backward ? end : start;
  const focus = backward ? start : end;
  let pos: number;
  if (key === 'ArrowLeft') pos = extend ? Math.max(0, focus - 1) : start === end ? Math.max(0, start - 1) : start;
  else if (key === 'ArrowRight') pos = extend ? Math.min(len, focus + 1) : start === end ? Math.min(len, end + 1) : end;
  else if (key === 'Home' || key === 'ArrowUp') pos = 0;
  else if (key === 'End' || key === 'ArrowDown') pos = len;
  else return false;
  try {
    if (extend) el.setSelectionRange(Math.min(anchor, pos), Math.max(anchor, pos), pos < anchor ? 'backward' : 'forward');
    else el.setSelectionRange(pos, pos);
  } catch {
    return false;
  }
  return true;
}

/**
 * fill: replace the whole value. Text fields: native setter + input + change. Types without free
 * text (date, color, range...) also get input + change. contenteditable: select all + insertText.
 */
export function replaceValue(el: Element, value: string): boolean {
  if (isValueField(el)) {
    if (!beforeInput(el, 'insertReplacementText', value)) return false;
    const previous = el.value;
    setNativeValue(el, value);
    // Typed inputs sanitize a value they cannot parse to "" (number, date, time...): put the old one back and report it.
    if (value !== '' && el.value === '' && el instanceof HTMLInputElement && STRICT_TYPES.has(el.type)) {
      setNativeValue(el, previous);
      return false;
    }
    setCaret(el, el.value.length);
    fireInput(el, 'insertReplacementText', value);
    fireChange(el);
    return true;
  }
  const host = editingHost(el);
  if (!host) return false;
  host.focus({ preventScroll: true });
  selectAll(host);
  const ok = value === '' ? document.execCommand('delete') || host.textContent === '' : document.execCommand('insertText', false, value);
  if (!ok) {
    // execCommand refused (no selection in a detached editing host): set it directly and tell the page.
    host.textContent = value;
    fireInput(host, 'insertReplacementText', value);
  }
  return true;
}

/**
 * What a person's triple click selects, the browser's default action that untrusted click events do
 * not run: all the text of a text field, else the paragraph under the point.
 */
export function selectParagraphAt(el: Element, x: number, y: number): void {
  if (isTextField(el)) {
    el.select();
    return;
  }
  const range = document.caretRangeFromPoint(x, y);
  const sel = window.getSelection();
  if (!range || !sel) return;
  sel.removeAllRanges();
  sel.addRange(range);
  sel.modify('move', 'backward', 'paragraphboundary');
  sel.modify('extend', 'forward', 'paragraphboundary');
}
