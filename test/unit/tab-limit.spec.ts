// A session that refuses past its tab limit (CDP clients): the tab that would go past it is not
// leased, nothing the session holds is released, and the refusal says the limit and how to raise it.
// Other agents keep "release the oldest" (bridge-units.spec.ts).
import { expect } from 'chai';
import sinon from 'sinon';
import type { WebSocket } from 'ws';

import { createLogger } from '../../bridge/common/log';
import { TAB_LIMIT_REFUSES } from '../../bridge/common/tab-limit-refuses';
import { Peer } from '../../bridge/src/peer';
import { SessionRegistry } from '../../bridge/src/sessions';
import { tabLimitRefusal } from '../../bridge/src/tab-limit';
import type { ActionMessage } from '../../schemas/generated/protocol';

const peer = () =>
  new Peer(
    'p',
    'agent',
    { OPEN: 1, CONNECTING: 0, readyState: 1, send: sinon.spy(), close: sinon.spy() } as unknown as WebSocket,
    createLogger('silent'),
  );
const action = (name: string, tabId?: number): ActionMessage =>
  ({ type: 'action', action_id: 'a1', action: name, params: {}, ...(tabId === undefined ? {} : { tab_id: tabId }) }) as ActionMessage;

describe('tab limit: refuse instead of evict', () => {
  it('a refusing session is not leased a tab past max_tabs and keeps the ones it holds', () => {
    const reg = new SessionRegistry({ graceMs: 1000, resultCapacity: 4 });
    const s = reg.create(peer(), 2);
    s.capabilities = [TAB_LIMIT_REFUSES];
    reg.lease(s, 1, 'u1');
    reg.lease(s, 2, 'u2');
    expect(reg.lease(s, 3, 'u3')).to.deep.equal({ ok: false, released: [] });
    expect([...s.tabs.keys()]).to.deep.equal([1, 2]);
    expect(reg.ownerOf(null, 3)).to.equal(null);
    expect(reg.lease(s, 2, 'u2b').ok, 'a tab it holds is still its own').to.equal(true);
  });

  it('the refusal names the limit, that nothing closed, and the cdp-url command that raises it; actions on held tabs pass', () => {
    const reg = new SessionRegistry({ graceMs: 1000, resultCapacity: 4 });
    const s = reg.create(peer(), 2);
    s.capabilities = [TAB_LIMIT_REFUSES];
    s.client = { name: 'cdp:playwright', version: '1' };
    reg.lease(s, 1, null);
    reg.lease(s, 2, null);
    const opened = tabLimitRefusal(s, action('open_tab'), null);
    expect(opened?.error_code).to.equal('NOT_PERMITTED');
    expect(opened?.details).to.deep.equal({ reason: 'tab_limit', max_tabs: 2 });
    expect(opened?.message).to.match(/holds 2 tabs.*no tab was opened and nothing it holds was closed/);
    expect(opened?.message).to.include('browser-use-ext cdp-url --name playwright --tabs 3');
    expect(tabLimitRefusal(s, action('cdp_attach', 9), 9)?.details).to.deep.equal({ reason: 'tab_limit', max_tabs: 2, tab_id: 9 });
    expect(tabLimitRefusal(s, action('cdp_attach', 2), 2), 'a held tab').to.equal(null);
    expect(tabLimitRefusal(s, action('cdp_detach', 9), 9), 'letting go never takes a tab').to.equal(null);
    s.requestedMaxTabs = 5;
    expect(tabLimitRefusal(s, action('open_tab'), null)?.message).to.match(/the person capped every agent at 2 tabs/);
  });

  it('an agent that did not ask keeps releasing its oldest tab (seed 002)', () => {
    const reg = new SessionRegistry({ graceMs: 1000, resultCapacity: 4 });
    const s = reg.create(peer(), 1);
    reg.lease(s, 1, 'u1');
    expect(tabLimitRefusal(s, action('open_tab'), null)).to.equal(null);
    expect(reg.lease(s, 2, 'u2').released).to.deep.equal([{ tabId: 1, url: 'u1' }]);
  });
});
