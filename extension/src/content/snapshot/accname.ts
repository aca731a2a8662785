// Accessible name per accname 1.2 (https://www.w3.org/TR/accname-1.2/#computation-steps) with
// HTML-AAM's native rules (https://www.w3.org/TR/html-aam-1.0/#accessible-name-computations-by-html-element):
//   2A hidden: skipped, unless the traversal started at a hidden node referenced directly by
//      aria-labelledby (then its hidden content counts); aria-hidden/hidden content never enters
//      through name-from-content of a visible node;
//   2B aria-labelledby (not followed again inside a labelledby traversal; a self-reference uses
//      the element's own aria-label/content);
//   2C embedded control inside a label/content: textbox value, selected option(s) of a
//      combobox/listbox, aria-valuetext/aria-valuenow/value of a range;
//   2D aria-label;  2E native: <label>, alt (never for a presentational element), input button
//      values and defaults, image/file inputs, legend, caption, figcaption, title of iframes;
//   2F name from content, with CSS ::before/::after content and spaces around non-inline boxes;
//   2I title, then (HTML-AAM, text inputs) placeholder.
// Chromium's own accessibility tree is the oracle in test/e2e/accname.spec.ts.
import { sensitiveReason } from './privacy';
import { isPresentational, NAME_FROM_CONTENT, roleOf } from './roles';
import { sheetFacts } from './sheet-facts';

const MAX_NAME = 200;
const WHITESPACE = /[ \t\n\r\f]+/g;
/** Whitespace that collapse() changes beyond trimming: a tab or line break, or two spaces in a row. */
const NOT_A_SINGLE_SPACE = /[\t\n\r\f]| {2}/;
// Most attributes asked for are absent (the caller passes '') and most names have only single
// spaces: no new string is built for those (one per listed element and per node of its content).
const collapse = (s: string) => (s === '' ? '' : NOT_A_SINGLE_SPACE.test(s) ? s.replace(WHITESPACE, ' ').trim() : s.trim());

/** Is the element hidden from the accessibility tree (display none, visibility hidden, aria-hidden)? */
export type HiddenTest = (el: Element) => boolean;

const defaultHidden: HiddenTest = (el) => {
  if (el.getAttribute('aria-hidden') === 'true') return true;
  const s = getComputedStyle(el);
  return s.display === 'none' || s.visibility === 'hidden' || s.visibility === 'collapse';
};

/** Not rendered at all (an ancestor display:none, content-visibility, ...), or aria-hidden on it or an ancestor. */
function hiddenWithAncestors(el: Element): boolean {
  if (el.closest('[aria-hidden="true"]')) return true;
  return !el.checkVisibility({ checkVisibilityCSS: true });
}

/**
 * control -> its <label>s. HTMLInputElement.labels walks the whole tree scope on every call (O(n)
 * per control, O(n^2) on a form-heavy page), so the walk builds this once per tree scope.
 */
export class LabelIndex {
  private readonly byRoot = new WeakMap<Node, Map<Element, HTMLLabelElement[]>>();

  labelsOf(el: Element): HTMLLabelElement[] {
    const root = el.getRootNode();
    let map = this.byRoot.get(root);
    if (!map) {
      map = new Map();
      const scope = root as Document | ShadowRoot;
      for (const label of scope.querySelectorAll?.('label') ?? []) {
        const control = (label as HTMLLabelElement).control;
        if (!control) continue;
        const list = map.get(control);
        if (list) list.push(label as HTMLLabelElement);
        else map.set(control, [label as HTMLLabelElement]);
      }
      this.byRoot.set(root, map);
    }
    return map.get(el) ?? [];
  }
}

interface Ctx {
  /** The element whose name is computed. */
  root: Element;
  /** root's role when the caller knew it (the walk computed it already), else null. */
  rootRole: string | null;
  labels: LabelIndex | null;
  hidden: HiddenTest;
  visited: Set<Element>;
  /** Inside an aria-labelledby traversal (2B is not followed again). */
  inLabelledBy: boolean;
  /** The traversal started at a hidden node referenced directly: hidden nodes count (2A). */
  includeHidden: boolean;
}

function byIdRefs(el: Element, attr: string): Element[] {
  const ids = el.getAttribute(attr);
  if (!ids) return [];
  const root = el.getRootNode() as Document | ShadowRoot;
  const out: Element[] = [];
  for (const id of ids.trim().split(/\s+/)) {
    if (!id) continue;
    const found = root.getElementById?.(id) ?? (root as ShadowRoot).querySelector?.(`#${CSS.escape(id)}`);
    if (found) out.push(found);
  }
  return out;
}

