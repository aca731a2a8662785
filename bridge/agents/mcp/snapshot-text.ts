// The snapshot text MCP clients read: seed 001's accessibility tree (schemas/lib/render/aria-tree.ts)
// of a simplified_state, optionally cut to one element's subtree, optionally as the difference from
// the client's previous snapshot of the same tab (only what changed, to save the model's tokens).
import type { SimplifiedState } from '../../../schemas/generated/protocol';
import { type AriaTreeOptions, renderAriaTree } from '../../../schemas/lib/render/aria-tree';
import { DropdownMemory } from './dropdown-options';

/** The state cut to the element `ref` and the elements (and text) nested inside it; null when absent. */
export function subtreeState(state: SimplifiedState, ref: string): SimplifiedState | null {
  const elements = state.actionable_elements;
  const root = elements.find((e) => e.id === ref);
  if (!root) return null;
  const rootIndex = root.index;
  const inside = new Set<number>();
  if (rootIndex !== undefined) inside.add(rootIndex);
  const top = { ...root };
  delete top.parent_index; // the root is the top of the cut, indented as such
  const kept = [top];
  let lastIndex = rootIndex ?? 0;
  for (const el of elements) {
    if (el === root || el.index === undefined || el.parent_index === undefined) continue;
    if (inside.has(el.parent_index)) {
      inside.add(el.index);
      kept.push(el);
      lastIndex = Math.max(lastIndex, el.index);
    }
  }
  // Text between the root and its last descendant (text_context is in document order by after_index).
  const texts = (state.text_context ?? []).filter(
    (t) => rootIndex !== undefined && t.after_index >= rootIndex && t.after_index < lastIndex,
  );
  const cut: SimplifiedState = { ...state, actionable_elements: kept, text_context: texts };
  delete cut.truncation;
  return cut;
}

/** Options shown on a select's line before "… N more" (a country list has ~250). */
export const SELECT_OPTIONS_SHOWN = 25;

/**
 * A <select>'s options folded into its own line: `- listbox "Size" [ref=e5]: M (options: S, M, L)`,
 * so a model sees what browser_select_option can pick, and which is selected, on one line instead of
 * one line (and one ref) per option. Only for <select> elements whose options the state lists as
 * child nodes (a listbox select's options are rendered rows; a closed dropdown's are not in the
 * state); ARIA listboxes keep their option rows, whose refs may be clicked. `cap`: options shown.
 */
export function foldSelectOptions(state: SimplifiedState, cap = SELECT_OPTIONS_SHOWN): SimplifiedState {
  const elements = state.actionable_elements;
  const selects = new Map<number, (typeof elements)[number]>();
  for (const el of elements) if (el.tag === 'select' && el.index !== undefined && !el.redacted) selects.set(el.index, el);
  if (selects.size === 0) return state;
  const optionsOf = new Map<number, (typeof elements)[number][]>();
  const kept: typeof elements = [];
  for (const el of elements) {
    const parent = el.parent_index === undefined ? undefined : selects.get(el.parent_index);
    if (parent && el.role === 'option' && parent.index !== undefined) {
      optionsOf.set(parent.index, [...(optionsOf.get(parent.index) ?? []), el]);
      continue;
    }
    kept.push(el);
  }
  if (optionsOf.size === 0) return state;
  const label = (o: (typeof elements)[number]) => o.name || o.text_content || '';
  const folded = kept.map((el) => {
    const opts = el.index === undefined ? undefined : optionsOf.get(el.index);
    if (!opts) return el;
    const selected = opts.filter((o) => o.states?.selected === true).map(label);
    const shown = opts.slice(0, cap).map((o) => `${label(o)}${o.states?.disabled === true ? ' [disabled]' : ''}`);
    const more = opts.length > cap ? `, … ${opts.length - cap} more` : '';
    const value = selected.length ? selected.join(', ') : 'none selected';
    return { ...el, current_value: `${value} (options: ${shown.join(', ')}${more})` };
  });
  return { ...state, actionable_elements: folded };
}

