// A closed <select>'s options on its own snapshot line: `combobox "Country" [ref=e3]: options "France"
// [selected], "Germany", … (+12 more)`. The page state lists a closed dropdown's options nowhere (they
// are not rendered), so a model had to guess what browser_select_option could pick, or spend a call on
// it. The MCP layer asks the page (get_dropdown_options, read-only) for the dropdowns of each state it
// renders, a few at a time, and remembers the answer per tab, page, element and selected value: an
// action's snapshot does not ask again for a dropdown that did not change.
import type { ActionableElement, DropdownOption, SimplifiedState } from '../../../schemas/generated/protocol';
import type { AgentClient } from '../../client/agent-client';

/** Options shown on a dropdown's line before "(+N more)": enough to see the kind, few tokens. */
export const DROPDOWN_OPTIONS_SHOWN = 10;
/** Dropdowns asked about per state at most (a long form's rest keep their plain line). */
export const DROPDOWN_LOOKUPS = 8;
const LOOKUP_TIMEOUT_MS = 3000;
/** Remembered folds per client (a tab's pages come and go; the oldest go first). */
const REMEMBERED = 500;

const clip = (s: string, n: number) => {
  const t = s.replace(/\s+/g, ' ').trim();
  return t.length <= n ? t : `${t.slice(0, n - 1)}…`;
};

/** The options as the line shows them: quoted, the selected ones marked (also when past the cap), then how many more. */
export function optionsText(
  options: readonly Pick<DropdownOption, 'text' | 'selected' | 'disabled'>[],
  cap = DROPDOWN_OPTIONS_SHOWN,
): string {
  if (options.length === 0) return 'no options';
  const word = (o: Pick<DropdownOption, 'text' | 'selected' | 'disabled'>) =>
    `${JSON.stringify(clip(o.text, 60))}${o.selected ? ' [selected]' : ''}${o.disabled ? ' [disabled]' : ''}`;
  const shown = options.slice(0, cap);
  const selectedLater = options.slice(cap).filter((o) => o.selected);
  const more = options.length - shown.length - selectedLater.length;
  const parts = [...shown.map(word), ...selectedLater.map((o) => `… ${word(o)}`)];
  return `options ${parts.join(', ')}${more > 0 ? ` (+${more} more)` : ''}`;
}

/** A closed single-choice <select> whose options the state does not list (and whose value is not redacted). */
function isClosedDropdown(el: ActionableElement, parents: ReadonlySet<number>): boolean {
  if (el.tag !== 'select' || el.redacted || el.index === undefined) return false;
  return !parents.has(el.index);
}

type Lookup = (elementId: string) => Promise<DropdownOption[] | null>;

/** Remembered folds of one MCP client, keyed by tab, page, element and selected value. */
export class DropdownMemory {
  private readonly folds = new Map<string, string>();

  /** `state` with each closed dropdown's options folded into its value (at most DROPDOWN_LOOKUPS asked). */
  async fold(state: SimplifiedState, tabId: number, lookup: Lookup): Promise<SimplifiedState> {
    const elements = state.actionable_elements;
    const parents = new Set<number>();
    for (const el of elements) if (el.role === 'option' && el.parent_index !== undefined) parents.add(el.parent_index);
    const dropdowns = elements.filter((el) => isClosedDropdown(el, parents));
    if (dropdowns.length === 0) return state;
    const page = state.url.replace(/#.*$/, '');
    const keyOf = (el: ActionableElement) => `${tabId}\n${page}\n${el.id}\n${el.current_value ?? ''}`;
    // Those in view first: what the model is looking at.
    const unknown = dropdowns
      .filter((el) => !this.folds.has(keyOf(el)))
      .sort((a, b) => Number(b.is_in_viewport === true) - Number(a.is_in_viewport === true))
      .slice(0, DROPDOWN_LOOKUPS);
    await Promise.all(
      unknown.map(async (el) => {
        const options = await lookup(el.id).catch(() => null);
        if (options) this.remember(keyOf(el), optionsText(options));
      }),
    );
    const folded = elements.map((el) => {
      const text = dropdowns.includes(el) ? this.folds.get(keyOf(el)) : undefined;
      return text === undefined ? el : { ...el, current_value: text };
    });
    return { ...state, actionable_elements: folded };
  }

  private remember(key: string, text: string): void {
    this.folds.delete(key);
    this.folds.set(key, text);
    while (this.folds.size > REMEMBERED) this.folds.delete(this.folds.keys().next().value as string);
  }
}

/** get_dropdown_options through the client, for DropdownMemory.fold: null when the page did not answer. */
export function dropdownLookup(agent: Pick<AgentClient, 'call'>, tabId: number): Lookup {
  return async (elementId) => {
    const r = await agent.call('get_dropdown_options', { element_id: elementId }, { tabId, timeoutMs: LOOKUP_TIMEOUT_MS });
    const options = (r.outcome_details?.result as { options?: DropdownOption[] } | undefined)?.options;
    return r.status === 'success' && Array.isArray(options) ? options : null;
  };
}
