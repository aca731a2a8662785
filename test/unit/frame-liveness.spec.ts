// frame-liveness.ts: a frame that still owes an answer past the probe budget is not waited for again
// (frames that do not answer never hold a state for more than a small, documented budget).
import { expect } from 'chai';

import { PROBE_BUDGET_MS } from '../../extension/src/background/state/frame-budget';
import {
  forgetTabRequests,
  knownNoScript,
  markNoScript,
  overdueFor,
  trackRequest,
} from '../../extension/src/background/state/frame-liveness';

function deferred(): { promise: Promise<void>; resolve: () => void; reject: (e: Error) => void } {
  let resolve!: () => void;
  let reject!: (e: Error) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  promise.catch(() => undefined);
  return { promise, resolve, reject };
}
const tick = () => new Promise((r) => setTimeout(r, 0));

describe('frame liveness (frames owing an answer)', () => {
  const tab = 7;
  afterEach(() => forgetTabRequests(tab));

  it('a pending request is overdue only once it is older than the probe budget', () => {
    const d = deferred();
    const t0 = performance.now();
    void trackRequest(tab, 3, 'doc-a', d.promise);
    expect(overdueFor(tab, 3, 'doc-a', t0 + PROBE_BUDGET_MS - 1)).to.equal(null);
    expect(overdueFor(tab, 3, 'doc-a', t0 + PROBE_BUDGET_MS + 1000)).to.be.within(1000, PROBE_BUDGET_MS + 1100);
    expect(overdueFor(tab, 4, 'doc-a', t0 + PROBE_BUDGET_MS + 1000), 'another frame').to.equal(null);
    expect(overdueFor(tab + 1, 3, 'doc-a', t0 + PROBE_BUDGET_MS + 1000), 'another tab').to.equal(null);
  });

  it('an answer, a refusal or a new document ends the debt', async () => {
    const later = performance.now() + PROBE_BUDGET_MS * 10;
    const answered = deferred();
    void trackRequest(tab, 1, 'doc-a', answered.promise);
    const refused = deferred();
    void trackRequest(tab, 2, 'doc-b', refused.promise);
    expect(overdueFor(tab, 1, 'doc-a', later)).to.not.equal(null);
    expect(overdueFor(tab, 2, 'doc-b', later)).to.not.equal(null);
    expect(overdueFor(tab, 2, 'doc-c', later), 'the frame navigated to a new document').to.equal(null);
    answered.resolve();
    refused.reject(new Error('Could not establish connection'));
    await tick();
    expect(overdueFor(tab, 1, 'doc-a', later)).to.equal(null);
    expect(overdueFor(tab, 2, 'doc-b', later)).to.equal(null);
  });

  it('returns the request unchanged, and forgets a closed tab', async () => {
    const d = deferred();
    const p = trackRequest(tab, 5, undefined, d.promise);
    expect(p).to.equal(d.promise);
    forgetTabRequests(tab);
    expect(overdueFor(tab, 5, undefined, performance.now() + 10_000)).to.equal(null);
    d.resolve();
    await p;
  });

  it('a document found without a content script is known as such, that document only, until its tab is forgotten', () => {
    markNoScript(tab, 5, 'doc-loading');
    expect(knownNoScript(tab, 5, 'doc-loading')).to.equal(true);
    expect(knownNoScript(tab, 5, 'doc-next'), 'the next document in the frame').to.equal(false);
    expect(knownNoScript(tab, 6, 'doc-loading'), 'another frame').to.equal(false);
    expect(knownNoScript(tab + 1, 5, 'doc-loading'), 'another tab').to.equal(false);
    // Without a document id the next document could not be told from this one: never remembered.
    markNoScript(tab, 8, undefined);
    expect(knownNoScript(tab, 8, undefined)).to.equal(false);
    forgetTabRequests(tab);
    expect(knownNoScript(tab, 5, 'doc-loading')).to.equal(false);
  });
});
