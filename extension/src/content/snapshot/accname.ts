// Accessible name, following accname 1.2 (https://www.w3.org/TR/accname-1.2/#computation-steps)
// and HTML-AAM's native rules, for what an agent needs to tell controls apart:
//   2B aria-labelledby  ->  2C aria-label  ->  2D native (label/labels, alt, value of buttons,
//   legend, caption)  ->  2F name from content (roles that allow it)  ->  2I title  ->  placeholder.
// Hidden nodes are skipped unless reached through aria-labelledby (step 2A).
import { NAME_FROM_CONTENT, roleOf } from './roles';

const MAX_NAME = 200;
const collapse = (s: string) => s.replace(/\s+/g, ' ').trim();

/** Is the element hidden from the accessibility tree (display none, visibility hidden, aria-hidden)? */
export type HiddenTest = (el: Element) => boolean;

const defaultHidden: HiddenTest = (el) => {
  if (el.getAttribute('aria-hidden') === 'true') return true;
  const s = getComputedStyle(el);
  return s.display === 'none' || s.visibility === 'hidden' || s.visibility === 'collapse';
};

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
  root: Element | null;
  labels: LabelIndex | null;
  hidden: HiddenTest;
  visited: Set<Element>;
  /** Reached through aria-labelledby: hidden nodes count (step 2A). */
  referenced: boolean;
}

function byIdRefs(el: Element, attr: string): Element[] {
  const ids = el.getAttribute(attr);
  if (!ids) return [];
  const root = el.getRootNode() as Document | ShadowRoot;
  const out: Element[] = [];
  for (const id of ids.trim().split(/\s+/)) {
    const found = root.getElementById?.(id) ?? (root as ShadowRoot).querySelector?.(`#${CSS.escape(id)}`);
    if (found) out.push(found);
  }
  return out;
}

/** Values that must not leak into another element's name through label/content (privacy.ts has the full rules). */
const SECRET_AUTOCOMPLETE = /(^|\s)(cc-|one-time-code)/i;

function controlValue(el: Element): string | null {
  if (el instanceof HTMLInputElement) {
    if (el.type === 'password' || SECRET_AUTOCOMPLETE.test(el.autocomplete || el.getAttribute('autocomplete') || '')) return '';
    if (['checkbox', 'radio', 'button', 'submit', 'reset', 'image', 'file', 'hidden'].includes(el.type)) return null;
    return el.value;
  }
  if (el instanceof HTMLTextAreaElement) return el.value;
  if (el instanceof HTMLSelectElement) return el.selectedOptions[0]?.textContent ?? '';
  return null;
}

function textFromContent(el: Element, ctx: Ctx): string {
  const parts: string[] = [];
  const kids = el.shadowRoot && el.shadowRoot.childNodes.length ? [...el.shadowRoot.childNodes] : [...el.childNodes];
  for (const node of kids) {
    if (node.nodeType === Node.TEXT_NODE) {
      parts.push(node.nodeValue ?? '');
    } else if (node instanceof Element) {
      if (node.localName === 'slot') {
        for (const a of (node as HTMLSlotElement).assignedNodes({ flatten: true })) parts.push(a instanceof Element ? compute(a, ctx, true) : a.textContent ?? '');
        continue;
      }
      const piece = compute(node, ctx, true);
      if (!piece) continue;
      // Block-level children are separated by whitespace (CSS display affects the text, accname 2F.iii).
      parts.push(` ${piece} `);
    }
  }
  return parts.join('');
}

function labelText(label: HTMLLabelElement, control: Element, ctx: Ctx): string {
  const parts: string[] = [];
  for (const node of label.childNodes) {
    if (node === control) continue;
    if (node.nodeType === Node.TEXT_NODE) parts.push(node.nodeValue ?? '');
    else if (node instanceof Element) parts.push(` ${compute(node, ctx, true)} `);
  }
  return collapse(parts.join(''));
}

