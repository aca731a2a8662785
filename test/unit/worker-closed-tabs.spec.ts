// background/closed-tabs.ts with a fake chrome: what the worker keeps per tab (state_delta bases, the
// index map in memory and storage.session, dom_tree highlights, a background watch's notice, requests
// to child frames, content ports) is filled through each module's own API for 100 tabs, then
// tabs.onRemoved fires for each: nothing is left for them, and a tab still open keeps its state.
// The onRemoved listener that installClosedTabs() registers (as the worker's entry does) is what is
// under test.
import { expect } from 'chai';

import type { FrameSnapshot } from '../../extension/src/shared/frame-snapshot';
import type { SimplifiedState } from '../../schemas/generated/protocol';

type Listener = (...args: unknown[]) => unknown;
const event = () => {
  const ls: Listener[] = [];
  return { addListener: (l: Listener) => ls.push(l), fire: (...a: unknown[]) => ls.map((l) => l(...a)) };
};
const session = new Map<string, unknown>();
const onRemoved = event();
const fakeChrome = {
  runtime: { lastError: undefined },
  tabs: {
    onRemoved,
    connect: () => ({ onMessage: event(), onDisconnect: event(), postMessage: () => undefined, disconnect: () => undefined }),
    // The content script's answer to a background no-change watch: nothing changed.
    sendMessage: async () => ({
      ok: true,
      kind: 'watch',
      changed: false,
      watched_ms: 1,
      report: { dom_changed: false, effects: false, settled: true, network_idle_ms: 0 },
      drained: { api_activity: [], dialogs: [], dialog_count: 0, pending: [] },
    }),
  },
  scripting: { executeScript: async () => [] },
  webNavigation: { onCommitted: event(), onDOMContentLoaded: event(), onCompleted: event(), getAllFrames: async () => [] },
  storage: {
    session: {
      set: async (o: Record<string, unknown>) => Object.entries(o).forEach(([k, v]) => session.set(k, v)),
      get: async (k: string) => (session.has(k) ? { [k]: session.get(k) } : {}),
      remove: async (k: string) => void session.delete(k),
    },
  },
};

const topSnapshot = (url: string): FrameSnapshot => ({
  url,
  title: 'Tab',
  elements: [],
  texts: [],
  frames: [],
  order: '',
  tree: {
    kind: 'element',
    tag: 'body',
    xpath: '/body',
    attributes: {},
    children: [],
    is_visible: false,
    is_interactive: false,
    is_top_element: false,
    is_in_viewport: false,
    shadow_root: false,
  },
  scroll: { x: 0, y: 0 },
  viewport: { width: 800, height: 600 },
  page_size: { width: 800, height: 600 },
  focused: null,
  elements_omitted: 0,
  text_cut: false,
  walk_ms: 0,
});
const tick = () => new Promise((r) => setTimeout(r, 5));
const TABS = Array.from({ length: 100 }, (_, i) => 1000 + i);
const OPEN_TAB = 5000;

describe('closed tabs free their state in the worker', () => {
  let held: typeof import('../../extension/src/background/closed-tabs').heldForTab;
  before(async () => {
    (globalThis as unknown as { chrome?: unknown }).chrome = fakeChrome;
    const closedTabs = await import('../../extension/src/background/closed-tabs');
    closedTabs.installClosedTabs();
    held = closedTabs.heldForTab;
  });
  after(() => {
    delete (globalThis as unknown as { chrome?: unknown }).chrome;
  });

  it('opening then closing 100 tabs leaves nothing of them, and an open tab keeps its state', async () => {
    const { collectState } = await import('../../extension/src/background/state/collect');
    const { rememberState } = await import('../../extension/src/background/state/state-cache');
    const { resolveSettle, watchInBackground } = await import('../../extension/src/background/page-watch/settle-rule');
    const { trackRequest } = await import('../../extension/src/background/state/frame-liveness');
    const { sendToContent } = await import('../../extension/src/background/connection/content-channel');
    const fill = async (tabId: number) => {
      const s = await collectState(tabId, { include_dom_tree: true }, topSnapshot(`https://example.test/${tabId}`));
      expect(s.ok).to.equal(true);
      rememberState(tabId, (s as { state: SimplifiedState }).state);
      watchInBackground(tabId, 0, resolveSettle(undefined, { no_change_timeout_ms: 1 }));
      void trackRequest(tabId, 7, undefined, new Promise(() => undefined));
      void sendToContent(tabId, { channel: 'bux', kind: 'run_action', action: 'click', params: { element_id: 'e1' } });
    };
    for (const tabId of [...TABS, OPEN_TAB]) await fill(tabId);
    await tick();
    const full = { states: 1, index: 3, deferred: 1, frame_requests: 1, ports: 1 };
    // The state cache keeps its own last 10 tabs (state-cache.ts MAX_TABS): older ones hold no states.
    const recent = new Set([...TABS.slice(-9), OPEN_TAB]);
    for (const tabId of [...TABS, OPEN_TAB]) {
      expect(held(tabId), `tab ${tabId} before closing`).to.deep.equal({ ...full, states: recent.has(tabId) ? 1 : 0 });
    }
    expect(session.has(`state_index_${TABS[0]}`)).to.equal(true);

    await Promise.all(TABS.flatMap((tabId) => onRemoved.fire(tabId, { windowId: 1, isWindowClosing: false })));
    const none = { states: 0, index: 0, deferred: 0, frame_requests: 0, ports: 0 };
    for (const tabId of TABS) expect(held(tabId), `tab ${tabId} after closing`).to.deep.equal(none);
    for (const tabId of TABS) expect(session.has(`state_index_${tabId}`), `storage.session index of tab ${tabId}`).to.equal(false);
    expect(held(OPEN_TAB)).to.deep.equal(full);
    expect(session.has(`state_index_${OPEN_TAB}`)).to.equal(true);
  });
});
