// A CDP client's command reaches chrome.debugger.sendCommand in the turn it arrives: every check
// (attachment, scope, method allow list, the person's settings) runs synchronously on what the
// worker keeps current, and a check that needs more (settings being read again) waits instead of
// judging by settings the person replaced. Run under a fake chrome that records what is sent.
import { expect } from 'chai';

import type { CdpCommandMessage } from '../../schemas/generated/protocol';

type Listener = (...args: unknown[]) => void;
const sent: { method: string; params: unknown }[] = [];
const storageListeners: Listener[] = [];
let stored: Record<string, unknown> = {};

/** A chrome whose calls resolve to [] except the few this spec drives. */
function fakeChrome(path = ''): unknown {
  const children = new Map<PropertyKey, unknown>();
  const own: Record<string, unknown> = {
    'debugger.sendCommand': (_target: unknown, method: string, params: unknown) => {
      sent.push({ method, params });
      return Promise.resolve(method === 'Runtime.evaluate' ? { result: { type: 'number', value: 1, description: '1' } } : {});
    },
    'storage.local.get': () => Promise.resolve({ ...stored }),
    'storage.onChanged.addListener': (f: Listener) => void storageListeners.push(f),
  };
  return new Proxy(() => Promise.resolve([]), {
    get(_t, key) {
      if (key === 'then') return undefined;
      const p = path ? `${path}.${String(key)}` : String(key);
      if (p in own) return own[p];
      if (!children.has(key)) children.set(key, fakeChrome(p));
      return children.get(key);
    },
  });
}

let command: typeof import('../../extension/src/background/cdp/cdp-command');
let attachments: typeof import('../../extension/src/background/cdp/debugger-attachments');
let policy: typeof import('../../extension/src/background/policy/person-policy');
const g = globalThis as unknown as { chrome?: unknown };
let before0: unknown;

const cdp = (method: string, params: Record<string, unknown>): CdpCommandMessage => ({
  type: 'cdp_command',
  command_id: `b${sent.length}`,
  tab_id: 7,
  method,
  params,
});
const settle = () => new Promise((r) => setTimeout(r, 0));

describe('CDP command path in the worker', () => {
  before(async () => {
    before0 = g.chrome;
    g.chrome = fakeChrome();
    command = await import('../../extension/src/background/cdp/cdp-command');
    attachments = await import('../../extension/src/background/cdp/debugger-attachments');
    policy = await import('../../extension/src/background/policy/person-policy');
    policy.installPersonPolicy();
    await attachments.holdForRelay(7);
    await settle();
  });
  after(() => {
    if (before0 === undefined) delete g.chrome;
    else g.chrome = before0;
  });
  beforeEach(() => void sent.splice(0));

  it('sends a command to Chrome in the same turn it arrives, and answers with its result', async () => {
    const answer = command.runCdpCommand(cdp('Runtime.evaluate', { expression: '1' }));
    expect(
      sent.map((s) => s.method),
      'sent before anything was awaited',
    ).to.deep.equal(['Runtime.evaluate']);
    expect(await answer).to.deep.include({
      type: 'cdp_result',
      tab_id: 7,
      result: { result: { type: 'number', value: 1, description: '1' } },
    });
  });

  it('a method off the allow list is refused without reaching Chrome', async () => {
    const answer = await command.runCdpCommand(cdp('Browser.close', {}));
    expect(answer.error_info?.error_code).to.equal('NOT_PERMITTED');
    expect(sent).to.deep.equal([]);
  });

  it("a navigation sent while the person's new settings are being read is judged by them", async () => {
    const blocked = 'https://blocked.example/';
    stored = { blocked_domains: ['blocked.example'] };
    for (const f of storageListeners) f({ blocked_domains: { newValue: ['blocked.example'] } }, 'local');
    const answer = await command.runCdpCommand(cdp('Page.navigate', { url: blocked }));
    expect(answer.error_info?.error_code).to.equal('NOT_PERMITTED');
    expect(answer.error_info?.details).to.deep.include({ reason: 'domain_policy', url: blocked });
    expect(sent, 'Chrome never saw it').to.deep.equal([]);
    // Once read, the same verdict without waiting; another site goes through in the same turn.
    const again = command.runCdpCommand(cdp('Page.navigate', { url: blocked }));
    const other = command.runCdpCommand(cdp('Page.navigate', { url: 'https://fine.example/' }));
    expect(sent.map((s) => s.params)).to.deep.equal([{ url: 'https://fine.example/' }]);
    expect((await again).error_info?.error_code).to.equal('NOT_PERMITTED');
    expect((await other).result).to.deep.equal({});
    stored = {};
    for (const f of storageListeners) f({ blocked_domains: { newValue: [] } }, 'local');
    await settle();
  });
});
