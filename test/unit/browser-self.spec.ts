// Which browser the extension says it is, with a fake chrome.storage: a stable id made once per
// profile (the same after a worker restart, another in a new profile), the brand without Chrome's
// GREASE entry and the name a person would give it, the name the bridge answered kept, the window
// focus reported at most once per 2 s without losing the last one, and a rename from Settings that
// is stored only once the bridge took it (or said why not).
import { expect } from 'chai';

import type { BrowserInfo, ProtocolMessage } from '../../schemas/generated/protocol';

let local = new Map<string, unknown>();
const fakeChrome = {
  storage: {
    local: {
      get: async (k: string | string[]) =>
        Object.fromEntries((Array.isArray(k) ? k : [k]).filter((x) => local.has(x)).map((x) => [x, local.get(x)])),
      set: async (o: Record<string, unknown>) => Object.entries(o).forEach(([k, v]) => local.set(k, v)),
    },
  },
};

type Self = typeof import('../../extension/src/background/connection/browser-self');
type Names = typeof import('../../extension/src/shared/browser-name');
type Focus = typeof import('../../extension/src/background/connection/focus-report');
type Rename = typeof import('../../extension/src/background/panel/browser-rename');

const info = (browser_id: string, name: string): BrowserInfo => ({ browser_id, name, brand: 'Chromium', connected: true });

