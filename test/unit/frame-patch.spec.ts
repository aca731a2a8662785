// A changed frame crosses from its content script as edits to the answer the worker holds
// (extension/src/shared/frame-patch.ts): applyPatch(base, makePatch(base, next)) must give exactly
// `next` (is_new and parent_pos included), for random frames and random edits of them, and an
// element the walk left as it was must stay the very object the worker held.
import { expect } from 'chai';

import { applyPatch, makePatch } from '../../extension/src/shared/frame-patch';
import type { FrameElement, FrameSnapshot, FrameText } from '../../extension/src/shared/frame-snapshot';
import { rng } from '../harness/random-states';

/** One DOM element of a fake page: its identity is the object (as the walk's listed elements are). */
interface Node {
  name: string;
  parent: Node | null;
  /** Its box's left edge, and its width grows with it (a resized box). */
  x: number;
  /** Moved down by this much (what an element inserted above does). */
  down?: number;
  /** Its accessible name when renamed, and an attribute set on it. */
  label?: string;
  title?: string;
}

/** Boxes by name, so an element keeps its box wherever it is listed (layout is not modelled). */
const yOf = (n: Node) => [...n.name].reduce((h, c) => (h * 31 + c.charCodeAt(0)) % 10_000, 7);

function frameOf(
  nodes: readonly Node[],
  texts: FrameText[],
  isNew: (n: Node) => boolean,
  keptId: string,
  xpathOf?: (n: Node, i: number) => string,
): FrameSnapshot {
  const pos = new Map(nodes.map((n, i) => [n, i]));
  const elements = nodes.map((n, i): FrameElement => {
    let p = n.parent;
    while (p && !pos.has(p)) p = p.parent;
    return {
      id: `e${n.name}`,
      type: 'BUTTON',
      tag: 'button',
      name: n.label ?? n.name,
      attributes: { title: n.title ?? 'none' },
      is_visible: true,
      available_operations: ['click'],
      bounds: { x: n.x, y: yOf(n) + (n.down ?? 0), width: 50 + n.x, height: 10 },
      ...(xpathOf ? { xpath: xpathOf(n, i) } : {}),
      ...(p ? { parent_pos: pos.get(p) as number } : {}),
      ...(isNew(n) ? { is_new: true } : {}),
    };
  });
  return {
    url: 'https://example.test/',
    title: 't',
    elements,
    texts,
    frames: [],
    order: 'e'.repeat(elements.length) + 't'.repeat(texts.length),
    scroll: { x: 0, y: 0 },
    viewport: { width: 800, height: 600 },
    page_size: { width: 800, height: 2000 },
    focused: null,
    elements_omitted: 0,
    text_cut: false,
    walk_ms: 1,
    kept_id: keptId,
  };
}

const text = (s: string): FrameText => ({ text: s, role: 'paragraph' });

