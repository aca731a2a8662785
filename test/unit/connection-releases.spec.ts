// A CDP client reconnecting at once must find the tabs its closed connection held free: the new
// connection waits for releases under way of the same URL, and never longer than the bound.
import { expect } from 'chai';
import sinon from 'sinon';

import { ConnectionReleases } from '../../bridge/agents/cdp/connection-releases';

describe('CDP connection releases', () => {
  afterEach(() => sinon.restore());

  it('a new connection of the same URL waits for the release under way; another URL does not', async () => {
    const releases = new ConnectionReleases(10_000);
    let release!: () => void;
    void releases.track('a', new Promise<void>((r) => (release = r)));
    const order: string[] = [];
    const waitA = releases.settled('a').then(() => order.push('a settled'));
    await releases.settled('b').then(() => order.push('b settled'));
    await Promise.resolve();
    expect(order).to.deep.equal(['b settled']);
    order.push('released');
    release();
    await waitA;
    expect(order).to.deep.equal(['b settled', 'released', 'a settled']);
    // Nothing is kept once the release is done: the next connection does not wait at all.
    const clock = sinon.useFakeTimers();
    let settled = false;
    void releases.settled('a').then(() => (settled = true));
    await clock.tickAsync(0);
    expect(settled).to.equal(true);
  });

  it('a stuck release holds a new connection back no longer than the bound, and a failed one not at all', async () => {
    const clock = sinon.useFakeTimers();
    const releases = new ConnectionReleases(2_000);
    void releases.track('a', new Promise<void>(() => undefined));
    let settled = false;
    void releases.settled('a').then(() => (settled = true));
    await clock.tickAsync(1_999);
    expect(settled).to.equal(false);
    await clock.tickAsync(1);
    expect(settled).to.equal(true);
    const failing = new ConnectionReleases(2_000);
    failing.track('b', Promise.reject(new Error('detach failed'))).catch(() => undefined);
    let failedSettled = false;
    void failing.settled('b').then(() => (failedSettled = true));
    await clock.tickAsync(0);
    expect(failedSettled).to.equal(true);
  });
});
