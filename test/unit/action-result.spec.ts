// The shared failed-action answer (schemas/lib/action-result.ts) is a valid action_result on the
// wire, field for field what the bridge, the client and the extension used to write by hand.
import { expect } from 'chai';

import { errorResult } from '../../schemas/lib/action-result';
import { errorInfo } from '../../schemas/lib/errors';
import { checkMessage } from '../../schemas/lib/wire';

describe('errorResult', () => {
  it('is a valid action_result with no outcome, no state and the error', () => {
    const error = errorInfo('EXTENSION_DISCONNECTED', 'The bridge restarted; take a new state and retry.', 'bridge');
    const r = errorResult('a1', 'click', error);
    expect(r).to.deep.equal({
      type: 'action_result',
      original_action_id: 'a1',
      action: 'click',
      status: 'error',
      outcome_details: null,
      new_simplified_state: null,
      error_info: error,
    });
    const checked = checkMessage(r, 'bridge');
    expect(checked.ok, JSON.stringify(checked)).to.equal(true);
  });
});