function compute(el: Element, ctx: Ctx, inContent: boolean): string {
  if (ctx.visited.has(el)) return '';
  ctx.visited.add(el);
  // The element being named is rendered (the walk checked its style): only aria-hidden can hide it.
  if (!ctx.referenced && (el === ctx.root ? el.getAttribute('aria-hidden') === 'true' : ctx.hidden(el))) return '';
  if (el.localName === 'script' || el.localName === 'style' || el.localName === 'template') return '';
  // 2B: aria-labelledby (not followed again when already inside a labelledby traversal).
  if (!inContent) {
    const refs = byIdRefs(el, 'aria-labelledby');
    if (refs.length) {
      const joined = collapse(refs.map((r) => compute(r, { ...ctx, referenced: true, visited: new Set([el]) }, false) || collapse(textFromContent(r, { ...ctx, referenced: true }))).join(' '));
      if (joined) return joined;
    }
  }
  const role = roleOf(el);
  // 2C: embedded control inside a label/content: its value (2E).
  if (inContent) {
    const v = controlValue(el);
    if (v !== null && ['textbox', 'searchbox', 'combobox', 'listbox', 'spinbutton', 'slider'].includes(role)) return v;
  }
  const ariaLabel = collapse(el.getAttribute('aria-label') ?? '');
  if (ariaLabel) return ariaLabel;
  // 2D: native host-language label.
  const native = nativeName(el, ctx);
  if (native) return native;
  // 2F: name from content.
  if (inContent || NAME_FROM_CONTENT.has(role) || ctx.referenced) {
    const content = collapse(textFromContent(el, ctx));
    if (content) return content;
  }
  // 2I: tooltip, then the placeholder (HTML-AAM input rules).
  const title = collapse(el.getAttribute('title') ?? '');
  if (title && !inContent) return title;
  if (!inContent) {
    const placeholder = collapse(el.getAttribute('placeholder') ?? el.getAttribute('aria-placeholder') ?? '');
    if (placeholder) return placeholder;
  }
  return title;
}

const LABELABLE = new Set(['input', 'select', 'textarea', 'button', 'meter', 'output', 'progress']);

function nativeName(el: Element, ctx: Ctx): string {
  const tag = el.localName;
  if (el instanceof HTMLInputElement) {
    const t = el.type;
    if (t === 'button' || t === 'submit' || t === 'reset') {
      const fromLabels = labelsOf(el, ctx);
      return fromLabels || collapse(el.value) || (t === 'submit' ? 'Submit' : t === 'reset' ? 'Reset' : '');
    }
    if (t === 'image') return collapse(el.alt) || collapse(el.value) || 'Submit';
  }
  if (LABELABLE.has(tag)) {
    const fromLabels = labelsOf(el, ctx);
    if (fromLabels) return fromLabels;
  }
  if (tag === 'img' || tag === 'area') return collapse(el.getAttribute('alt') ?? '');
  if (tag === 'fieldset') {
    const legend = [...el.children].find((c) => c.localName === 'legend');
    return legend ? collapse(textFromContent(legend, ctx)) : '';
  }
  if (tag === 'table') {
    const caption = (el as HTMLTableElement).caption;
    return caption ? collapse(textFromContent(caption, ctx)) : '';
  }
  if (tag === 'figure') {
    const cap = [...el.children].find((c) => c.localName === 'figcaption');
    return cap ? collapse(textFromContent(cap, ctx)) : '';
  }
  if (tag === 'iframe') return collapse(el.getAttribute('title') ?? '');
  return '';
}

function labelsOf(el: Element, ctx: Ctx): string {
  const labels = ctx.labels ? ctx.labels.labelsOf(el) : [...((el as HTMLInputElement).labels ?? [])];
  if (labels.length === 0) return '';
  return collapse([...labels].map((l) => labelText(l, el, ctx)).join(' '));
}

/** The accessible name of el, whitespace-collapsed, at most 200 characters. */
export function accessibleName(el: Element, hidden: HiddenTest = defaultHidden, labels: LabelIndex | null = null): string {
  const name = compute(el, { root: hidden === defaultHidden ? el : null, labels, hidden, visited: new Set(), referenced: false }, false);
  return name.length > MAX_NAME ? `${name.slice(0, MAX_NAME - 1)}…` : name;
}
