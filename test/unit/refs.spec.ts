// The content script's element refs (extension/src/content/refs.ts) without a browser: a ref
// resolves to its element from the moment it is given, before and after its weak reference is
// made; a ref never given is unknown, a detached element's ref is stale; and no WeakRef is made
// while refs are given out (a first whole-page state gives thousands: bench/results/cold-walk.md),
// only in a task after.
import { expect } from 'chai';

import { RefRegistry } from '../../extension/src/content/refs';

/** Stands in for a DOM element: resolve() reads only isConnected. */
const node = (connected = true) => ({ isConnected: connected }) as unknown as Element;
const tick = () => new Promise<void>((r) => setTimeout(r, 0));

describe('content refs (refs.ts)', () => {
  it('resolves a ref as soon as it is given and after its weak reference is made', async () => {
    const refs = new RefRegistry();
    const a = node();
    const b = node();
    expect(refs.refFor(a)).to.equal('e1');
    expect(refs.refFor(b)).to.equal('e2');
    expect(refs.refFor(a)).to.equal('e1');
    expect(refs.resolve('e2')).to.deep.equal({ ok: true, element: b });
    await tick();
    const c = node();
    expect(refs.refFor(c)).to.equal('e3');
    for (const [ref, el] of [
      ['e1', a],
      ['e2', b],
      ['e3', c],
    ] as const)
      expect(refs.resolve(ref)).to.deep.equal({ ok: true, element: el });
    await tick();
    expect(refs.resolve('e3')).to.deep.equal({ ok: true, element: c });
  });

  it('answers unknown for a ref it never gave (other prefix, leading zero, sign, beyond the last) and stale for a detached element', async () => {
    const refs = new RefRegistry('f');
    const gone = node(false);
    refs.refFor(node());
    refs.refFor(gone);
    for (const when of ['before', 'after'])
      for (const ref of ['e1', 'f01', 'f+1', 'f1.0', 'f', 'f3', 'f 1', ''])
        expect(refs.resolve(ref), `${ref} ${when} the weak references`).to.deep.equal({ ok: false, reason: 'unknown' });
    expect(refs.resolve('f2')).to.deep.equal({ ok: false, reason: 'stale' });
    await tick();
    expect(refs.resolve('f2')).to.deep.equal({ ok: false, reason: 'stale' });
    expect(refs.resolve('f1').ok).to.equal(true);
  });

  it('makes no WeakRef while refs are given out, one per element in a task after', async () => {
    const Real = globalThis.WeakRef;
    let made = 0;
    globalThis.WeakRef = class<T extends WeakKey> extends Real<T> {
      constructor(target: T) {
        super(target);
        made++;
      }
    } as WeakRefConstructor;
    try {
      const refs = new RefRegistry();
      const els = Array.from({ length: 50 }, () => node());
      for (const el of els) refs.refFor(el);
      expect(made, 'WeakRefs made while the walk gives refs').to.equal(0);
      await tick();
      expect(made).to.equal(50);
      for (const el of els) refs.refFor(el);
      await tick();
      expect(made, 'an element keeps its ref: no second WeakRef').to.equal(50);
    } finally {
      globalThis.WeakRef = Real;
    }
  });
});
