// The shared reconnect schedule (schemas/lib/backoff.ts): the doubling, the cap, the reset and the
// jitter's bounds, with the random source injected so the numbers are exact.
import { expect } from 'chai';

import { Backoff, backoffDelay } from '../../schemas/lib/backoff';

describe('backoff schedule', () => {
  it('doubles from the base up to the cap', () => {
    const b = new Backoff({ baseMs: 250, maxMs: 2000 });
    expect(Array.from({ length: 6 }, () => b.next())).to.deep.equal([250, 500, 1000, 2000, 2000, 2000]);
  });

  it('starts over after reset()', () => {
    const b = new Backoff({ baseMs: 1000, maxMs: 10_000 });
    b.next();
    b.next();
    b.reset();
    expect(b.next()).to.equal(1000);
  });

  it('keeps the cap when the base is larger, and for attempts far past the cap', () => {
    expect(backoffDelay(0, { baseMs: 100, maxMs: 50 })).to.equal(50);
    expect(backoffDelay(5000, { baseMs: 100, maxMs: 2000 })).to.equal(2000);
  });

  it('spreads a jittered delay over x(1 - j/2) .. x(1 + j/2) of the plain one', () => {
    const opts = { baseMs: 100, maxMs: 2000, jitter: 0.5 };
    expect(backoffDelay(1, opts, () => 0)).to.equal(150);
    expect(backoffDelay(1, opts, () => 0.5)).to.equal(200);
    expect(backoffDelay(1, opts, () => 0.999)).to.be.closeTo(249.9, 0.01);
    expect(backoffDelay(1, { baseMs: 100, maxMs: 2000 }, () => 0)).to.equal(200);
  });
});
