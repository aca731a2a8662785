// Seed 001's accessibility-tree text (the form Playwright's ariaSnapshot popularised):
//   - heading "Sign in" [level=1]
//   - textbox "Email" [ref=e2]: ada@example.org
//   - button "Submit" [disabled] [ref=e3]
// One line per element or text block, indented two spaces per nesting level. Token economy (issue 13
// item 4; rules in README "Text rendering"):
//   - prose (paragraph / plain text) prints as bare text, and the links inside a paragraph print
//     inline in it (`alpha and beta link "topic 0" [ref=e4], gamma`), one line per paragraph;
//   - a <label>'s text next to the control it names is dropped (it is that control's name);
//   - long runs of same-shaped blocks (>= 8 repetitions: table rows, cards, paragraphs full of links)
//     that lie wholly off screen are summarised after their first 3 repetitions in one line that
//     says what they hold and how to list them (scroll there and take a new state). What is on screen
//     is always listed in full, so every element the default (viewport) state holds keeps its ref.
import type { ActionableElement, SimplifiedState } from '../../generated/protocol';
import { entries, labelOf, shownValue, type Entry } from './common';

const quote = (s: string) => JSON.stringify(s);

function stateFlags(el: ActionableElement): string {
  const s = el.states ?? {};
  const f: string[] = [];
  if (s.checked === true) f.push('[checked]');
  else if (s.checked === 'mixed') f.push('[checked=mixed]');
  if (s.disabled) f.push('[disabled]');
  if (s.expanded === true) f.push('[expanded]');
  if (s.pressed === true) f.push('[pressed]');
  else if (s.pressed === 'mixed') f.push('[pressed=mixed]');
  if (s.selected) f.push('[selected]');
  if (s.focused) f.push('[active]');
  if (s.required) f.push('[required]');
  if (s.readonly) f.push('[readonly]');
  return f.join(' ');
}

const VALUE_ROLES = new Set(['textbox', 'searchbox', 'combobox', 'spinbutton', 'slider', 'listbox']);
/** Text roles printed as bare prose (their role says nothing an LLM needs). */
const PROSE = new Set(['paragraph', 'text', undefined]);
/** Elements that may sit inline in a prose line (leaf links: their role and name say it all). */
const INLINE_ROLES = new Set(['link']);
const LEADING_PUNCT = /^[.,;:!?)\]}»”’…-]/;

export interface AriaTreeOptions {
  /** Summarise long off-screen runs of same-shaped blocks (default true). */
  summarize?: boolean;
  /** Repetitions a run needs before it is summarised (default 8). */
  minRepeats?: number;
  /** Repetitions of a summarised run that are still listed (default 3). */
  keep?: number;
}

/** `- button "Submit" [disabled] [ref=e3]: value` without the `- ` and indentation. */
export function elementPhrase(el: ActionableElement): string {
  const label = labelOf(el);
  let s = `${el.role ?? el.type.toLowerCase()}${label ? ` ${quote(label)}` : ''}`;
  const flags = stateFlags(el);
  if (flags) s += ` ${flags}`;
  s += ` [ref=${el.id}]`;
  const value = shownValue(el);
  if (value !== undefined && value !== '' && (VALUE_ROLES.has(el.role ?? '') || el.redacted) && value !== label) s += `: ${value}`;
  else if (el.redacted) s += `: ${value}`;
  return s;
}

/** One printed line, with what summarisation needs to know about it. */
interface Line {
  text: string;
  depth: number;
  /** Shape of the line (role of the element or text kind), for finding repeated blocks. */
  key: string;
  elements: ActionableElement[];
}

/** The block (parent element's xpath) an element sits in; '' when unknown. */
const blockOf = (el: ActionableElement) => (el.xpath ? el.xpath.slice(0, Math.max(0, el.xpath.lastIndexOf('/'))) : '');

