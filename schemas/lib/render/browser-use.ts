// browser_use 0.1.48's DOMElementNode.clickable_elements_to_string (shared/reference
// browser_use_0.1.48.md section 1.8), reproduced exactly over the state's dom_tree:
//   - an element with a highlight index prints `\t`*depth + `[N]` (or `*[N]*` when new) + `<tag`
//     + ` key='value'` for kept include_attributes in the element's own order (role dropped when it
//     equals the tag, aria-label and placeholder dropped when equal to the text) + `>text` (a space
//     before it when no attributes) + a space when neither + ` />`; its children go one level deeper;
//   - text = all descendant text nodes up to nested highlighted elements, joined by '\n', stripped;
//   - an element without index prints nothing and its children stay at the same depth;
//   - a text node prints when no ancestor has an index and its parent is visible and top.
// Without a dom_tree the same format is produced from the element list and text_context (depth =
// nesting of listed elements; attributes in include_attributes order, text = text_content).
import type { DomElementNode, DomNode, SimplifiedState } from '../../generated/protocol';
import { entries } from './common';

/** Agent's default include_attributes in 0.1.40 and 0.1.48. */
export const DEFAULT_INCLUDE_ATTRIBUTES = [
  'title',
  'type',
  'name',
  'role',
  'aria-label',
  'placeholder',
  'value',
  'alt',
  'aria-expanded',
  'data-date-format',
];

function line(
  depth: number,
  index: number,
  isNew: boolean,
  tag: string,
  attributes: [string, string][],
  rawText: string,
  include: readonly string[],
): string {
  const text = rawText.trim();
  let kept = attributes.filter(([k]) => include.includes(k));
  kept = kept.filter(([k, v]) => !(k === 'role' && v === tag) && !((k === 'aria-label' || k === 'placeholder') && v.trim() === text));
  const attrs = kept.map(([k, v]) => `${k}='${v}'`).join(' ');
  let s = `${'\t'.repeat(depth)}${isNew ? `*[${index}]*` : `[${index}]`}<${tag}`;
  if (attrs) s += ` ${attrs}`;
  if (text) s += `${attrs ? '' : ' '}>${text}`;
  else if (!attrs) s += ' ';
  return `${s} />`;
}

function textTillNextClickable(node: DomElementNode): string {
  const parts: string[] = [];
  const collect = (n: DomNode, self: boolean) => {
    if (n.kind === 'text') {
      parts.push(n.text);
      return;
    }
    if (!self && n.highlight_index !== undefined) return;
    for (const c of n.children) collect(c, false);
  };
  collect(node, true);
  return parts.join('\n').trim();
}

export function renderBrowserUseTree(
  root: DomNode,
  isNew: (elementId: string) => boolean,
  include: readonly string[] = DEFAULT_INCLUDE_ATTRIBUTES,
): string {
  const out: string[] = [];
  const visit = (n: DomNode, depth: number, parent: DomElementNode | null, highlightedAbove: boolean) => {
    if (n.kind === 'text') {
      if (!highlightedAbove && parent && parent.is_visible !== false && parent.is_top_element !== false)
        out.push(`${'\t'.repeat(depth)}${n.text}`);
      return;
    }
    if (n.highlight_index !== undefined) {
      out.push(
        line(
          depth,
          n.highlight_index,
          n.element_id !== undefined && isNew(n.element_id),
          n.tag,
          Object.entries(n.attributes).filter((p): p is [string, string] => p[1] !== undefined),
          textTillNextClickable(n),
          include,
        ),
      );
      for (const c of n.children) visit(c, depth + 1, n, true);
    } else {
      for (const c of n.children) visit(c, depth, n, highlightedAbove);
    }
  };
  visit(root, 0, null, false);
  return out.join('\n');
}

/** The element text browser_use would give the LLM for this state. */
export function renderBrowserUse(state: SimplifiedState, include: readonly string[] = DEFAULT_INCLUDE_ATTRIBUTES): string {
  if (state.dom_tree) {
    const fresh = new Set(state.actionable_elements.filter((e) => e.is_new).map((e) => e.id));
    return renderBrowserUseTree(state.dom_tree, (id) => fresh.has(id), include);
  }
  const out: string[] = [];
  for (const e of entries(state)) {
    if (e.kind === 'text') {
      out.push(`${'\t'.repeat(e.depth)}${e.item.text}`);
      continue;
    }
    const el = e.el;
    const attrs = include.flatMap((k) => (el.attributes[k] !== undefined ? [[k, el.attributes[k] as string] as [string, string]] : []));
    out.push(line(e.depth, el.index ?? 0, el.is_new === true, el.tag, attrs, el.text_content ?? '', include));
  }
  return out.join('\n');
}
