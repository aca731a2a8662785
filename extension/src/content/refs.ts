// Element refs: a node keeps its ref for as long as it lives in this document; new nodes get new
// numbers. The map is a WeakMap (no DOM attributes the page could see or forge), and a ref whose
// node has left the document resolves to a typed "stale" answer, never to a different element.
export type RefLookup = { ok: true; element: Element } | { ok: false; reason: 'unknown' | 'stale' };

/** A ref's number as refFor writes it (no sign, no leading zero): "e01" was never given out. */
const REF_NUMBER = /^[1-9][0-9]*$/;

export class RefRegistry {
  private readonly refOf = new WeakMap<Element, string>();
  /** Ref number n -> its element at n - 1, held weakly, for n <= flushed. */
  private readonly byNumber: WeakRef<Element>[] = [];
  private flushed = 0;
  /**
   * Elements given a ref since the last flush, held strongly for a moment: refs flushed + 1, flushed + 2, ...
   * A first whole-page state gives thousands of refs, and a WeakRef each cost ~1 us there (bench/results/cold-walk.md);
   * they are made in a task after the state has gone back (flushSoon), not while the agent waits.
   */
  private pending: Element[] = [];
  private flushTimer: ReturnType<typeof setTimeout> | null = null;
  private counter = 0;

  constructor(private readonly prefix = 'e') {}

  refFor(el: Element): string {
    let ref = this.refOf.get(el);
    if (!ref) {
      ref = `${this.prefix}${++this.counter}`;
      this.refOf.set(el, ref);
      this.pending.push(el);
      if (this.flushTimer === null) this.flushTimer = setTimeout(() => this.flush(), 0);
    }
    return ref;
  }

  resolve(ref: string): RefLookup {
    const el = this.elementOf(ref);
    if (el === undefined) return { ok: false, reason: 'unknown' };
    if (!el || !el.isConnected) return { ok: false, reason: 'stale' };
    return { ok: true, element: el };
  }

  /** The element of a ref given out (null: collected), or undefined when this registry never gave it. */
  private elementOf(ref: string): Element | null | undefined {
    if (!ref.startsWith(this.prefix)) return undefined;
    const digits = ref.slice(this.prefix.length);
    if (!REF_NUMBER.test(digits)) return undefined;
    const n = Number(digits);
    if (!(n <= this.counter)) return undefined;
    if (n > this.flushed) return this.pending[n - this.flushed - 1];
    return this.byNumber[n - 1]?.deref() ?? null;
  }

  /** The pending elements' WeakRefs, made now (the strong hold ends here). */
  private flush(): void {
    this.flushTimer = null;
    const pending = this.pending;
    this.pending = [];
    for (let i = 0; i < pending.length; i++) this.byNumber.push(new WeakRef(pending[i] as Element));
    this.flushed += pending.length;
  }
}
