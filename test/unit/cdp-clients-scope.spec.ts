// Each browser's side panel sees and controls only the CDP clients working in that browser.
import { expect } from 'chai';

import { cdpClientsFor, mayControlCdpClient } from '../../bridge/src/cdp-clients-scope';
import type { CdpClientsMessage } from '../../schemas/generated/protocol';

const conn = (session_id: string | null) => ({ session_id, commands_per_s: 0, last_method: null, tab_ids: [] });
const url = (name: string, connections: ReturnType<typeof conn>[]) => ({
  name,
  max_tabs: 3,
  created_at: '2026-12-06T00:00:00Z',
  last_used_at: null,
  connections,
});
const all: CdpClientsMessage = {
  type: 'cdp_clients',
  clients: [
    url('work-pw', [conn('s1')]),
    url('home-pw', [conn('s2')]),
    url('idle', []),
    url('mixed', [conn('s1'), conn('s2'), conn(null)]),
  ],
};
const browserOf = (s: string) => ({ s1: 'work0001', s2: 'home0002' })[s] ?? null;

describe('CDP clients per browser', () => {
  it("cuts the list to a browser's own clients; idle URLs and connections not bound yet show in every panel", () => {
    const work = cdpClientsFor(all, 'work0001', browserOf);
    expect(work.clients.map((c) => [c.name, c.connections.map((k) => k.session_id)])).to.deep.equal([
      ['work-pw', ['s1']],
      ['idle', []],
      ['mixed', ['s1', null]],
    ]);
  });

  it("refuses a panel's control of a URL whose clients all work in another browser", () => {
    const control = (name: string) => ({ type: 'cdp_client_control' as const, request_id: 'r', op: 'revoke' as const, name });
    expect(mayControlCdpClient(all, control('home-pw'), 'work0001', browserOf)).to.equal(false);
    expect(mayControlCdpClient(all, control('work-pw'), 'work0001', browserOf)).to.equal(true);
    expect(mayControlCdpClient(all, control('idle'), 'work0001', browserOf)).to.equal(true);
    expect(mayControlCdpClient(all, control('mixed'), 'home0002', browserOf)).to.equal(true);
  });

  it("an idle URL made for one browser (cdp-url --browser) shows in that browser's panel only; one made for a browser not connected, or for none, in every panel", () => {
    const named = (n: string) => ({ work: 'work0001', home: 'home0002' })[n.toLowerCase()] ?? null;
    const made = (name: string, browser: string | null) => ({ ...url(name, []), browser });
    const idle: CdpClientsMessage = {
      type: 'cdp_clients',
      clients: [made('for-work', 'Work'), made('for-gone', 'Edge'), made('any', null)],
    };
    expect(cdpClientsFor(idle, 'home0002', browserOf, named).clients.map((c) => c.name)).to.deep.equal(['for-gone', 'any']);
    expect(cdpClientsFor(idle, 'work0001', browserOf, named).clients.map((c) => c.name)).to.deep.equal(['for-work', 'for-gone', 'any']);
    const control = { type: 'cdp_client_control' as const, request_id: 'r', op: 'revoke' as const, name: 'for-work' };
    expect(mayControlCdpClient(idle, control, 'home0002', browserOf, named)).to.equal(false);
    expect(mayControlCdpClient(idle, control, 'work0001', browserOf, named)).to.equal(true);
  });
});
