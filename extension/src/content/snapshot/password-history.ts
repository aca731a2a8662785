// Which inputs were ever password fields. A "show password" button switches type=password to
// type=text, and the value is then as secret as before: the privacy filter (privacy.ts) knows a
// password by what the page declared at any time, not only by the type it has now.
// early.ts (document_start) watches every `type` change from the first byte of the page; every read
// of the privacy filter also records a field it sees as type=password (a field inside a shadow root,
// which the observer cannot see, or a page open before the extension started).
// One set for the whole isolated world: early.js and content.js are separate bundles, so the set
// lives on the isolated world's global, which the page cannot reach.

declare global {
  var __buxEverPassword: WeakSet<Element> | undefined;
}

function seen(): WeakSet<Element> {
  return (globalThis.__buxEverPassword ??= new WeakSet<Element>());
}

/** Whether the element is, or ever was while we watched, an input of type password. */
export function wasPassword(el: Element): boolean {
  if (el instanceof HTMLInputElement && el.type === 'password') {
    seen().add(el);
    return true;
  }
  return seen().has(el);
}

/** Records every switch away from (or to) type=password in the document. Idempotent per document. */
export function watchPasswordTypes(doc: Document = document): void {
  const flag = doc as Document & { __buxPasswordWatch?: MutationObserver };
  if (flag.__buxPasswordWatch) return;
  const set = seen();
  const observer = new MutationObserver((records) => {
    for (const r of records) {
      const el = r.target as Element;
      if (r.oldValue?.toLowerCase() === 'password' || (el instanceof HTMLInputElement && el.type === 'password')) set.add(el);
    }
  });
  observer.observe(doc, { subtree: true, attributes: true, attributeFilter: ['type'], attributeOldValue: true });
  Object.defineProperty(flag, '__buxPasswordWatch', { value: observer });
}
