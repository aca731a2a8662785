// Shared walk for the text renderings: the state's elements and text_context interleaved in
// document order (text_context.after_index), with each element's nesting depth (parent_index).
import type { ActionableElement, SimplifiedState, TextItem } from '../../generated/protocol';

export type Entry = { kind: 'element'; el: ActionableElement; depth: number } | { kind: 'text'; item: TextItem; depth: number };

/** Elements and text in document order; depth = how many listed ancestors an element has. */
export function entries(state: SimplifiedState): Entry[] {
  const depthOf = new Map<number, number>();
  const texts = state.text_context ?? [];
  const out: Entry[] = [];
  let ti = 0;
  const flushTexts = (upTo: number) => {
    while (ti < texts.length && (texts[ti] as TextItem).after_index <= upTo) {
      const item = texts[ti++] as TextItem;
      // Text inside a listed element is that element's text_content, so text_context is never nested.
      out.push({ kind: 'text', item, depth: 0 });
    }
  };
  flushTexts(0);
  for (const el of state.actionable_elements) {
    const index = el.index ?? out.length + 1;
    const depth = el.parent_index !== undefined ? (depthOf.get(el.parent_index) ?? 0) + 1 : 0;
    depthOf.set(index, depth);
    out.push({ kind: 'element', el, depth });
    flushTexts(index);
  }
  flushTexts(Number.POSITIVE_INFINITY);
  return out;
}

/** The value an agent may see: the redaction marker when redacted (never a silent blank). */
export function shownValue(el: ActionableElement): string | undefined {
  if (el.redacted && el.redacted.reason !== 'pii') return `[redacted:${el.redacted.reason}${el.redacted.has_value ? '' : ', empty'}]`;
  return el.current_value;
}

/** The label an agent reads: the accessible name, else the element's own text. */
export const labelOf = (el: ActionableElement): string => el.name || el.text_content || '';
