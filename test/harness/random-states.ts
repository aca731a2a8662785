// Random simplified_states and random edits of them, for the state-delta property tests (TS and,
// through state-delta-cases.ts, the Python twin). Deterministic per seed.
import type { ActionableElement, DomElementNode, SimplifiedState, TextItem } from '../../schemas/generated/protocol';

/** mulberry32: a small seeded PRNG so a failing case can be replayed by its seed. */
export function rng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (n: number) => Math.floor(next() * n),
    pick: <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)] as T,
    chance: (p: number) => next() < p,
  };
}
export type R = ReturnType<typeof rng>;

let idCounter = 0;
export const resetIds = () => {
  idCounter = 0;
};
export function element(r: R): ActionableElement {
  const id = `e${++idCounter}`;
  const e: ActionableElement = {
    id,
    index: 0,
    type: r.pick(['BUTTON', 'LINK', 'INPUT_FIELD', 'CHECKBOX'] as const),
    tag: r.pick(['button', 'a', 'input']),
    role: r.pick(['button', 'link', 'textbox', 'checkbox']),
    name: r.pick(['Save', 'Cancel', 'Home', 'Search', `Item ${r.int(50)}`]),
    attributes: r.chance(0.5) ? { href: `/p/${r.int(9)}` } : {},
    is_visible: true,
    is_in_viewport: r.chance(0.8),
    is_top_element: true,
    bounds: { x: r.int(800), y: r.int(3000), width: 10 + r.int(200), height: 20 },
    xpath: `html/body/div[${r.int(9)}]`,
    available_operations: ['click'],
  };
  if (r.chance(0.3)) e.current_value = `v${r.int(5)}`;
  if (r.chance(0.2)) e.states = { checked: r.chance(0.5) };
  return e;
}

function text(r: R, afterIndex: number): TextItem {
  const t: TextItem = { text: r.pick(['Hello', 'Price: 10', 'Footer', 'Lorem ipsum', `Row ${r.int(100)}`]), after_index: afterIndex };
  if (r.chance(0.3)) t.role = 'heading';
  return t;
}

function domTree(r: R, els: ActionableElement[]): DomElementNode {
  let hi = 0;
  const body: DomElementNode = { kind: 'element', tag: 'body', xpath: '/body', attributes: {}, children: [] };
  let container = body;
  for (const e of els) {
    if (r.chance(0.2)) {
      const div: DomElementNode = {
        kind: 'element',
        tag: 'div',
        xpath: `html/body/div[${r.int(5)}]`,
        attributes: {},
        is_visible: true,
        children: [],
      };
      body.children.push(div);
      container = div;
    }
    if (r.chance(0.3)) container.children.push({ kind: 'text', text: r.pick(['a', 'b', 'c']), is_visible: true });
    container.children.push({
      kind: 'element',
      tag: e.tag,
      xpath: e.xpath ?? '',
      attributes: {},
      is_visible: true,
      highlight_index: hi++,
      element_id: e.id,
      children: [{ kind: 'text', text: e.name ?? '', is_visible: true }],
    });
  }
  return body;
}

/** Numbers elements, keeps parent_index / after_index pointing at the same elements, rebuilds the tree. */
export function finish(
  s: SimplifiedState,
  parents: Map<string, string>,
  afters: (string | null)[],
  r: R,
  withTree: boolean,
): SimplifiedState {
  const els = s.actionable_elements.map((e, i) => ({ ...e, index: i + 1 }));
  const at = new Map(els.map((e) => [e.id, e.index as number]));
  for (const e of els) {
    const p = parents.get(e.id);
    const pi = p === undefined ? undefined : at.get(p);
    if (pi !== undefined && pi < (e.index as number)) e.parent_index = pi;
    else delete e.parent_index;
  }
  const texts = (s.text_context ?? []).map((t, i) => {
    const a = afters[i];
    return { ...t, after_index: a === null || a === undefined ? 0 : (at.get(a) ?? 0) };
  });
  const out: SimplifiedState = { ...s, actionable_elements: els, text_context: texts };
  if (withTree) out.dom_tree = domTree(r, els);
  return out;
}