/**
 * The aria-labelledby references, or those of the non-standard spelling aria-labeledby when the
 * standard one is absent (WPT comp_labelledby; Chromium accepts both, the standard one wins).
 */
function labelledByRefs(el: Element): Element[] {
  // Most nodes met in name from content have no attributes at all: one call answers for both spellings.
  if (!el.hasAttributes()) return [];
  return byIdRefs(el, el.hasAttribute('aria-labelledby') ? 'aria-labelledby' : 'aria-labeledby');
}

/** Values that must not leak into another element's name through label/content (privacy.ts has the full rules). */
const SECRET_AUTOCOMPLETE = /(^|\s)(cc-|one-time-code)/i;

/**
 * A field whose value is a secret (password, card number, one-time code by type, autocomplete,
 * name or label: privacy.ts): its value never enters a name, its own or another element's.
 */
function secretField(el: HTMLInputElement | HTMLTextAreaElement): boolean {
  return sensitiveReason(el, { redactPii: false, redactCardAndOtp: true }) !== null;
}

const RANGE_ROLES = new Set(['slider', 'spinbutton', 'scrollbar', 'progressbar', 'meter']);

/** The names of the aria-selected options of an ARIA listbox, space-separated. */
function selectedOptionsText(box: Element, ctx: Ctx): string {
  const selected = [...box.querySelectorAll('[role=option]')].filter((o) => o.getAttribute('aria-selected') === 'true');
  return selected.map((o) => compute(o, { ...ctx, visited: new Set(ctx.visited) }, true)).join(' ');
}

/** 2C: the text an embedded control contributes to another element's name, or null when el is not one. */
function embeddedValue(el: Element, role: string, ctx: Ctx): string | null {
  if (role === 'textbox' || role === 'searchbox') {
    if (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement) return secretField(el) ? '' : el.value;
    return (el as HTMLElement).innerText ?? el.textContent ?? '';
  }
  if (role === 'combobox' || role === 'listbox') {
    if (el instanceof HTMLSelectElement && SECRET_AUTOCOMPLETE.test(el.autocomplete || el.getAttribute('autocomplete') || '')) return '';
    if (el instanceof HTMLSelectElement) return [...el.selectedOptions].map((o) => collapse(o.label || o.text)).join(' ');
    if (el instanceof HTMLInputElement) return el.value;
    if (role === 'listbox') return selectedOptionsText(el, ctx);
    // An ARIA combobox: the chosen option of a listbox inside it, else its own text without that
    // listbox (Chromium; accname 1.2 2C names only "the chosen option", a popup it merely
    // aria-controls is not read, as in Chromium).
    const box = el.querySelector('[role=listbox]');
    const chosen = box ? selectedOptionsText(box, ctx) : '';
    if (chosen) return chosen;
    const sub: Ctx = { ...ctx, visited: new Set(ctx.visited) };
    if (box) sub.visited.add(box);
    return textFromContent(el, sub);
  }
  if (RANGE_ROLES.has(role)) {
    const text = el.getAttribute('aria-valuetext');
    if (text !== null && collapse(text)) return text;
    const now = el.getAttribute('aria-valuenow');
    if (now !== null && now.trim() !== '') return now.trim();
    if (el instanceof HTMLInputElement || el instanceof HTMLProgressElement || el instanceof HTMLMeterElement) return String(el.value);
    return '';
  }
  return null;
}

function mayHavePseudo(el: Element): boolean {
  if (el.getRootNode() !== document) return true; // shadow-root styles are not in document.styleSheets
  const sel = sheetFacts().pseudoSelector;
  if (sel === null) return true;
  return sel !== '' && el.matches(sel);
}

const NO_PSEUDO: { text: string; block: boolean } = Object.freeze({ text: '', block: false });

/** CSS generated content of ::before/::after (strings, attr(); the alt text after "/" when given), or "". */
function pseudoText(el: Element, which: '::before' | '::after', may: boolean): { text: string; block: boolean } {
  if (!may) return NO_PSEUDO;
  const s = getComputedStyle(el, which);
  const content = s.content;
  if (!content || content === 'none' || content === 'normal') return NO_PSEUDO;
  // content: url(x) / "alt"  ->  the alternative text is what is spoken.
  const slash = content.lastIndexOf(' / ');
  const source = slash >= 0 ? content.slice(slash + 3) : content;
  let text = '';
  const re = /"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)'|attr\(\s*([\w-]+)\s*\)/g;
  for (let m = re.exec(source); m; m = re.exec(source)) {
    if (m[3] !== undefined) text += el.getAttribute(m[3]) ?? '';
    else
      text += (m[1] ?? m[2] ?? '').replace(/\\([0-9a-fA-F]{1,6}\s?|.)/g, (_, esc: string) =>
        /^[0-9a-fA-F]/.test(esc) ? String.fromCodePoint(parseInt(esc, 16)) : esc,
      );
  }
  // Alternative text (content: x / "alt") stands for the content as a word of its own (Chromium spaces it).
  return { text, block: slash >= 0 || (s.display !== 'inline' && s.display !== 'contents') };
}

