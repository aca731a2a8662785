// An MCP model reads errors in its own words: browser_snapshot and ref, not the protocol's get_state and element_id.
import { expect } from 'chai';

import { errorResult } from '../../bridge/agents/mcp/format';
import { forMcpModel } from '../../bridge/agents/mcp/reader-words';

describe('MCP error words', () => {
  it('a stale ref tells the model to take a browser_snapshot and use a ref', () => {
    const r = errorResult({
      error_code: 'TARGET_ELEMENT_NOT_FOUND',
      message:
        'Element e12 is stale: it was removed from the page after the state that listed it. Take a new state (get_state) and use an id from it.',
      details: { element_id: 'e12' },
    });
    const said = r.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
    expect(said).to.contain('Take a new browser_snapshot and use a ref from it').and.to.contain('"ref":"e12"');
    expect(said).not.to.match(/get_state|element_id/);
  });

  it('other protocol words become the snapshot and ref', () => {
    expect(
      forMcpModel('"x" is not an element id (ids look like e12 or f7e3). Take a new state (get_state) and use an id from it.'),
    ).to.equal('"x" is not a ref (refs look like e12 or f7e3). Take a new browser_snapshot and use a ref from it.');
    expect(forMcpModel('Pick the text input itself from a new state.')).to.equal('Pick the text input itself from a new browser_snapshot.');
    expect(forMcpModel('Open the menu, take a new state, and retry.')).to.equal('Open the menu, take a new browser_snapshot, and retry.');
  });
});
