// background/page-watch/download-gesture.ts with a fake chrome: which agent clicks go as real input
// because the tab already had a download (Chrome drops a page's next download without a gesture).
import { expect } from 'chai';

const session = new Map<string, unknown>();
let tabs: { id: number; url: string }[] = [];
const fakeChrome = {
  tabs: { query: async () => tabs },
  storage: {
    session: {
      set: async (o: Record<string, unknown>) => Object.entries(o).forEach(([k, v]) => session.set(k, v)),
      get: async (k: string) => (session.has(k) ? { [k]: session.get(k) } : {}),
    },
  },
};
const item = (url: string, referrer: string) => ({ id: 1, url, referrer }) as unknown as chrome.downloads.DownloadItem;

describe('download gesture: clicks in a tab that downloaded go as real input', () => {
  let g: typeof import('../../extension/src/background/page-watch/download-gesture');
  before(async () => {
    (globalThis as unknown as { chrome?: unknown }).chrome = fakeChrome;
    g = await import('../../extension/src/background/page-watch/download-gesture');
  });
  after(() => {
    delete (globalThis as unknown as { chrome?: unknown }).chrome;
  });

  it('a download from a page marks every tab of its origin (a blob: URL carries its page origin), and only clicks', async () => {
    tabs = [
      { id: 1, url: 'http://shop.test/report' },
      { id: 2, url: 'http://shop.test/other' },
      { id: 3, url: 'http://elsewhere.test/' },
    ];
    expect(await g.clickNeedsGesture('click', 1, {})).to.equal(false);
    await g.noteDownloadCreated(item('blob:http://shop.test/0b6f', ''));
    expect(await g.clickNeedsGesture('click', 1, { index: 2 })).to.equal(true);
    expect(await g.clickNeedsGesture('double_click', 2, {})).to.equal(true);
    expect(await g.clickNeedsGesture('click', 3, {})).to.equal(false);
    expect(await g.clickNeedsGesture('fill', 1, {}), 'only pointer clicks').to.equal(false);
    expect(await g.clickNeedsGesture('click', undefined, {})).to.equal(false);
    // The agent's explicit choice of synthetic input is kept.
    expect(await g.clickNeedsGesture('click', 1, { trusted: false })).to.equal(false);
    await g.noteDownloadCreated(item('https://cdn.test/file.csv', 'http://elsewhere.test/page'));
    expect(await g.clickNeedsGesture('click', 3, {})).to.equal(true);
    // Kept in storage.session for a restarted worker; a closed tab is forgotten.
    expect(session.get('download_gesture_tabs')).to.have.members([1, 2, 3]);
    await g.forgetDownloadTab(2);
    expect(await g.clickNeedsGesture('click', 2, {})).to.equal(false);
    expect(session.get('download_gesture_tabs')).to.have.members([1, 3]);
  });
});
