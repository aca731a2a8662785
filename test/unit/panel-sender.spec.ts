// The worker obeys panel requests only from the extension's own pages: a content script in a web page
// (a compromised renderer can send anything a content script can) must not submit tasks, disconnect or
// redirect agents, take tabs, reconnect the bridge, rename the browser or connect backends. Real panel-relay.ts, fake chrome.
import { expect } from 'chai';

import type { PanelRequest, PanelResponse } from '../../extension/src/shared/panel-messages';

type Listener = (...args: unknown[]) => unknown;
const EXT_ID = 'abcdefghijklmnopabcdefghijklmnop';
const BASE = `chrome-extension://${EXT_ID}/`;
let onMessage: Listener | null = null;
const noop = { addListener: () => undefined };
const fakeChrome = {
  runtime: {
    id: EXT_ID,
    getURL: (p: string) => BASE + p,
    onInstalled: noop,
    onMessage: { addListener: (l: Listener) => (onMessage = l) },
  },
  contextMenus: { onClicked: noop, create: () => undefined },
  tabs: { onUpdated: noop, onRemoved: noop, sendMessage: async () => undefined, query: async () => [], get: async () => ({}) },
  // The worker's CDP relay is loaded with the lease tracking (its listeners are registered by index.ts, not here).
  debugger: { getTargets: async () => [] },
  storage: {
    onChanged: noop,
    local: { get: async () => ({}) },
    session: { get: async () => ({}), set: async () => undefined, remove: async () => undefined },
  },
};

const REQUESTS: PanelRequest[] = [
  { bux: 'panel', op: 'submit_task', prompt: 'buy it', use_element: false },
  { bux: 'panel', op: 'connector_add', dialect: '001', url: 'ws://127.0.0.1:9' },
  { bux: 'panel', op: 'connector_remove', connector_id: 'c1' },
  { bux: 'panel', op: 'cdp_revoke', name: 'ci-bot' },
  { bux: 'panel', op: 'task_control', task_id: 't1', command: 'stop' },
  { bux: 'panel', op: 'release_tab', session_id: 's1', tab_id: 3 },
  { bux: 'panel', op: 'disconnect_agent', session_id: 's2' },
  { bux: 'panel', op: 'reconnect' },
  { bux: 'panel', op: 'rename_browser', name: 'Work' },
];

describe("panel requests: only from the extension's own pages", () => {
  const sent: unknown[] = [];
  let reconnects = 0;
  const connection = {
    connected: true,
    send: (m: unknown) => sent.push(m),
    reconnectNow: () => (reconnects += 1),
    onReady: () => undefined,
  };
  const ask = (req: PanelRequest, sender: Record<string, unknown>) =>
    new Promise<PanelResponse>((resolve) => {
      const async = onMessage!(req, sender, resolve);
      expect(async).to.equal(true);
    });

  before(async () => {
    (globalThis as unknown as { chrome?: unknown }).chrome = fakeChrome;
    const { registerPanelRelay } = await import('../../extension/src/background/panel/panel-relay');
    registerPanelRelay(connection as never);
  });
  after(() => {
    delete (globalThis as unknown as { chrome?: unknown }).chrome;
  });
  beforeEach(() => {
    sent.length = 0;
    reconnects = 0;
  });

  it('refuses every panel request from a content script in a web page, and sends nothing to the bridge', async () => {
    const page = { id: EXT_ID, url: 'https://shop.example/checkout', tab: { id: 3 }, frameId: 0 };
    for (const req of REQUESTS) {
      const r = await ask(req, page);
      expect(r.ok, req.op).to.equal(false);
      expect(r.ok === false && r.error, req.op).to.match(/only from the extension's side panel/);
    }
    expect(sent).to.deep.equal([]);
    expect(reconnects).to.equal(0);
  });

  it('obeys the same requests from the side panel', async () => {
    const panel = { id: EXT_ID, url: `${BASE}sidepanel/index.html` };
    expect((await ask({ bux: 'panel', op: 'disconnect_agent', session_id: 's2' }, panel)).ok).to.equal(true);
    expect(sent).to.deep.equal([{ type: 'session_control', command: 'disconnect', session_id: 's2' }]);
    expect((await ask({ bux: 'panel', op: 'reconnect' }, panel)).ok).to.equal(true);
    expect(reconnects).to.equal(1);
  });
});