/** Whether an element sits inside a <p> (by its xpath, e.g. html/body/article/p[3]/a[2]). */
const inParagraph = (el: ActionableElement) => (el.xpath ?? '').split('/').slice(0, -1).some((seg) => /^p(\[\d+\])?$/.test(seg));

function buildLines(list: Entry[]): Line[] {
  const lines: Line[] = [];
  const isLeaf = (i: number) => {
    const e = list[i];
    const next = list[i + 1];
    return e !== undefined && (next === undefined || next.kind === 'text' || next.depth <= e.depth);
  };
  /** The next element entry after position i, skipping text. */
  const nextElement = (i: number): ActionableElement | undefined => {
    for (let j = i + 1; j < list.length; j++) {
      const e = list[j] as Entry;
      if (e.kind === 'element') return e.el;
    }
    return undefined;
  };
  // The open prose line (a paragraph being assembled) and the block its inline links sit in.
  let prose: { line: Line; block: string | null; paragraph: boolean } | null = null;
  for (let i = 0; i < list.length; i++) {
    const e = list[i] as Entry;
    const pad = '  '.repeat(e.depth);
    if (e.kind === 'text') {
      const t = e.item;
      // A <label>'s text right before or after the control it names is already that control's name.
      const prev = list[i - 1];
      const next = list[i + 1];
      if (t.role === 'label' && ((next?.kind === 'element' && labelOf(next.el) === t.text) || (prev?.kind === 'element' && labelOf(prev.el) === t.text))) continue;
      if (t.role === 'heading') {
        prose = null;
        lines.push({ text: `${pad}- heading ${quote(t.text)} [level=${t.level ?? 2}]`, depth: e.depth, key: `h${t.level ?? 2}`, elements: [] });
        continue;
      }
      if (PROSE.has(t.role)) {
        // Continue the open paragraph when this text sits between its links (the next link is in
        // the same block) or is the paragraph's tail (starts with punctuation).
        const following = nextElement(i);
        const continues = prose !== null && prose.block !== null && ((following !== undefined && blockOf(following) === prose.block && prose.block !== '') || LEADING_PUNCT.test(t.text));
        if (continues && prose) {
          prose.line.text += LEADING_PUNCT.test(t.text) ? t.text : ` ${t.text}`;
          continue;
        }
        const line: Line = { text: `${pad}${t.text}`, depth: e.depth, key: 'prose', elements: [] };
        lines.push(line);
        prose = { line, block: null, paragraph: t.role === 'paragraph' };
        continue;
      }
      prose = null;
      lines.push({ text: `${pad}- ${t.role}: ${t.text}`, depth: e.depth, key: t.role ?? 'text', elements: [] });
      continue;
    }
    const el = e.el;
    // A link joins the open paragraph only when it sits in a <p> itself (its xpath says so) and in the
    // same <p> as the paragraph's earlier links: a heading's link after a caption stays its own line.
    const inline = INLINE_ROLES.has(el.role ?? '') && isLeaf(i) && prose !== null && prose.paragraph && prose.line.depth === e.depth && inParagraph(el) && (prose.block === null || prose.block === blockOf(el));
    if (inline && prose) {
      prose.line.text += ` ${elementPhrase(el)}`;
      prose.line.elements.push(el);
      prose.line.key += `+${el.role}`;
      prose.block = blockOf(el);
      continue;
    }
    prose = null;
    lines.push({ text: `${pad}- ${elementPhrase(el)}`, depth: e.depth, key: `${el.role ?? el.type}`, elements: [el] });
  }
  return lines;
}

/** A top-level line with the deeper lines under it. */
interface Unit {
  lines: Line[];
  key: string;
}

function units(lines: Line[]): Unit[] {
  const out: Unit[] = [];
  for (const l of lines) {
    const last = out[out.length - 1];
    if (last && l.depth > (last.lines[0] as Line).depth) {
      last.lines.push(l);
      last.key += `>${l.depth}${l.key}`;
    } else out.push({ lines: [l], key: l.key });
  }
  return out;
}

