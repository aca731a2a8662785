// Element refs: a node keeps its ref for as long as it lives in this document; new nodes get new
// numbers. The map is a WeakMap (no DOM attributes the page could see or forge), and a ref whose
// node has left the document resolves to a typed "stale" answer, never to a different element.
export type RefLookup = { ok: true; element: Element } | { ok: false; reason: 'unknown' | 'stale' };

export class RefRegistry {
  private readonly refOf = new WeakMap<Element, string>();
  private readonly byRef = new Map<string, WeakRef<Element>>();
  private counter = 0;

  constructor(private readonly prefix = 'e') {}

  refFor(el: Element): string {
    let ref = this.refOf.get(el);
    if (!ref) {
      ref = `${this.prefix}${++this.counter}`;
      this.refOf.set(el, ref);
      this.byRef.set(ref, new WeakRef(el));
    }
    return ref;
  }

  resolve(ref: string): RefLookup {
    const weak = this.byRef.get(ref);
    if (!weak) return { ok: false, reason: 'unknown' };
    const el = weak.deref();
    if (!el || !el.isConnected) return { ok: false, reason: 'stale' };
    return { ok: true, element: el };
  }
}
