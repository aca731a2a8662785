// The relay's one way out to a CDP client (bridge/agents/cdp/cdp-writer.ts): a session diverted to a
// page WebSocket of /json/list gets every message of its own there, whichever way the answer was
// made (built here, or Chrome's own text passed through), and the browser socket gets none of them.
import { expect } from 'chai';

import { CdpWriter } from '../../bridge/agents/cdp/cdp-writer';
import type { Logger } from '../../bridge/common/log';

const quiet: Logger = { error: () => undefined, warn: () => undefined, info: () => undefined, debug: () => undefined };

describe('CDP writer: a page WebSocket gets its own session', () => {
  it('answers (built or passed through), errors and events of a diverted session go to the page socket, without sessionId', () => {
    const browser: string[] = [];
    const page: string[] = [];
    const writer = new CdpWriter({ send: (t) => browser.push(t), close: () => undefined }, quiet);
    writer.divert('P1', { write: (t) => page.push(t), detached: () => page.push('detached') });
    writer.reply({ id: 1, method: 'Runtime.evaluate', params: {}, sessionId: 'P1' }, { a: 1 });
    writer.replyJson({ id: 2, method: 'Runtime.evaluate', params: {}, sessionId: 'P1' }, '{"b":2}');
    writer.fail(3, 'P1', { code: -32000, message: 'no' });
    writer.event('P1', 'Page.loadEventFired', { timestamp: 1 });
    writer.replyJson({ id: 4, method: 'Runtime.evaluate', params: {}, sessionId: 'S2' }, '{"c":3}');
    expect(page.map((t) => JSON.parse(t) as unknown)).to.deep.equal([
      { id: 1, result: { a: 1 } },
      { id: 2, result: { b: 2 } },
      { id: 3, error: { code: -32000, message: 'no' } },
      { method: 'Page.loadEventFired', params: { timestamp: 1 } },
    ]);
    expect(browser.map((t) => JSON.parse(t) as unknown)).to.deep.equal([{ id: 4, result: { c: 3 }, sessionId: 'S2' }]);
  });
});
