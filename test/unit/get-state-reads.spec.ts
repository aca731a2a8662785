// run/dispatch.ts with a fake chrome: a get_state on a named tab asks the page for its walk before
// the worker's own reads (the tab lookup, the person's policy) have answered, and still answers
// nothing the verdict refuses: a tab on a blocked site, or a page that moved to one during the walk.
import { expect } from 'chai';

import type { ActionMessage, ActionResultMessage } from '../../schemas/generated/protocol';

type Listener = (...args: unknown[]) => void;
const event = () => {
  const ls: Listener[] = [];
  return {
    addListener: (l: Listener) => ls.push(l),
    removeListener: () => undefined,
    hasListener: () => false,
    fire: (...a: unknown[]) => ls.forEach((l) => l(...a)),
  };
};

/** A tab id no other spec uses (the worker's modules keep per-tab links and caches across specs). */
const TAB = 90417;
/** What happened, in order: the walk asked of the page, the tab lookup answered. */
const log: string[] = [];
let releaseTab: (() => void) | null = null;
/** The page answers its walk only once the tabs were listed (or after 1 s). */
let waitForTabList = false;
let tabUrl = 'https://news.example/';
let pageUrl = 'https://news.example/';
const storage: Record<string, unknown> = {};
const storageChanged = event();

class FakePort {
  onMessage = event();
  onDisconnect = event();
  postMessage(m: { kind: string; id: number; request: { kind: string } }): void {
    log.push(`page asked: ${m.request.kind}`);
    queueMicrotask(() => this.onMessage.fire({ kind: 'hello' }));
    if (m.request.kind !== 'snapshot') return;
    // The walk ends once the tab list is asked for (or after 1 s): a worker that lists the tabs only
    // after the walk shows as the listing after the answer.
    const answer = () => {
      log.push('page answered');
      this.onMessage.fire({ kind: 'answer', id: m.id, response: snapshot() });
    };
    if (!waitForTabList) queueMicrotask(answer);
    else {
      const t0 = Date.now();
      const poll = () => (log.includes('tabs listed') || Date.now() - t0 > 1000 ? answer() : setTimeout(poll, 2));
      poll();
    }
  }
  disconnect(): void {}
}

const snapshot = () => ({
  ok: true,
  message: 'snapshot',
  result: {},
  frame: {
    url: pageUrl,
    title: 'News',
    elements: [],
    texts: [],
    frames: [],
    order: '',
    viewport: { width: 800, height: 600 },
    scroll: { x: 0, y: 0 },
    page_size: { width: 800, height: 600 },
    focused: null,
    elements_omitted: 0,
    text_cut: false,
    walk_ms: 1,
  },
});

/** A chrome namespace: the given members, and an event (addListener, ...) for any other one. */
const ns = <T extends object>(members: T): T =>
  new Proxy(members, { get: (t, k) => (k in t ? (t as Record<string | symbol, unknown>)[k] : event()) });

const fakeChrome = new Proxy(
  {
    runtime: ns({ lastError: undefined, onMessage: event(), getURL: (p: string) => `chrome-extension://x/${p}`, id: 'x' }),
    tabs: ns({
      connect: () => new FakePort(),
      get: (id: number) =>
        new Promise((resolve) => {
          releaseTab = () => {
            log.push('tab lookup answered');
            resolve({ id, url: tabUrl, windowId: 1, active: true });
          };
        }),
      query: async (q: { windowType?: string }) => {
        if (q.windowType === 'normal') log.push('tabs listed');
        return q.windowType === 'normal' ? [{ id: TAB, url: tabUrl, title: 'News', active: true, index: 0, windowId: 1 }] : [];
      },
      sendMessage: async () => ({ ok: true, message: 'drained', result: {} }),
      onUpdated: event(),
      onRemoved: event(),
    }),
    webNavigation: ns({ getAllFrames: async () => [{ frameId: 0, parentFrameId: -1, url: pageUrl }] }),
    storage: {
      local: { get: async () => ({ ...storage }), set: async () => undefined },
      session: { get: async () => ({}), set: async () => undefined, remove: async () => undefined },
      onChanged: storageChanged,
    },
  } as Record<string, unknown>,
  { get: (t, k: string) => (k in t ? t[k] : ns({})) },
);

const action = (params: Record<string, unknown> = {}): ActionMessage => ({
  type: 'action',
  action_id: `a${Date.now()}`,
  action: 'get_state',
  tab_id: TAB,
  params,
});

describe("get_state: the worker's reads beside the page's walk", () => {
  let runAction: typeof import('../../extension/src/background/run/dispatch').runAction;
  before(async () => {
    (globalThis as unknown as { chrome?: unknown }).chrome = fakeChrome;
    ({ runAction } = await import('../../extension/src/background/run/dispatch'));
    (await import('../../extension/src/background/policy/person-policy')).installPersonPolicy();
  });
  after(() => {
    delete (globalThis as unknown as { chrome?: unknown }).chrome;
  });
  beforeEach(async () => {
    log.length = 0;
    tabUrl = pageUrl = 'https://news.example/';
    waitForTabList = false;
    await block([]);
  });

  /** The person blocks these sites (the worker reads its settings again on the change). */
  async function block(sites: string[]): Promise<void> {
    storage['blocked_domains'] = sites;
    storageChanged.fire({ blocked_domains: { newValue: sites } }, 'local');
    await new Promise((r) => setTimeout(r, 20));
  }

  /** Runs get_state; the tab lookup answers only once the page was asked for its walk (or after 2 s). */
  async function run(params: Record<string, unknown> = {}): Promise<ActionResultMessage> {
    const out = runAction(action(params));
    const deadline = Date.now() + 2000;
    while (!releaseTab || (!log.includes('page asked: snapshot') && Date.now() < deadline)) {
      if (Date.now() > deadline + 3000) throw new Error(`stuck: ${log.join(', ')}`);
      await new Promise((r) => setTimeout(r, 5));
    }
    releaseTab?.();
    releaseTab = null;
    return await out;
  }

  it('asks the page for its walk before the tab lookup answers, and answers the state', async () => {
    const r = await run();
    expect(r.status, JSON.stringify(r.error_info)).to.equal('success');
    expect(r.new_simplified_state?.url).to.equal('https://news.example/');
    expect(log.indexOf('page asked: snapshot'), log.join(', ')).to.be.lessThan(log.indexOf('tab lookup answered'));
  });

  it('lists the tabs (include_tabs, every browser_use step) while the page walks', async () => {
    waitForTabList = true;
    const r = await run({ include_tabs: true });
    expect(r.status, JSON.stringify(r.error_info)).to.equal('success');
    expect((r.outcome_details?.result as { tabs?: { tab_id: number }[] }).tabs?.map((t) => t.tab_id)).to.deep.equal([TAB]);
    expect(log.indexOf('tabs listed'), log.join(', ')).to.be.lessThan(log.indexOf('page answered'));
  });

  it('refuses a tab on a blocked site, though the walk had started', async () => {
    await block(['news.example']);
    const r = await run();
    expect(r.status).to.equal('error');
    expect(r.error_info?.error_code).to.equal('NOT_PERMITTED');
    expect(r.new_simplified_state ?? null).to.equal(null);
  });

  it('refuses a state whose page moved to a blocked site while the tab was judged on its old URL', async () => {
    await block(['bank.example']);
    pageUrl = 'https://bank.example/account';
    const r = await run();
    expect(r.status).to.equal('error');
    expect(r.error_info?.error_code).to.equal('NOT_PERMITTED');
    expect(r.new_simplified_state ?? null, 'no state of the blocked page').to.equal(null);
  });
});
