// A closed dropdown's options on its snapshot line, capped, the selected one marked; asked once per
// dropdown and value, never for a redacted one.
import { expect } from 'chai';

import { DropdownMemory, optionsText } from '../../bridge/agents/mcp/dropdown-options';
import { snapshotLines } from '../../bridge/agents/mcp/snapshot-text';
import type { ActionableElement, DropdownOption, SimplifiedState } from '../../schemas/generated/protocol';

const countries = [
  'France',
  'Germany',
  'Italy',
  'Spain',
  'Portugal',
  'Austria',
  'Belgium',
  'Denmark',
  'Finland',
  'Greece',
  'Ireland',
  'Norway',
];
const options = (selected: string): DropdownOption[] =>
  countries.map((text, index) => ({ index, text, value: text.toLowerCase(), selected: text === selected, disabled: false }));

const select = (extra: Partial<ActionableElement> = {}): ActionableElement => ({
  id: 'e3',
  index: 3,
  type: 'SELECT',
  tag: 'select',
  role: 'combobox',
  name: 'Country',
  current_value: 'Norway',
  attributes: {},
  is_visible: true,
  is_in_viewport: true,
  available_operations: ['select_option'],
  ...extra,
});
const stateWith = (...elements: ActionableElement[]): SimplifiedState =>
  ({ url: 'https://shop.test/form', title: 'Form', actionable_elements: elements }) as unknown as SimplifiedState;

describe('MCP snapshots: a dropdown lists its options', () => {
  it('folds the options on the line, capped with a count, the selected one marked even past the cap', () => {
    expect(optionsText(options('France'))).to.equal(
      'options "France" [selected], "Germany", "Italy", "Spain", "Portugal", "Austria", "Belgium", "Denmark", "Finland", "Greece" (+2 more)',
    );
    expect(optionsText(options('Norway'), 3)).to.equal('options "France", "Germany", "Italy", … "Norway" [selected] (+8 more)');
  });

  it('asks the page once per dropdown and value, and shows the options on the snapshot line (also for the element alone)', async () => {
    const memory = new DropdownMemory();
    const asked: string[] = [];
    const lookup = (id: string) => (asked.push(id), Promise.resolve(options('Norway')));
    const folded = await memory.fold(stateWith(select()), 7, lookup);
    const line = snapshotLines(folded).join('\n');
    expect(line).to.match(/combobox "Country" \[ref=e3\]: options "France", .* … "Norway" \[selected\] \(\+1 more\)/);
    await memory.fold(stateWith(select()), 7, lookup);
    expect(asked, 'remembered for the same page, element and value').to.deep.equal(['e3']);
    await memory.fold(stateWith(select({ current_value: 'France' })), 7, lookup);
    expect(asked, 'asked again once its value changed').to.deep.equal(['e3', 'e3']);
  });

  it('never asks about a redacted dropdown, and leaves a line as it was when the page does not answer', async () => {
    const memory = new DropdownMemory();
    const asked: string[] = [];
    const redacted = select({ id: 'e4', index: 4, redacted: { reason: 'payment_card', has_value: true } } as Partial<ActionableElement>);
    const out = await memory.fold(stateWith(redacted), 7, (id) => (asked.push(id), Promise.resolve(options('France'))));
    expect(asked).to.deep.equal([]);
    expect(out.actionable_elements[0]).to.deep.equal(redacted);
    const silent = await new DropdownMemory().fold(stateWith(select()), 7, () => Promise.resolve(null));
    expect(silent.actionable_elements[0]?.current_value).to.equal('Norway');
  });
});