describe('unit: a changed frame crosses as edits to the held one (frame-patch)', () => {
  it('carries parent positions past an element inserted before them, and keeps unchanged elements as the held objects', () => {
    const root: Node = { name: 'list', parent: null, x: 0 };
    const items = [1, 2, 3, 4, 5, 6, 7, 8].map((k): Node => ({ name: `item${k}`, parent: root, x: 0 }));
    const before = [root, ...items];
    const base = frameOf(before, [text('a'), text('b')], () => false, 'A');
    const added: Node = { name: 'top', parent: null, x: 0 };
    const after = [added, root, ...items];
    const next = frameOf(after, [text('a'), text('new'), text('b')], (n) => n === added, 'B');
    const patch = makePatch('A', base, before, next, after);
    expect(patch, 'most of the frame is unchanged: edits cross').to.not.equal(null);
    if (!patch) return;
    expect(patch.elements).to.deep.equal([{ items: [next.elements[0]] }, { from: 0, n: 9 }]);
    expect(patch.texts).to.deep.equal([{ from: 0, n: 1 }, { items: [text('new')] }, { from: 1, n: 1 }]);
    const out = applyPatch(base, patch);
    expect(out).to.deep.equal(next);
    // The list itself has no parent: it is the held object; its items point at its new place (1), so they are copies.
    expect(out?.elements[1]).to.equal(base.elements[0]);
    expect(out?.elements[2]?.parent_pos).to.equal(1);
  });

  it('sends whole an element that changed, or whose nearest listed parent is another element now', () => {
    const a: Node = { name: 'a', parent: null, x: 0 };
    const b: Node = { name: 'b', parent: a, x: 0 };
    const c: Node = { name: 'c', parent: b, x: 0 };
    const rest = Array.from({ length: 10 }, (_, k): Node => ({ name: `r${k}`, parent: null, x: 0 }));
    const before = [a, b, c, ...rest];
    const base = frameOf(before, [], () => false, 'A');
    // b is no longer listed: c's nearest listed ancestor is a (the same position 0, yet another element).
    const after = [a, c, ...rest];
    const next = frameOf(after, [], () => false, 'B');
    (next.elements[0] as FrameElement).name = 'a renamed';
    const patch = makePatch('A', base, before, next, after);
    if (!patch) throw new Error('expected edits');
    // a changed (whole); c's parent was b at position 1, now a: no held parent carries to it (whole).
    expect(patch.elements[0]).to.deep.equal({ items: [next.elements[0], next.elements[1]] });
    expect(applyPatch(base, patch)).to.deep.equal(next);
  });

  it('sends the elements below an insertion as runs of held elements moved down, the move given once per run', () => {
    const nodes = Array.from({ length: 20 }, (_, k): Node => ({ name: `n${k}`, parent: null, x: 0 }));
    const base = frameOf(nodes, [], () => false, 'A');
    const added: Node = { name: 'added', parent: null, x: 0 };
    const after = [...nodes.slice(0, 5), added, ...nodes.slice(5)];
    for (const n of nodes.slice(5)) n.down = 24;
    const next = frameOf(after, [], () => false, 'B');
    const patch = makePatch('A', base, nodes, next, after);
    if (!patch) throw new Error('expected edits');
    expect(patch.elements).to.deep.equal([{ from: 0, n: 5 }, { items: [next.elements[5]] }, { from: 5, n: 15, dy: 24 }]);
    const out = applyPatch(base, patch);
    expect(out).to.deep.equal(next);
    expect(out?.elements[0], 'an element that did not move is the held object').to.equal(base.elements[0]);
  });

  it('renumbers the xpaths under a child that moved one place, one prefix per child', () => {
    // Two elements per list item: the item's link and button, under li[k].
    const nodes = Array.from({ length: 12 }, (_, k): Node => ({ name: `n${k}`, parent: null, x: 0 }));
    const path = (offset: number) => (n: Node, i: number) =>
      `/html/body/ul/li[${Math.floor(i / 2) + offset}]/${n.name.length > 2 ? 'b' : 'a'}`;
    const base = frameOf(nodes, [], () => false, 'A', path(1));
    const added = [
      { name: 'x1', parent: null, x: 0 },
      { name: 'x2', parent: null, x: 0 },
    ];
    const after = [...added, ...nodes];
    const next = frameOf(after, [], () => false, 'B', path(1));
    const patch = makePatch('A', base, nodes, next, after);
    if (!patch) throw new Error('expected edits');
    expect(patch.elements[1]).to.deep.equal({ from: 0, n: 2, xpath: ['/html/body/ul/li[1', '/html/body/ul/li[2'] });
    expect(patch.elements).to.have.length(1 + 6);
    expect(applyPatch(base, patch)).to.deep.equal(next);
  });

  it('takes is_new of referenced elements from the positions it lists, both ways', () => {
    const nodes = Array.from({ length: 6 }, (_, k): Node => ({ name: `n${k}`, parent: null, x: 0 }));
    const base = frameOf(nodes, [], (n) => n === nodes[1], 'A');
    const next = frameOf(nodes, [], (n) => n === nodes[4], 'B');
    const patch = makePatch('A', base, nodes, next, nodes);
    if (!patch) throw new Error('expected edits');
    expect(patch.elements).to.deep.equal([{ from: 0, n: 6 }]);
    expect(patch.is_new).to.deep.equal([4]);
    expect(applyPatch(base, patch)).to.deep.equal(next);
  });

  it('sends the whole frame when most of it changed, and refuses edits that do not fit what is held', () => {
    const nodes = Array.from({ length: 8 }, (_, k): Node => ({ name: `n${k}`, parent: null, x: 0 }));
    const base = frameOf(nodes, [], () => false, 'A');
    const resized = frameOf(nodes, [], () => false, 'B');
    resized.elements.forEach((e) => {
      if (e.bounds) e.bounds = { ...e.bounds, height: e.bounds.height + 1 };
    });
    expect(makePatch('A', base, nodes, resized, nodes), 'every box resized: the whole frame goes').to.equal(null);
    const same = frameOf(nodes, [], () => false, 'B');
    const patch = makePatch('A', base, nodes, same, nodes);
    if (!patch) throw new Error('expected edits');
    const shorter = { ...base, elements: base.elements.slice(0, 4) };
    expect(applyPatch(shorter, patch), 'a held answer shorter than the edits say').to.equal(null);
  });

  it('gives exactly the new frame for random pages and random edits (insert, remove, move, resize, shift down, rename, attribute, renumber, re-parent, is_new)', () => {
    let patched = 0;
    let referenced = 0;
    for (let seed = 1; seed <= 300; seed++) {
      const r = rng(seed).next;
      const nodes: Node[] = [];
      const count = 1 + Math.floor(r() * 40);
      for (let k = 0; k < count; k++) {
        const parent = nodes.length > 0 && r() < 0.6 ? (nodes[Math.floor(r() * nodes.length)] as Node) : null;
        nodes.push({ name: `s${seed}n${k}`, parent, x: 0 });
      }
      const texts = Array.from({ length: Math.floor(r() * 6) }, (_, k) => text(`t${k}`));
      const oldNew = new Set(nodes.filter(() => r() < 0.2));
      // xpaths by position under two levels: an insertion renumbers those after it (a level at random).
      const level = Math.floor(r() * 3) + 1;
      const path = (n: Node, i: number) => `/html/body/div[${Math.floor(i / level) + 1}]/p[${(i % level) + 1}]${n.parent ? '/a' : ''}`;
      const base = frameOf(nodes, texts, (n) => oldNew.has(n), 'A', path);
      const after = [...nodes];
      const edits = 1 + Math.floor(r() * 4);
      for (let k = 0; k < edits; k++) {
        const what = r();
        const at = Math.floor(r() * (after.length + 1));
        if (what < 0.25) after.splice(at, 0, { name: `s${seed}add${k}`, parent: after[at - 1] ?? null, x: 0 });
        else if (what < 0.45 && after.length > 1) after.splice(Math.min(at, after.length - 1), 1);
        else if (what < 0.6 && after.length > 2) {
          const [m] = after.splice(Math.min(at, after.length - 1), 1);
          if (m) after.splice(Math.floor(r() * (after.length + 1)), 0, m);
        } else if (what < 0.7) {
          for (const n of after.slice(at)) n.down = (n.down ?? 0) + 13 * (k + 1);
        } else if (what < 0.75 && after.length > 0) {
          const n = after[Math.min(at, after.length - 1)] as Node;
          if (r() < 0.5) n.label = `renamed${k}`;
          else n.title = `title${k}`;
        } else if (what < 0.85 && after.length > 0) {
          (after[Math.min(at, after.length - 1)] as Node).x = 1 + k; // a changed box
        } else if (after.length > 1) {
          const n = after[Math.min(at, after.length - 1)] as Node;
          n.parent = r() < 0.5 ? null : (after[0] as Node) === n ? null : (after[0] as Node);
        }
      }
      const nextTexts = r() < 0.5 ? texts : [...texts.slice(0, 1), text('changed'), ...texts.slice(2)];
      const newNew = new Set(after.filter(() => r() < 0.2));
      const next = frameOf(after, nextTexts, (n) => newNew.has(n), 'B', path);
      const patch = makePatch('A', base, nodes, next, after);
      if (!patch) continue;
      patched++;
      for (const p of patch.elements) if ('from' in p) referenced += p.n;
      const out = applyPatch(base, patch);
      expect(out, `seed ${seed}`).to.deep.equal(next);
    }
    // The cases must exercise references, not only frames sent whole.
    expect(patched).to.be.greaterThan(200);
    expect(referenced).to.be.greaterThan(2000);
  });
});
