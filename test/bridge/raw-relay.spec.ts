// raw-relay: an action_result goes to its agent as the bytes the extension sent (validated once by
// the bridge), with only the leading relay id swapped for the agent's id; anything else is re-serialized.
import { expect } from 'chai';

import { relayText, rememberRaw } from '../../bridge/src/raw-relay';
import type { ActionResultMessage, CdpResultMessage } from '../../schemas/generated/protocol';

describe('raw-relay (forward the validated bytes)', () => {
  const result = (): ActionResultMessage => ({
    type: 'action_result',
    original_action_id: 'b7',
    action: 'get_state',
    status: 'success',
    outcome_details: { message: 'State taken.' },
    new_simplified_state: null,
    error_info: null,
  });

  it('swaps the relay id for the agent id and keeps every other byte', () => {
    const m = result();
    const text = JSON.stringify(m);
    rememberRaw(m, text);
    const out = relayText(m, 'agent "id" 1');
    expect(out).to.equal(text.replace('"original_action_id":"b7"', '"original_action_id":"agent \\"id\\" 1"'));
    expect(JSON.parse(out as string)).to.deep.equal({ ...m, original_action_id: 'agent "id" 1' });
  });

  it('falls back (null) when the text does not start with the expected envelope, or was never received', () => {
    const m = result();
    rememberRaw(m, JSON.stringify({ original_action_id: 'b7', type: 'action_result' }));
    expect(relayText(m, 'x')).to.equal(null);
    const m2 = result();
    rememberRaw(m2, ` ${JSON.stringify(m2)}`);
    expect(relayText(m2, 'x')).to.equal(null);
    expect(relayText(result(), 'x')).to.equal(null);
  });

  it("swaps a cdp_result's relay id for the command id the agent chose", () => {
    const m: CdpResultMessage = { type: 'cdp_result', original_command_id: 'b9', tab_id: 4, result: { frameTree: {} } };
    const text = JSON.stringify(m);
    rememberRaw(m, text);
    const out = relayText(m, 'c1');
    expect(out).to.equal(text.replace('"original_command_id":"b9"', '"original_command_id":"c1"'));
    expect(JSON.parse(out as string)).to.deep.equal({ ...m, original_command_id: 'c1' });
  });
});
