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
  let prose: { line: Line; block: string | null } | null = null;
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
        prose = { line, block: null };
        continue;
      }
      prose = null;
      lines.push({ text: `${pad}- ${t.role}: ${t.text}`, depth: e.depth, key: t.role ?? 'text', elements: [] });
      continue;
    }
    const el = e.el;
    const inline = INLINE_ROLES.has(el.role ?? '') && isLeaf(i) && prose !== null && prose.line.depth === e.depth && (prose.block === null || prose.block === blockOf(el));
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
const offScreen = (u: Unit) => u.lines.every((l) => l.elements.every((el) => el.is_in_viewport === false));
const hasElements = (u: Unit) => u.lines.some((l) => l.elements.length > 0);
const onScreen = (u: Unit) => u.lines.some((l) => l.elements.some((el) => el.is_in_viewport === true));

function plural(role: string, n: number): string {
  if (n === 1) return role;
  if (role.endsWith('x') || role.endsWith('s')) return `${role}es`;
  return `${role}s`;
}

function summaryLine(skipped: Unit[], period: number, direction: string, depth: number): string {
  const byRole = new Map<string, number>();
  for (const u of skipped) for (const l of u.lines) for (const el of l.elements) byRole.set(el.role ?? el.type.toLowerCase(), (byRole.get(el.role ?? el.type.toLowerCase()) ?? 0) + 1);
  const what = [...byRole].map(([role, n]) => `${fmt(n)} ${plural(role, n)}`).join(', ');
  const reps = skipped.length / period;
  const where = direction === 'above' ? 'above: scroll up' : direction === 'below' ? 'below: scroll down' : ': scroll to them';
  return `${'  '.repeat(depth)}- … ${fmt(reps)} more like the above (${what}), off screen ${where} and take a new state to list them with refs`;
}

/** Lines with long off-screen runs of same-shaped units summarised. */
function summarize(all: Unit[], minRepeats: number, keep: number): string[] {
  const keys = all.map((u) => u.key);
  const out: string[] = [];
  let seenOnScreen = false;
  const anyOnScreen = all.some(onScreen);
  const emit = (u: Unit) => {
    for (const l of u.lines) out.push(l.text);
    if (onScreen(u)) seenOnScreen = true;
  };
  let i = 0;
  while (i < all.length) {
    // The period (1..MAX_PERIOD units) with the most repetitions starting here.
    let best = { period: 0, reps: 0 };
    for (let p = 1; p <= MAX_PERIOD && i + p <= all.length; p++) {
      let len = p;
      while (i + len < all.length && keys[i + len] === keys[i + len - p]) len++;
      const reps = Math.floor(len / p);
      if (reps > best.reps) best = { period: p, reps };
    }
    const runUnits = best.reps * best.period;
    if (best.reps < minRepeats) {
      emit(all[i] as Unit);
      i++;
      continue;
    }
    const depth = (all[i] as Unit).lines[0]?.depth ?? 0;
    // Within the run: the first `keep` repetitions and every repetition with anything on screen are
    // listed; consecutive wholly off-screen repetitions after them become one summary line.
    let pending: Unit[] = [];
    const flush = () => {
      if (pending.length === 0) return;
      out.push(summaryLine(pending, best.period, seenOnScreen ? 'below' : anyOnScreen ? 'above' : 'elsewhere', depth));
      pending = [];
    };
    for (let r = 0; r < best.reps; r++) {
      const rep = all.slice(i + r * best.period, i + (r + 1) * best.period);
      const hidden = r >= keep && rep.every(offScreen) && rep.some(hasElements);
      if (hidden) pending.push(...rep);
      else {
        flush();
        rep.forEach(emit);
      }
    }
    flush();
    i += runUnits;
  }
  return out;
}

export function renderAriaTree(state: SimplifiedState, options: AriaTreeOptions = {}): string {
  const lines = buildLines(entries(state));
  const text = options.summarize === false ? lines.map((l) => l.text) : summarize(units(lines), options.minRepeats ?? 8, options.keep ?? 3);
  if (state.truncation) text.push(`# truncated: ${state.truncation.message}`);
  return text.join('\n');
}