export function randomState(r: R, withTree: boolean): { s: SimplifiedState; parents: Map<string, string>; afters: (string | null)[] } {
  const els = Array.from({ length: r.int(40) }, () => element(r));
  const parents = new Map<string, string>();
  for (let i = 1; i < els.length; i++)
    if (r.chance(0.2)) parents.set((els[i] as ActionableElement).id, (els[r.int(i)] as ActionableElement).id);
  const afters = Array.from({ length: r.int(30) }, () => (els.length && r.chance(0.8) ? (r.pick(els) as ActionableElement).id : null));
  const s: SimplifiedState = {
    url: 'https://shop.test/',
    title: 'Shop',
    tab_id: 7,
    active_element_id: null,
    actionable_elements: els,
    scroll_position: { x: 0, y: r.int(500) },
    viewport_dimensions: { width: 1280, height: 800 },
    page_size: { width: 1280, height: 3000 },
    pixels_above: 0,
    pixels_below: 2200,
    viewport_expansion: 0,
    focused_element: null,
    text_context: afters.map(() => text(r, 0)),
    frames: [{ frame_id: 0, parent_frame_id: null, url: 'https://shop.test/', status: 'ok', element_count: els.length }],
    timings_ms: { total: r.int(50) },
    state_id: `s${r.int(1e6)}`,
  };
  // Order texts so their after elements ascend (as a real walk emits them).
  const pos = new Map(els.map((e, i) => [e.id, i]));
  afters.sort((a, b) => (a === null ? -1 : (pos.get(a) ?? 0)) - (b === null ? -1 : (pos.get(b) ?? 0)));
  return { s: finish(s, parents, afters, r, withTree), parents, afters };
}

export function mutate(r: R, base: ReturnType<typeof randomState>, withTree: boolean): SimplifiedState {
  let els = base.s.actionable_elements.map((e) => ({ ...e }));
  const texts = (base.s.text_context ?? []).map((t) => ({ ...t }));
  const afters = base.afters.slice();
  const s: SimplifiedState = { ...base.s, timings_ms: { total: r.int(50) } };
  const edits = 1 + r.int(4);
  for (let k = 0; k < edits; k++) {
    const what = r.int(10);
    if (what === 0) els.splice(r.int(els.length + 1), 0, element(r));
    else if (what === 1 && els.length) els.splice(r.int(els.length), 1);
    else if (what === 2 && els.length) {
      const e = r.pick(els);
      e.current_value = `typed ${r.int(99)}`;
    } else if (what === 3 && els.length) {
      for (const e of els.slice(r.int(els.length))) if (e.bounds) e.bounds = { ...e.bounds, y: e.bounds.y + 40 };
    } else if (what === 4 && els.length > 1) {
      const [m] = els.splice(r.int(els.length), 1);
      els.splice(r.int(els.length + 1), 0, m as ActionableElement);
    } else if (what === 5) {
      const i = r.int(texts.length + 1);
      texts.splice(i, 0, text(r, 0));
      afters.splice(i, 0, i > 0 ? (afters[i - 1] ?? null) : null);
    } else if (what === 6 && texts.length) {
      const i = r.int(texts.length);
      texts.splice(i, 1);
      afters.splice(i, 1);
    } else if (what === 7) {
      s.title = `Shop (${r.int(9)})`;
      s.scroll_position = { x: 0, y: r.int(900) };
      if (r.chance(0.5)) s.truncation = { elements_cut: true, text_cut: false, message: 'cut' };
      else delete s.truncation;
    } else if (what === 8 && els.length) {
      const e = r.pick(els);
      e.states = { checked: !(e.states?.checked ?? false) };
      if (r.chance(0.3)) e.is_in_viewport = !e.is_in_viewport;
    } else if (what === 9) {
      // is_new moves on with every snapshot: marks come and go on many elements at once.
      for (const e of els) {
        if (r.chance(0.5)) e.is_new = true;
        else delete e.is_new;
      }
    }
  }
  if (r.chance(0.1)) els = els.slice().reverse();
  return finish({ ...s, actionable_elements: els, text_context: texts }, base.parents, afters, r, withTree);
}