describe('this browser: id, brand, name, focus', () => {
  let self: Self;
  let names: Names;
  let focus: Focus;
  let rename: Rename;
  before(async () => {
    (globalThis as unknown as { chrome?: unknown }).chrome = fakeChrome;
    self = await import('../../extension/src/background/connection/browser-self');
    names = await import('../../extension/src/shared/browser-name');
    focus = await import('../../extension/src/background/connection/focus-report');
    rename = await import('../../extension/src/background/panel/browser-rename');
  });
  after(() => {
    delete (globalThis as unknown as { chrome?: unknown }).chrome;
  });
  beforeEach(() => {
    local = new Map();
    self.forgetBrowserIdForTests();
  });

  it('makes the id once per profile: a restarted worker reads the same one, a new profile makes its own', async () => {
    const first = await self.browserId();
    expect(first).to.match(/^[A-Za-z0-9_-]{8,64}$/);
    expect(await self.browserId()).to.equal(first);
    // A worker restart: the module starts empty, the profile's storage stays.
    self.forgetBrowserIdForTests();
    expect(await self.browserId()).to.equal(first);
    expect(await self.helloSelf()).to.deep.equal({ browser_id: first });
    // Another profile: its own storage, its own id.
    const profileA = local;
    local = new Map();
    self.forgetBrowserIdForTests();
    const other = await self.browserId();
    expect(other).to.not.equal(first);
    // Two calls at once in a fresh profile make one id, not two.
    local = new Map();
    self.forgetBrowserIdForTests();
    const [x, y] = await Promise.all([self.browserId(), self.browserId()]);
    expect(x).to.equal(y);
    expect(local.get('browser_id')).to.equal(x);
    expect(profileA.get('browser_id')).to.equal(first);
  });

  it('keeps the name the bridge answered for this browser (a second "Chrome" is "Chrome 2"), never one for another', async () => {
    local.set('browser_name', 'Chrome');
    const id = await self.browserId();
    expect(await self.helloSelf()).to.deep.equal({ browser_id: id, browser_name: 'Chrome' });
    await self.keepBridgeName(info(id, 'Chrome 2'));
    expect(local.get('browser_name')).to.equal('Chrome 2');
    await self.keepBridgeName(info('someone-elses-id', 'Work'));
    await self.keepBridgeName(undefined); // a bridge that serves one browser answers none
    expect(local.get('browser_name')).to.equal('Chrome 2');
    expect((await self.helloSelf()).browser_name).to.equal('Chrome 2');
  });

  it("reads the brand without Chrome's GREASE entry and suggests the word a person uses", () => {
    const grease = { brand: 'Not?A_Brand' };
    const cases: [string[], string, string][] = [
      [['Chromium', 'Google Chrome'], 'Google Chrome', 'Chrome'],
      [['Not)A;Brand', 'Microsoft Edge', 'Chromium'], 'Microsoft Edge', 'Edge'],
      [['Brave', 'Chromium'], 'Brave', 'Brave'],
      [['Chromium'], 'Chromium', 'Chromium'],
      [['HeadlessChrome'], 'Chromium', 'Chromium'],
      [['Opera', 'Chromium'], 'Opera', 'Opera'],
    ];
    for (const [brands, brand, word] of cases) {
      const got = names.brandOf([grease, ...brands.map((b) => ({ brand: b }))], 'Mozilla/5.0 Chrome/144.0.0.0');
      expect(got, brands.join()).to.equal(brand);
      expect(names.suggestedName(got)).to.equal(word);
    }
    // The bridge names a browser that sent no name by the same rule (schemas/lib/browser-names.ts).
    expect(names.suggestedName('Brave Browser')).to.equal('Brave');
    expect(names.suggestedName('Yandex')).to.equal('Yandex');
    // No client hints: the user agent's tokens.
    expect(names.brandOf(undefined, 'Mozilla/5.0 Chrome/144.0.0.0 Safari/537.36 Edg/144.0.0.0')).to.equal('Microsoft Edge');
    expect(names.brandOf([], 'Mozilla/5.0 HeadlessChrome/144.0.0.0')).to.equal('Chromium');
  });

  it('takes a name the bridge takes: trimmed, 1 to 64 characters, no control characters', () => {
    expect(names.checkBrowserName('  Work  laptop ')).to.deep.equal({ ok: true, name: 'Work laptop' });
    for (const bad of ['', '   ', 'x'.repeat(65), 'Work\u0007']) {
      const c = names.checkBrowserName(bad);
      expect(c.ok, JSON.stringify(bad)).to.equal(false);
      expect(c.ok === false && c.message).to.match(/name|characters|letters/);
    }
  });

  it('reports window focus at once, then at most once per 2 s with the latest time; none for "no window"; one at connect', () => {
    let now = 10_000;
    const timers: { at: number; fn: () => void }[] = [];
    const clock = {
      now: () => now,
      setTimeout: (fn: () => void, ms: number) => {
        const t = { at: now + ms, fn };
        timers.push(t);
        return t;
      },
      clearTimeout: (t: unknown) => void timers.splice(timers.indexOf(t as (typeof timers)[number]), 1),
    };
    const advance = (ms: number) => {
      now += ms;
      for (const t of timers.filter((x) => x.at <= now)) {
        timers.splice(timers.indexOf(t), 1);
        t.fn();
      }
    };
    const sent: unknown[] = [];
    let connected = false;
    const r = new focus.FocusReport((m) => connected && sent.push(m) > 0, clock);
    // Nothing seen, nothing to tell (a worker woken while the person is in another program).
    connected = true;
    r.connected(false);
    expect(sent).to.deep.equal([]);
    r.windowFocused(-1);
    expect(sent).to.deep.equal([]);
    r.windowFocused(7);
    expect(sent).to.deep.equal([{ type: 'browser_update', focused_at: 10_000 }]);
    advance(500);
    r.windowFocused(8);
    advance(400);
    r.windowFocused(7);
    expect(sent).to.have.length(1);
    advance(1099);
    expect(sent).to.have.length(1);
    advance(1);
    expect(sent).to.deep.equal([
      { type: 'browser_update', focused_at: 10_000 },
      { type: 'browser_update', focused_at: 10_900 },
    ]);
    // Away from the bridge: the focus is kept and the next connection's report carries it.
    connected = false;
    advance(5000);
    r.windowFocused(7);
    expect(sent).to.have.length(2);
    connected = true;
    advance(100);
    r.connected(false);
    expect(sent[2]).to.deep.equal({ type: 'browser_update', focused_at: 17_000 });
    advance(3000);
    r.connected(true);
    expect(sent[3]).to.deep.equal({ type: 'browser_update', focused_at: 20_100 });
  });

  it('a rename is stored once the bridge names this browser so, and not when it refuses the name', async () => {
    const id = await self.browserId();
    local.set('browser_name', 'Chrome');
    const sent: ProtocolMessage[] = [];
    const send = (m: ProtocolMessage) => sent.push(m) > 0;
    const taken = rename.renameBrowser(send, ' Work ');
    expect(sent).to.deep.equal([{ type: 'browser_update', name: 'Work' }]);
    rename.onRenameSessions({ type: 'agent_sessions', sessions: [], browser: info(id, 'Work') });
    await self.keepBridgeName(info(id, 'Work')); // what panel-relay.ts does with the same message
    expect(await taken).to.deep.equal({ ok: true });
    expect(local.get('browser_name')).to.equal('Work');

    const refused = rename.renameBrowser(send, 'Personal');
    const message = 'Another browser on this bridge is named "Personal". Choose another name.';
    // An error about something else (a task) is not the answer.
    expect(
      rename.onRenameError({
        type: 'error',
        in_reply_to: 'task-1',
        error_info: { error_code: 'NOT_PERMITTED', message: 'x', component_origin: 'bridge' },
      }),
    ).to.equal(false);
    expect(
      rename.onRenameError({ type: 'error', error_info: { error_code: 'NOT_PERMITTED', message, component_origin: 'bridge' } }),
    ).to.equal(true);
    expect(await refused).to.deep.equal({ ok: false, error: message, error_code: 'NOT_PERMITTED' });
    expect(local.get('browser_name')).to.equal('Work');

    // Not connected: kept for the next hello, and said so.
    const offline = await rename.renameBrowser(() => false, 'Laptop');
    expect(offline.ok && offline.note).to.match(/when this browser connects/);
    expect(local.get('browser_name')).to.equal('Laptop');
    // A bridge that never answers: stored for the next hello, not claimed as taken.
    const silent = await rename.renameBrowser(send, 'Desk', 20);
    expect(silent.ok && silent.note).to.match(/has not confirmed "Desk"/);
    expect(local.get('browser_name')).to.equal('Desk');
    expect((await rename.renameBrowser(send, '\u0001')).ok).to.equal(false);
  });
});
