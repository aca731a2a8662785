// The registry of cdp_commands in flight to the extension: every command is answered exactly once,
// by its cdp_result, its timeout, or the failure that ended it; an answer naming another tab never
// reaches the caller.
import { expect } from 'chai';

import { CdpCommandsInFlight } from '../../bridge/src/cdp-in-flight';
import type { CdpCommandMessage, CdpResultMessage } from '../../schemas/generated/protocol';

const command = (id: string, tabId = 4): CdpCommandMessage => ({
  type: 'cdp_command',
  command_id: id,
  tab_id: tabId,
  method: 'Runtime.evaluate',
  params: { expression: '1' },
});
const long = { timeoutMs: 60_000, remainingMs: 60_000 };

describe('CdpCommandsInFlight', () => {
  it('sends under the relay id and answers the caller once with the extension cdp_result', () => {
    const reg = new CdpCommandsInFlight();
    const got: CdpResultMessage[] = [];
    const sent = reg.add('b1', command('c1'), (r) => got.push(r), long);
    expect(sent).to.deep.include({ command_id: 'b1', tab_id: 4, method: 'Runtime.evaluate' });
    const answer: CdpResultMessage = { type: 'cdp_result', original_command_id: 'b1', tab_id: 4, result: { value: 1 } };
    expect(reg.onResult(answer)).to.equal(null);
    expect(reg.onResult(answer), 'a second answer').to.equal('unknown');
    expect(got).to.deep.equal([answer]);
    expect(reg.size).to.equal(0);
  });

  it("an answer naming another tab is EXTENSION_INTERNAL_ERROR, without the other tab's result", () => {
    const reg = new CdpCommandsInFlight();
    const got: CdpResultMessage[] = [];
    reg.add('b2', command('c2'), (r) => got.push(r), long);
    expect(reg.onResult({ type: 'cdp_result', original_command_id: 'b2', tab_id: 5, result: { secret: 'x' } })).to.match(/tab 4/);
    expect(got).to.have.length(1);
    expect(got[0]).to.deep.include({ original_command_id: 'c2', tab_id: 4 });
    expect(got[0]?.error_info?.error_code).to.equal('EXTENSION_INTERNAL_ERROR');
    expect(got[0]?.result).to.equal(undefined);
  });

  it('times out with TIMEOUT naming the method and the timeout; failAll answers every command once', async () => {
    const reg = new CdpCommandsInFlight();
    const got: CdpResultMessage[] = [];
    reg.add('b3', command('c3'), (r) => got.push(r), { timeoutMs: 30_000, remainingMs: 5 });
    await new Promise((r) => setTimeout(r, 30));
    expect(got[0]?.error_info).to.deep.include({ error_code: 'TIMEOUT', details: { timeout_ms: 30_000 } });
    expect(got[0]?.error_info?.message).to.match(/^Runtime\.evaluate got no answer within 30000 ms/);
    reg.add('b4', command('c4'), (r) => got.push(r), long);
    reg.add('b5', command('c5', 6), (r) => got.push(r), long);
    const n = reg.failAll((method) => ({
      error_code: 'EXTENSION_DISCONNECTED',
      message: `gone during ${method}`,
      component_origin: 'bridge',
    }));
    expect(n).to.equal(2);
    expect(got.slice(1).map((r) => [r.original_command_id, r.tab_id, r.error_info?.message])).to.deep.equal([
      ['c4', 4, 'gone during Runtime.evaluate'],
      ['c5', 6, 'gone during Runtime.evaluate'],
    ]);
    expect(
      reg.fail('b4', () => ({ error_code: 'TIMEOUT', message: 'x', component_origin: 'bridge' })),
      'already answered',
    ).to.equal(false);
  });
});