/** Replaced elements: an inline box Chromium still separates from its neighbours' text (an image's alt is a word of its own). */
const REPLACED = new Set(['img', 'svg', 'canvas', 'video', 'audio', 'iframe', 'object', 'embed']);

/** Inline boxes join their neighbours without a space; block-level and replaced ones are separated (accname 2F.iii, CSS display). */
function isInline(el: Element): boolean {
  if (REPLACED.has(el.localName)) return false;
  const d = getComputedStyle(el).display;
  return d === 'inline' || d === 'contents' || d.startsWith('inline ') || d === 'inline flow';
}

function textFromContent(el: Element, ctx: Ctx): string {
  const parts: string[] = [];
  const may = mayHavePseudo(el);
  const before = pseudoText(el, '::before', may);
  if (before.text) parts.push(before.block ? ` ${before.text} ` : before.text);
  const sr = el.shadowRoot;
  const first = sr && sr.firstChild ? sr.firstChild : el.firstChild;
  for (let node = first; node !== null; node = node.nextSibling) pushContent(node, ctx, parts);
  const after = pseudoText(el, '::after', may);
  if (after.text) parts.push(after.block ? ` ${after.text} ` : after.text);
  return parts.join('');
}

/** One child's contribution to its parent's name from content (slots contribute what they show). */
function pushContent(node: Node, ctx: Ctx, parts: string[]): void {
  const type = node.nodeType;
  if (type === 3) {
    parts.push(node.nodeValue ?? '');
  } else if (type === 1) {
    const el = node as Element;
    if (el.localName === 'slot') {
      const assigned = (el as HTMLSlotElement).assignedNodes({ flatten: true });
      if (assigned.length) for (const a of assigned) pushContent(a, ctx, parts);
      else for (let c = el.firstChild; c !== null; c = c.nextSibling) pushContent(c, ctx, parts);
      return;
    }
    const piece = compute(el, ctx, true);
    if (!piece) return;
    parts.push(isInline(el) ? piece : ` ${piece} `);
  }
}

/**
 * Roles whose children Chromium leaves out of a name from content outside a labelledby traversal
 * (ui::IsContainerWithSelectableChildren): a menu, toolbar or tab list inside a label is a widget
 * of its own, not words of the label. A listbox is an embedded control (2C) and handled there.
 */
const SELECTABLE_CONTAINERS = new Set(['grid', 'menu', 'menubar', 'radiogroup', 'tablist', 'toolbar', 'tree', 'treegrid']);

/** The current value of a native text field (input or textarea), "" for a secret one; null for any other element. */
function textFieldValue(el: Element): string | null {
  if (el instanceof HTMLInputElement) {
    const role = roleOf(el);
    if (role !== 'textbox' && role !== 'searchbox' && role !== 'spinbutton' && role !== 'combobox') return null;
  } else if (!(el instanceof HTMLTextAreaElement)) return null;
  return secretField(el) ? '' : el.value;
}