const MAX_PERIOD = 12;
const fmt = (n: number) => n.toLocaleString('en-US');
const hasElements = (u: Unit) => u.lines.some((l) => l.elements.length > 0);
const onScreen = (u: Unit) => u.lines.some((l) => l.elements.some((el) => el.is_in_viewport === true));
/**
 * Where an element is relative to the screen: 'on' (or unknown geometry: never summarised), 'scroll'
 * (outside the viewport but inside the page's scrollable extent: scrolling lists it), or 'outside'
 * (outside the page at every scroll position, e.g. an off-canvas drawer at x < 0: no scroll shows it
 * and no action can reach it until something on the page reveals it).
 */
function placeOf(el: ActionableElement, state: SimplifiedState): 'on' | 'scroll' | 'outside' {
  const b = el.bounds;
  const page = state.page_size;
  if (el.is_in_viewport !== false || !b || !page) return 'on';
  const x = b.x + (state.scroll_position?.x ?? 0);
  const y = b.y + (state.scroll_position?.y ?? 0);
  return x + b.width > 0 && x < page.width && y + b.height > 0 && y < page.height ? 'scroll' : 'outside';
}

function plural(role: string, n: number): string {
  if (n === 1) return role;
  if (role.endsWith('x') || role.endsWith('s')) return `${role}es`;
  return `${role}s`;
}

function summaryLine(skipped: Unit[], where: 'above' | 'below' | 'elsewhere' | 'outside', depth: number): string {
  const byRole = new Map<string, number>();
  for (const u of skipped) for (const l of u.lines) for (const el of l.elements) byRole.set(el.role ?? el.type.toLowerCase(), (byRole.get(el.role ?? el.type.toLowerCase()) ?? 0) + 1);
  const what = [...byRole].map(([role, n]) => `${fmt(n)} ${plural(role, n)}`).join(', ');
  const how = {
    above: 'off screen above: scroll up and take a new state to list them with refs',
    below: 'off screen below: scroll down and take a new state to list them with refs',
    elsewhere: 'off screen: scroll to them and take a new state to list them with refs',
    outside: 'outside the page at every scroll position (off canvas): they are listed once something on the page, such as a menu button, reveals them',
  }[where];
  return `${'  '.repeat(depth)}- … ${fmt(skipped.length)} more block${skipped.length === 1 ? '' : 's'} like the above (${what}), ${how}`;
}

/** Units between repetitions of a run (an ad between stories) that a summary may take in. */
const MAX_GAP = 6;
const isHeading = (u: Unit) => /^h\d/.test(u.key);

/**
 * A run of same-shaped units from i: the period (1..MAX_PERIOD units) with the most repetitions,
 * continued across short interruptions (up to MAX_GAP units) after which the same shape repeats.
 * Returns the run's units in order, each marked with its repetition number or as a gap unit.
 */
function findRun(keys: string[], i: number): { period: number; reps: number; items: { at: number; rep: number | null }[] } {
  let period = 1;
  let reps = 0;
  for (let p = 1; p <= MAX_PERIOD && i + p <= keys.length; p++) {
    let len = p;
    while (i + len < keys.length && keys[i + len] === keys[i + len - p]) len++;
    const r = Math.floor(len / p);
    if (r > reps) ({ period, reps } = { period: p, reps: r });
  }
  const pattern = keys.slice(i, i + period);
  const repeatsAt = (j: number) => j + period <= keys.length && pattern.every((k, o) => keys[j + o] === k);
  const items: { at: number; rep: number | null }[] = [];
  let rep = 0;
  let j = i;
  for (;;) {
    while (repeatsAt(j)) {
      for (let o = 0; o < period; o++) items.push({ at: j + o, rep });
      rep++;
      j += period;
    }
    let g = 1;
    while (g <= MAX_GAP && !repeatsAt(j + g)) g++;
    if (g > MAX_GAP || j + g >= keys.length) break;
    for (let o = 0; o < g; o++) items.push({ at: j + o, rep: null });
    j += g;
  }
  return { period, reps: rep, items };
}

