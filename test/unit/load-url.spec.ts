// actions/load-url.ts with a fake chrome.tabs.update: Chrome's "Navigation rejected." (nothing
// started) is asked again inside the action's budget; any other refusal, or one that outlasts the
// retries or the budget, reaches the agent as it came.
import { expect } from 'chai';

import { loadUrl } from '../../extension/src/background/actions/load-url';
import { Budget } from '../../extension/src/background/page-watch/budget';

type Update = (tabId: number, props: { url: string }) => Promise<{ id: number; url: string }>;
const g = globalThis as unknown as { chrome?: { tabs: { update: Update } } };

function fakeUpdate(failures: string[]): { calls: number } {
  const seen = { calls: 0 };
  g.chrome = {
    tabs: {
      update: async (tabId, { url }) => {
        const failure = failures[seen.calls++];
        if (failure) throw new Error(failure);
        return { id: tabId, url };
      },
    },
  };
  return seen;
}

describe('load-url: a navigation Chrome turned away before it started is asked again', () => {
  const saved = g.chrome;
  after(() => void (g.chrome = saved));

  it('loads after two "Navigation rejected." answers', async () => {
    const seen = fakeUpdate(['Navigation rejected.', 'Navigation rejected.']);
    const tab = await loadUrl(new Budget(15_000), 7, 'http://127.0.0.1/x');
    expect(tab).to.deep.equal({ id: 7, url: 'http://127.0.0.1/x' });
    expect(seen.calls).to.equal(3);
  });

  it('passes any other refusal on at once', async () => {
    const seen = fakeUpdate(['No tab with id: 7.']);
    let error: unknown;
    await loadUrl(new Budget(15_000), 7, 'http://127.0.0.1/x').catch((e: unknown) => (error = e));
    expect(String(error)).to.contain('No tab with id');
    expect(seen.calls).to.equal(1);
  });

  it('goes on past the first four retries while the first navigation takes long (six rejections, 1.7 s)', async () => {
    const seen = fakeUpdate(Array.from({ length: 6 }, () => 'Navigation rejected.'));
    const tab = await loadUrl(new Budget(15_000), 7, 'http://127.0.0.1/x');
    expect(tab).to.deep.equal({ id: 7, url: 'http://127.0.0.1/x' });
    expect(seen.calls).to.equal(7);
  });

  it('gives up when the retry time is spent or the budget is short', async () => {
    const always = Array.from({ length: 20 }, () => 'Navigation rejected.');
    const seen = fakeUpdate(always);
    let error: unknown;
    // 1.5 s of retries: 50, 150, 300, 600 ms, then the next 600 would pass it.
    await loadUrl(new Budget(15_000), 7, 'http://127.0.0.1/x', 1500).catch((e: unknown) => (error = e));
    expect(String(error)).to.contain('Navigation rejected');
    expect(seen.calls).to.equal(5);
    const short = fakeUpdate(always);
    await loadUrl(new Budget(1000), 7, 'http://127.0.0.1/x').catch(() => undefined);
    expect(short.calls).to.equal(1);
  });
});
