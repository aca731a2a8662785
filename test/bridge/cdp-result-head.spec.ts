// An extension's successful cdp_result is routed by its envelope and its result passed on as the
// text the worker wrote, parsed only if something reads it; anything but that exact shape is
// decoded and validated in full (null here).
import { expect } from 'chai';

import { cdpResultByHead } from '../../bridge/src/cdp-result-head';
import { relayText, rememberRaw } from '../../bridge/src/raw-relay';

const worker = (result: unknown, id = 'b7', tabId = 3) =>
  JSON.stringify({ type: 'cdp_result', original_command_id: id, tab_id: tabId, result });

describe('cdp_result read by its envelope', () => {
  it('reads the id and tab, gives the same message when read, and relays the very bytes the worker sent', () => {
    const result = { strings: ['a "quoted" \\ one', 'ünï', '\u2028'], documents: [{ nodes: { nodeName: [0, 1] } }] };
    const text = worker(result, 'b"7\u0001');
    const m = cdpResultByHead(text);
    expect(m).to.not.equal(null);
    expect(m).to.deep.include({ type: 'cdp_result', original_command_id: 'b"7\u0001', tab_id: 3 });
    expect(m?.result).to.deep.equal(result);
    expect(JSON.stringify(m)).to.equal(text);
    if (!m) return;
    rememberRaw(m, text);
    expect(relayText(m, 'c1')).to.equal(worker(result, 'c1'));
  });

  it('the result is not parsed until read', () => {
    // Not JSON after the envelope: only reading the result finds out.
    const m = cdpResultByHead('{"type":"cdp_result","original_command_id":"b1","tab_id":1,"result":{nope}}');
    expect(m?.original_command_id).to.equal('b1');
    expect(() => m?.result).to.throw(SyntaxError);
  });

  it('any other shape is left to the full decode', () => {
    const cases = [
      JSON.stringify({ type: 'cdp_result', original_command_id: 'b1', tab_id: 1, error_info: { error_code: 'TIMEOUT' } }),
      JSON.stringify({ original_command_id: 'b1', type: 'cdp_result', tab_id: 1, result: {} }),
      worker({}, ''),
      worker({}, 'x'.repeat(129)),
      worker({}, 'b1', -1),
      worker([1]),
      '{"type":"cdp_result","original_command_id":"b\u0001","tab_id":1,"result":{}}',
      '{"type":"cdp_result","original_command_id":"b1","tab_id":1.5,"result":{}}',
      '{"type":"cdp_result","original_command_id":"b1","tab_id":1,"result":{} }',
      JSON.stringify({ type: 'cdp_event', tab_id: 1, method: 'Page.loadEventFired', params: {} }),
    ];
    for (const c of cases) expect(cdpResultByHead(c), c).to.equal(null);
  });
});