/** Lines with long off-screen runs of same-shaped units summarised. */
function summarize(state: SimplifiedState, top: Unit[], minRepeats: number, keep: number): string[] {
  const offScreen = (u: Unit) => u.lines.every((l) => l.elements.every((el) => placeOf(el, state) !== 'on'));
  const outside = (us: Unit[]) => us.every((u) => u.lines.every((l) => l.elements.every((el) => placeOf(el, state) === 'outside')));
  const out: string[] = [];
  let seenOnScreen = false;
  const anyOnScreen = top.some(onScreen);
  // A listed unit prints its own line, then its nested lines summarised the same way (a menu or
  // list element with hundreds of items inside it).
  const emit = (u: Unit) => {
    const [first, ...nested] = u.lines as [Line, ...Line[]];
    out.push(first.text);
    if (first.elements.some((el) => el.is_in_viewport === true)) seenOnScreen = true;
    if (nested.length > 0) level(units(nested));
  };
  const level = (all: Unit[]) => {
    const keys = all.map((u) => u.key);
    let i = 0;
    while (i < all.length) {
      const run = findRun(keys, i);
      if (run.reps < minRepeats) {
        emit(all[i] as Unit);
        i++;
        continue;
      }
      const depth = (all[i] as Unit).lines[0]?.depth ?? 0;
      // Which repetitions are hidden: after the first `keep`, those wholly off screen (with elements).
      const repUnits: Unit[][] = Array.from({ length: run.reps }, () => []);
      for (const it of run.items) if (it.rep !== null) repUnits[it.rep]?.push(all[it.at] as Unit);
      const hiddenRep = repUnits.map((rep, r) => r >= keep && rep.every(offScreen) && rep.some(hasElements));
      // A gap unit is taken into a summary when the repetitions on both sides are hidden, it is off
      // screen, and it is not a heading (headings stay: they are the page's outline).
      const repBefore: (number | null)[] = [];
      let last: number | null = null;
      for (const it of run.items) {
        repBefore.push(last);
        if (it.rep !== null) last = it.rep;
      }
      const repAfter: (number | null)[] = new Array<number | null>(run.items.length).fill(null);
      last = null;
      for (let k = run.items.length - 1; k >= 0; k--) {
        repAfter[k] = last;
        const r = (run.items[k] as { rep: number | null }).rep;
        if (r !== null) last = r;
      }
      const hidden = run.items.map((it, k) => {
        if (it.rep !== null) return hiddenRep[it.rep] === true;
        const before = repBefore[k] ?? null;
        const after = repAfter[k] ?? null;
        return !isHeading(all[it.at] as Unit) && offScreen(all[it.at] as Unit) && before !== null && after !== null && hiddenRep[before] === true && hiddenRep[after] === true;
      });
      let pending: Unit[] = [];
      const flush = () => {
        if (pending.length === 0) return;
        out.push(summaryLine(pending, outside(pending) ? 'outside' : seenOnScreen ? 'below' : anyOnScreen ? 'above' : 'elsewhere', depth));
        pending = [];
      };
      for (const [k, it] of run.items.entries()) {
        const u = all[it.at] as Unit;
        if (hidden[k]) pending.push(u);
        else {
          flush();
          emit(u);
        }
      }
      flush();
      i += run.items.length;
    }
  };
  level(top);
  return out;
}

export function renderAriaTree(state: SimplifiedState, options: AriaTreeOptions = {}): string {
  const lines = buildLines(entries(state));
  const text = options.summarize === false ? lines.map((l) => l.text) : summarize(state, units(lines), options.minRepeats ?? 8, options.keep ?? 3);
  if (state.truncation) text.push(`# truncated: ${state.truncation.message}`);
  return text.join('\n');
}
