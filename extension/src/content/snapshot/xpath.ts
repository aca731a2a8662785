// XPath segments in browser_use 0.1.48's form (buildDomTree.js getXPathTree): `tag` when the element
// is the only child of its tag under its parent element, else `tag[n]` with n its 1-based position
// among same-tag siblings; paths restart at every shadow root and iframe document (no leading
// slash). The walker computes segments for a whole child list at once, so a page with 10,000 rows
// costs one pass over each child list instead of a sibling scan per element.

/** For each element child of `parent`, its xpath segment, in childNodes order. */
export function segmentsOf(children: ArrayLike<Element>): string[] {
  const counts = new Map<string, number>();
  for (let i = 0; i < children.length; i++) {
    const tag = (children[i] as Element).localName;
    counts.set(tag, (counts.get(tag) ?? 0) + 1);
  }
  const seen = new Map<string, number>();
  const out: string[] = new Array(children.length);
  for (let i = 0; i < children.length; i++) {
    const tag = (children[i] as Element).localName;
    if ((counts.get(tag) ?? 0) === 1) {
      out[i] = tag;
    } else {
      const n = (seen.get(tag) ?? 0) + 1;
      seen.set(tag, n);
      out[i] = `${tag}[${n}]`;
    }
  }
  return out;
}

export const joinXpath = (parent: string, segment: string) => (parent ? `${parent}/${segment}` : segment);