function compute(el: Element, ctx: Ctx, inContent: boolean): string {
  if (ctx.visited.has(el)) return '';
  ctx.visited.add(el);
  const tag = el.localName;
  if (tag === 'script' || tag === 'style' || tag === 'template' || tag === 'noscript') return '';
  // 2A. The element being named is rendered (the walk checked its style): only aria-hidden hides it.
  if (!ctx.includeHidden && el !== ctx.root && ctx.hidden(el)) return '';
  const role = el === ctx.root && ctx.rootRole !== null ? ctx.rootRole : roleOf(el);
  // 2B: aria-labelledby, also on a descendant met in name from content (its name is what its labels
  // say), never again inside a labelledby traversal. Nodes visited in one traversal are skipped
  // later in the same computation (WPT comp_labelledby: an image a link is labelled by does not
  // count again in the next link's content).
  if (!ctx.inLabelledBy) {
    const refs = labelledByRefs(el);
    if (refs.length) {
      // What earlier references of this list read: each reference is read in full (an id listed
      // twice counts twice), but a self-reference skips a <label> an earlier reference already
      // read, so `<label for=t id=l>Notes</label><textarea id=t aria-labelledby="l t">` is named
      // "Notes" + its value, not "Notes Notes" (accname 1.2 2B: the current node contributes its own
      // text alternative; Chromium's AX tree, checked in test/e2e/accname.spec.ts).
      const read = new Set<Element>();
      const joined = collapse(
        refs
          .map((r) => {
            // A self-reference names the element by its own aria-label, native label or content (2B "current node").
            const hiddenRef = r !== el && hiddenWithAncestors(r);
            let visited: Set<Element>;
            if (inContent) visited = ctx.visited;
            else {
              visited = new Set(read);
              if (r === el) visited.delete(el);
              else visited.add(el);
              visited.delete(r);
            }
            const sub: Ctx = { ...ctx, visited, inLabelledBy: true, includeHidden: hiddenRef };
            const text = compute(r, sub, r !== el);
            if (!inContent) for (const v of visited) read.add(v);
            return text;
          })
          .join(' '),
      );
      if (joined) return joined;
    }
  }
  // 2C: an embedded control inside another element's label or content contributes its value.
  if ((inContent || ctx.inLabelledBy) && el !== ctx.root) {
    const v = embeddedValue(el, role, ctx);
    if (v !== null) return v;
    if (!ctx.inLabelledBy && SELECTABLE_CONTAINERS.has(role)) return '';
  }
  // 2D: aria-label.
  const ariaLabel = collapse(el.getAttribute('aria-label') ?? '');
  if (ariaLabel) return ariaLabel;
  const presentational = isPresentational(el, role);
  // 2E: native host-language text alternative (never for a presentational element).
  if (!presentational) {
    const native = nativeName(el, ctx);
    if (native) return native;
  }
  // A text field's content is its value, not its child nodes (a textarea's children are its
  // default text); a closed <select>'s children are options it does not show.
  const field = tag === 'input' || tag === 'textarea' || tag === 'select';
  // A text field naming itself whose <label> an earlier reference already read: its value takes the
  // label's place, ahead of its title and placeholder (Chromium's AX tree).
  if (ctx.inLabelledBy && el === ctx.root && field && !inContent && labelsAllRead(el, ctx)) {
    const value = textFieldValue(el);
    if (value) return value;
  }
  // 2F: name from content (roles that allow it, any node in a recursion or labelledby traversal,
  // and the descendants of a native label).
  if (
    !field &&
    (inContent ||
      ctx.inLabelledBy ||
      NAME_FROM_CONTENT.has(role) ||
      tag === 'label' ||
      tag === 'legend' ||
      tag === 'caption' ||
      tag === 'figcaption')
  ) {
    const text = textFromContent(el, ctx);
    const content = collapse(text);
    // A descendant keeps one space at an edge where its text had one: rendered, "Read<b> more</b>"
    // reads "Read more" and "a<b> b </b>c" reads "a b c" (Chromium's names too); its parent joins
    // inline pieces without adding any, and the whole name is collapsed once at the end.
    if (content) return inContent ? text.replace(WHITESPACE, ' ') : content;
  }
  // A presentational element, and an image whose alt="" says it is decoration, has no name: its
  // title is not used for it nor for the element whose name comes from its content (Chromium).
  if (presentational || (tag === 'img' && el.getAttribute('alt') === '')) return '';
  // 2I: tooltip; HTML-AAM: then the placeholder of a text field.
  if (tag === 'input' && el instanceof HTMLInputElement && el.type === 'file') return '';
  const title = collapse(el.getAttribute('title') ?? '');
  if (title) return title;
  if (!inContent && el === ctx.root) {
    const placeholder = collapse(el.getAttribute('placeholder') ?? el.getAttribute('aria-placeholder') ?? '');
    if (placeholder && (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement || el.hasAttribute('aria-placeholder')))
      return placeholder;
    // A text field that names itself through aria-labelledby contributes what it holds, after its
    // labels, title and placeholder (Chromium: its name from content is its value).
    if (ctx.inLabelledBy && field) return textFieldValue(el) ?? '';
  }
  return '';
}

const SVG_NS = 'http://www.w3.org/2000/svg';
const LABELABLE = new Set(['input', 'select', 'textarea', 'button', 'meter', 'output', 'progress']);

