// The page edits the benches make between two states, as page scripts (evaluated in the tab): the
// actions the state goals name ("after one action that changes one list item or one form field").
// Shared by bench/state-repeat.ts and bench/hops.ts (--change).

/** Changes the text of one item in view (a list item, a cell, a paragraph); false when the page has none. */
export const CHANGE_ITEM = `(() => {
  const at = document.elementFromPoint(innerWidth / 2, innerHeight / 3);
  const el = at?.closest('li, td, p, label, legend, h1, h2, h3, a, button') ?? document.querySelector('li, td, p, label, legend, h1');
  if (!el) return false;
  const mark = el.querySelector(':scope > .bux-bench-mark') ?? el.appendChild(Object.assign(document.createElement('span'), { className: 'bux-bench-mark' }));
  mark.textContent = mark.textContent === ' x' ? ' y' : ' x';
  return true;
})()`;

/** Types into the first text field (value set and an input event, as typing does); false when the page has none. */
export const CHANGE_FIELD = `(() => {
  const f = document.querySelector('input:not([type]), input[type=text], input[type=email], input[type=search], textarea');
  if (!f) return false;
  f.value = f.value === 'a' ? 'b' : 'a';
  f.dispatchEvent(new InputEvent('input', { bubbles: true, composed: true }));
  return true;
})()`;