export function snapshotLines(state: SimplifiedState, options: AriaTreeOptions = {}, optionsCap = SELECT_OPTIONS_SHOWN): string[] {
  const text = renderAriaTree(foldSelectOptions(state, optionsCap), options);
  return text === '' ? [] : text.split('\n');
}

const REFS = /\[ref=([^\]]+)\]/g;
/** A line's identity for diffing: its refs (a prose line holds several inline links), or undefined. */
const refKey = (line: string): string | undefined => {
  const refs = [...line.matchAll(REFS)].map((m) => m[1]);
  return refs.length > 0 ? refs.join(' ') : undefined;
};

/**
 * Lines of `next` that are new or changed against `prev` ("+ " prefix), and what disappeared
 * ("- " prefix). Lines with refs are matched by their refs (a changed name, value or state shows as the
 * new line); other lines by their text, counting repeats. Order follows `next`.
 */
export function diffSnapshots(prev: readonly string[], next: readonly string[]): { added: string[]; removed: string[] } {
  const prevByRef = new Map<string, string>();
  const prevText = new Map<string, number>();
  for (const line of prev) {
    const ref = refKey(line);
    if (ref !== undefined) prevByRef.set(ref, line.trim());
    else prevText.set(line.trim(), (prevText.get(line.trim()) ?? 0) + 1);
  }
  const added: string[] = [];
  const seenRefs = new Set<string>();
  for (const line of next) {
    const ref = refKey(line);
    if (ref !== undefined) {
      seenRefs.add(ref);
      if (prevByRef.get(ref) !== line.trim()) added.push(line);
      continue;
    }
    const n = prevText.get(line.trim()) ?? 0;
    if (n > 0) prevText.set(line.trim(), n - 1);
    else added.push(line);
  }
  const removed: string[] = [];
  for (const [ref, line] of prevByRef) if (!seenRefs.has(ref)) removed.push(line);
  for (const [line, n] of prevText) for (let i = 0; i < n; i++) removed.push(line);
  return { added, removed };
}

/** Remembers each tab's last snapshot per scope, so incremental snapshots have a base. */
export class SnapshotMemory {
  private readonly last = new Map<string, { url: string; lines: string[] }>();
  /** Closed dropdowns' options already asked for (dropdown-options.ts). */
  readonly dropdowns = new DropdownMemory();

  private key(tabId: number, scope: string): string {
    return `${tabId}|${scope}`;
  }

  /**
   * Renders `state` fully or as a difference from the previous snapshot of the same tab and scope,
   * and remembers it. A different URL (navigation) or no previous snapshot gives the full text.
   */
  render(tabId: number, scope: string, state: SimplifiedState, incremental: boolean): { text: string; incremental: boolean } {
    // A subtree asked for by ref (scope "<viewport_expansion>#<ref>") is listed in full: the client
    // chose it to see exactly those elements, so long off-screen runs in it are not summarised and
    // a select shows all its options.
    const whole = scope.includes('#');
    const lines = snapshotLines(state, { summarize: !whole }, whole ? Number.POSITIVE_INFINITY : SELECT_OPTIONS_SHOWN);
    const key = this.key(tabId, scope);
    const prev = this.last.get(key);
    this.last.set(key, { url: state.url, lines });
    if (!incremental || !prev || prev.url !== state.url) return { text: lines.join('\n'), incremental: false };
    const { added, removed } = diffSnapshots(prev.lines, lines);
    if (added.length === 0 && removed.length === 0) return { text: '(no change since the last snapshot)', incremental: true };
    const out = [`# changes since the last snapshot: ${added.length} new or changed, ${removed.length} gone`];
    for (const l of added) out.push(`+ ${l.trim()}`);
    for (const l of removed) out.push(`- ${l}`);
    return { text: out.join('\n'), incremental: true };
  }

  forgetTab(tabId: number): void {
    for (const k of [...this.last.keys()]) if (k.startsWith(`${tabId}|`)) this.last.delete(k);
  }
}