function nativeName(el: Element, ctx: Ctx): string {
  const tag = el.localName;
  // The tag first: instanceof walks the whole prototype chain for every other element.
  if (tag === 'input' && el instanceof HTMLInputElement) {
    const t = el.type;
    if (t === 'button' || t === 'submit' || t === 'reset') {
      const fromLabels = labelsOf(el, ctx);
      if (fromLabels) return fromLabels;
      // A label that is not rendered still takes the place of the value: Chromium names the button
      // nothing. One an earlier aria-labelledby reference already read does not (the value follows it).
      if ((ctx.labels ? ctx.labels.labelsOf(el) : [...(el.labels ?? [])]).some((l) => !ctx.visited.has(l))) return '';
      // HTML-AAM: the value attribute, else the localised default of submit/reset (none for type=button).
      if (el.hasAttribute('value')) return collapse(el.value);
      return t === 'submit' ? 'Submit' : t === 'reset' ? 'Reset' : '';
    }
    if (t === 'image') {
      // HTML-AAM input type=image: label, alt, value, title, then "Submit".
      const fromLabels = labelsOf(el, ctx);
      if (fromLabels) return fromLabels;
      const alt = collapse(el.getAttribute('alt') ?? '');
      if (alt) return alt;
      const value = collapse(el.getAttribute('value') ?? '');
      if (value) return value;
      const title = collapse(el.getAttribute('title') ?? '');
      return title || 'Submit';
    }
  }
  if (tag === 'input' && el instanceof HTMLInputElement && el.type === 'file') {
    // Chromium (en-US) names an unlabelled file input by its button's text; its title is a description.
    return labelsOf(el, ctx) || (el.multiple ? 'Choose Files' : 'Choose File');
  }
  if (LABELABLE.has(tag)) {
    const fromLabels = labelsOf(el, ctx);
    if (fromLabels) return fromLabels;
  }
  if (tag === 'img' || tag === 'area') return collapse(el.getAttribute('alt') ?? '');
  if (tag === 'fieldset') {
    const legend = [...el.children].find((c) => c.localName === 'legend');
    return legend ? collapse(compute(legend, ctx, true)) : '';
  }
  if (tag === 'table') {
    const caption = (el as HTMLTableElement).caption;
    return caption ? collapse(compute(caption, ctx, true)) : '';
  }
  if (tag === 'figure') {
    const cap = [...el.children].find((c) => c.localName === 'figcaption');
    return cap ? collapse(compute(cap, ctx, true)) : '';
  }
  if (tag === 'iframe' || tag === 'frame') return collapse(el.getAttribute('title') ?? '');
  if (tag === 'optgroup') return collapse(el.getAttribute('label') ?? '');
  if (tag === 'option' && el.hasAttribute('label')) return collapse(el.getAttribute('label') ?? '');
  // SVG-AAM: an SVG element (the <svg> itself, an <a> link, a <g>) is named by its <title> child.
  if (el.namespaceURI === SVG_NS) {
    const t = [...el.children].find((c) => c.localName === 'title');
    return t ? collapse(t.textContent ?? '') : '';
  }
  return '';
}

/** Has el <label>s, every one already read by an earlier aria-labelledby reference (visited)? */
function labelsAllRead(el: Element, ctx: Ctx): boolean {
  const labels = ctx.labels ? ctx.labels.labelsOf(el) : [...((el as HTMLInputElement).labels ?? [])];
  return labels.length > 0 && labels.every((l) => ctx.visited.has(l));
}

function labelsOf(el: Element, ctx: Ctx): string {
  const labels = ctx.labels ? ctx.labels.labelsOf(el) : [...((el as HTMLInputElement).labels ?? [])];
  if (labels.length === 0) return '';
  // A <label>'s content is computed with the control skipped (visited). A hidden label is not
  // referenced directly (2A): it names nothing, as in Chromium, unless we are already inside a
  // hidden labelledby traversal.
  return collapse(
    labels
      .map((l) => {
        if (ctx.visited.has(l)) return '';
        if (!ctx.includeHidden && hiddenWithAncestors(l)) return '';
        ctx.visited.add(l);
        return collapse(textFromContent(l, ctx));
      })
      .join(' '),
  );
}

/**
 * The accessible name of el, whitespace-collapsed, at most 200 characters. role: roleOf(el) when the
 * caller has it already (the walk does, for every listed element), so it is not worked out twice.
 */
export function accessibleName(
  el: Element,
  hidden: HiddenTest = defaultHidden,
  labels: LabelIndex | null = null,
  role: string | null = null,
): string {
  const ctx: Ctx = { root: el, rootRole: role, labels, hidden, visited: new Set(), inLabelledBy: false, includeHidden: false };
  const name = collapse(compute(el, ctx, false));
  return name.length > MAX_NAME ? `${name.slice(0, MAX_NAME - 1)}…` : name;
}
