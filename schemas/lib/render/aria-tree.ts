// Seed 001's accessibility-tree text (the form Playwright's ariaSnapshot popularised):
//   - heading "Sign in" [level=1]
//   - textbox "Email" [ref=e2]: ada@example.org
//   - button "Submit" [disabled] [ref=e3]
// One line per element or text block, indented two spaces per nesting level. Token economy (rules in
// README "Text rendering"):
//   - one line per block: a table row, list item, heading, paragraph or text container prints its text
//     and the leaf elements inside it on one line, each element still `role "name" [flags] [ref=eN]`:
//       - row: alpha zeta | link "gamma 0" [ref=e40], link "kappa" [ref=e41] link "[1]" [ref=e42]
//       - listitem: link "Jump up" [ref=e9] link "A study" [ref=e10]. Retrieved 2000.
//       - heading [level=2]: History [link "edit" [ref=e6]]
//       alpha and beta link "topic 0" [ref=e4], gamma        (prose: bare text)
//     An element's block is its nearest block-level ancestor (p, li, tr, h1-h6, caption, label, div,
//     nav, ...: the content script's text blocks) read from its xpath; a text item's block is inferred:
//     text between two elements of one block is in it; text right before or after a block's elements
//     joins it when its kind (TextItem.role) matches: tail punctuation, the trailing text of a
//     paragraph, row, list item or heading, the lead of a block that begins with text. Row cells are
//     separated by ` | ` (between elements: where their xpaths say the cells differ). It saves the `- ` and newline per element and the
//     `- row:` / `- listitem:` repeated per fragment, and fixes rows that read as `- row: ,`.
//     Kept on their own line: elements with nested elements, elements whose block is unknown (inside a
//     shadow root: no xpath), consecutive elements in a plain container with no text between them
//     (a nav bar's links, a toolbar), and nothing follows a printed value (`: value`) on its line;
//   - a <label>'s text next to the control it names is dropped (it is that control's name);
//   - long runs of same-shaped blocks (>= 8 repetitions: table rows, cards, paragraphs full of links)
//     that lie wholly off screen are summarised after their first 3 repetitions in one line that
//     says what they hold and how to list them (scroll there and take a new state); a later run of a
//     shape already listed (the next section's paragraphs) is summarised from its first repetition.
//     What is on screen is always listed in full, so every element the default (viewport) state
//     holds keeps its ref.
import type { ActionableElement, SimplifiedState, TextItem } from '../../generated/protocol';
import { entries, type Entry, labelOf, shownValue } from './common';

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

/** Block kinds of text_context (TextItem.role); absent, 'text' and plain containers are 'plain'. */
type BlockRole = NonNullable<TextItem['role']> | 'plain';
/**
 * The tags that make a text block in the content script's walk (extension/src/content/snapshot/walk.ts
 * BLOCK_ROLE), with the role a text item inside them carries: an element's block is its nearest
 * ancestor with one of these tags, found from its xpath, so it can be matched with the text around it.
 */
const BLOCK_TAGS: Record<string, BlockRole> = {
  p: 'paragraph',
  li: 'listitem',
  caption: 'caption',
  figcaption: 'caption',
  label: 'label',
  legend: 'legend',
  pre: 'code',
  blockquote: 'blockquote',
  h1: 'heading',
  h2: 'heading',
  h3: 'heading',
  h4: 'heading',
  h5: 'heading',
  h6: 'heading',
  tr: 'row',
  div: 'plain',
  section: 'plain',
  article: 'plain',
  main: 'plain',
  header: 'plain',
  footer: 'plain',
  nav: 'plain',
  aside: 'plain',
  form: 'plain',
  fieldset: 'plain',
  table: 'plain',
  tbody: 'plain',
  thead: 'plain',
  tfoot: 'plain',
  ul: 'plain',
  ol: 'plain',
  dl: 'plain',
  dt: 'plain',
  dd: 'plain',
  body: 'plain',
  html: 'plain',
  figure: 'plain',
  details: 'plain',
  summary: 'plain',
  dialog: 'plain',
  address: 'plain',
  center: 'plain',
};
const roleOfText = (t: TextItem): BlockRole => (t.role === undefined || t.role === 'text' ? 'plain' : t.role);

interface Block {
  /** Frame and xpath of the block element. */
  key: string;
  frame: number | undefined;
  role: BlockRole;
  level?: number;
  /** The table cell (xpath segment under the row) the element sits in, for rows. */
  cell?: string;
}

/** The block an element sits in, from its xpath; null when unknown (no xpath: inside a shadow root). */
function blockOf(el: ActionableElement): Block | null {
  if (!el.xpath) return null;
  const segs = el.xpath.split('/');
  for (let i = segs.length - 2; i >= 0; i--) {
    const tag = (segs[i] as string).replace(/\[\d+\]$/, '').toLowerCase();
    const role = BLOCK_TAGS[tag];
    if (role === undefined) continue;
    const block: Block = { key: `${el.frame_id ?? ''}:${segs.slice(0, i + 1).join('/')}`, frame: el.frame_id, role };
    if (role === 'heading') block.level = Number(tag.slice(1));
    if (role === 'row') block.cell = (segs[i + 1] ?? '').replace(/^(td|th)$/, '$1[1]');
    return block;
  }
  return null;
}

/** Roles whose block holds several leaf elements on one line even with no text between them. */
const SHARED = new Set<BlockRole>(['paragraph', 'listitem', 'row', 'heading', 'caption', 'label', 'legend', 'blockquote', 'code']);
/** Roles whose text right after the block's last element is taken as that block's trailing text. */
const TRAILING = new Set<BlockRole>(['paragraph', 'listitem', 'row', 'heading', 'caption', 'legend', 'blockquote']);
/** Punctuation that attaches to the element before it (not `:` or `-`, which would read as a value). */
const GLUE_AFTER_ELEMENT = /^[.,;!?)\]}»”’…]/;
const OPENS = /[([{«“‘]$/;

interface Piece {
  text: string;
  el?: ActionableElement;
  cell?: string;
}

/** A line being assembled: a block's text and leaf elements, in document order. */
interface Open {
  depth: number;
  /** Frame of the line's first text (text and elements of different documents never share a line). */
  frame: number | undefined;
  block: Block | null;
  role: BlockRole;
  level?: number;
  pieces: Piece[];
  /** The line started with text (its block's first thing is text). */
  textFirst: boolean;
  /** A value was printed (`: value`): nothing may follow it on the line. */
  sealed: boolean;
}

const printsValue = (el: ActionableElement): boolean => {
  const value = shownValue(el);
  return el.redacted !== undefined || (value !== undefined && value !== '' && VALUE_ROLES.has(el.role ?? '') && value !== labelOf(el));
};

/** The separator between two pieces of a line. */
function separator(line: Open, k: number): string {
  const a = line.pieces[k - 1] as Piece;
  const b = line.pieces[k] as Piece;
  if (line.role === 'row') {
    // Cells: elements know theirs; text between two elements of one cell is in that cell.
    const prevEl = line.pieces
      .slice(0, k)
      .reverse()
      .find((p) => p.el);
    const nextEl = line.pieces.slice(k).find((p) => p.el);
    if (a.el && b.el) return a.cell === b.cell ? ' ' : ' | ';
    if (prevEl && nextEl && prevEl.cell === nextEl.cell) return !b.el && GLUE_AFTER_ELEMENT.test(b.text) ? '' : ' ';
    if (a.el && GLUE_AFTER_ELEMENT.test(b.text)) return '';
    return a.el || b.el ? ' | ' : ' ';
  }
  if (!b.el && (a.el ? GLUE_AFTER_ELEMENT : LEADING_PUNCT).test(b.text)) return '';
  if (!a.el && OPENS.test(a.text)) return '';
  return ' ';
}

function finish(line: Open): Line {
  const pad = '  '.repeat(line.depth);
  const elements = line.pieces.flatMap((p) => (p.el ? [p.el] : []));
  const level = line.level ?? 2;
  if (elements.length === 0) {
    const text = line.pieces.map((p) => p.text).join(' ');
    if (line.role === 'heading')
      return { text: `${pad}- heading ${quote(text)} [level=${level}]`, depth: line.depth, key: `h${level}`, elements };
    if (line.role === 'plain' || line.role === 'paragraph') return { text: `${pad}${text}`, depth: line.depth, key: 'prose', elements };
    return { text: `${pad}- ${line.role}: ${text}`, depth: line.depth, key: line.role, elements };
  }
  if (elements.length === 1 && line.pieces.length === 1) {
    const el = elements[0] as ActionableElement;
    return { text: `${pad}- ${(line.pieces[0] as Piece).text}`, depth: line.depth, key: `${el.role ?? el.type}`, elements };
  }
  let content = (line.pieces[0] as Piece).text;
  for (let k = 1; k < line.pieces.length; k++) content += separator(line, k) + (line.pieces[k] as Piece).text;
  const shape = elements.map((el) => `+${el.role ?? el.type}`).join('');
  if (line.role === 'heading')
    return { text: `${pad}- heading [level=${level}]: ${content}`, depth: line.depth, key: `h${level}${shape}`, elements };
  if (line.role === 'plain' || line.role === 'paragraph')
    return { text: `${pad}${line.textFirst ? '' : '- '}${content}`, depth: line.depth, key: `prose${shape}`, elements };
  return { text: `${pad}- ${line.role}: ${content}`, depth: line.depth, key: `${line.role}${shape}`, elements };
}

function buildLines(list: Entry[]): Line[] {
  const lines: Line[] = [];
  const isLeaf = (i: number) => {
    const e = list[i];
    const next = list[i + 1];
    return e !== undefined && (next === undefined || next.kind === 'text' || next.depth <= e.depth);
  };
  const blocks = list.map((e) => (e.kind === 'element' ? blockOf(e.el) : null));
  /** Whether entry j is a leaf element at `depth` in block `key`. */
  const leafIn = (j: number, depth: number, key: string) =>
    list[j]?.kind === 'element' && list[j]?.depth === depth && isLeaf(j) && blocks[j]?.key === key;
  let open: Open | null = null;
  const close = () => {
    if (open) lines.push(finish(open));
    open = null;
  };
  /** Whether the open line takes text item i (it is in the open line's block). */
  const takesText = (line: Open, i: number): boolean => {
    const t = (list[i] as Entry & { kind: 'text' }).item;
    if (line.sealed || line.block === null || line.depth !== 0 || t.frame_id !== line.block.frame) return false;
    // Text between two elements of one block is inside that block.
    if (leafIn(i + 1, line.depth, line.block.key)) return true;
    if ((line.pieces[line.pieces.length - 1] as Piece).el === undefined || roleOfText(t) !== line.block.role) return false;
    // Text right after the block's last element: tail punctuation is the block's; so is the trailing
    // text of a paragraph, row, list item or heading. When the next element opens another block of
    // the same kind, the text ends this block or leads that one: it leads it when this block also
    // began with text, unless it reads as an ending (ends a sentence; in a paragraph, goes on in lower case).
    if (LEADING_PUNCT.test(t.text)) return true;
    if (!TRAILING.has(line.block.role)) return false;
    const nextBlock = list[i + 1]?.kind === 'element' ? blocks[i + 1] : null;
    if (!nextBlock || nextBlock.role !== line.block.role) return true;
    return !line.textFirst || /[.!?]$/.test(t.text) || (line.block.role === 'paragraph' && /^\p{Ll}/u.test(t.text));
  };
  /** Whether the open line takes leaf element i. */
  const takesElement = (line: Open, i: number, block: Block): boolean => {
    const e = list[i] as Entry;
    if (line.sealed || line.depth !== e.depth) return false;
    const last = line.pieces[line.pieces.length - 1] as Piece;
    if (line.block === null) {
      // Text opened the line: the element joins when its block is of the text's kind (a paragraph's
      // first link); in a plain container only when text follows it too (not the first of a nav's links).
      if (block.role !== line.role || block.frame !== line.frame || (line.level !== undefined && block.level !== line.level)) return false;
      return block.role !== 'plain' || !leafIn(i + 1, e.depth, block.key);
    }
    if (line.block.key !== block.key) return false;
    return SHARED.has(block.role) || last.el === undefined;
  };
  for (let i = 0; i < list.length; i++) {
    const e = list[i] as Entry;
    if (e.kind === 'text') {
      const t = e.item;
      // A <label>'s text right before or after the control it names is already that control's name.
      const prev = list[i - 1];
      const next = list[i + 1];
      if (
        t.role === 'label' &&
        ((next?.kind === 'element' && labelOf(next.el) === t.text) || (prev?.kind === 'element' && labelOf(prev.el) === t.text))
      )
        continue;
      if (open && takesText(open, i)) {
        open.pieces.push({ text: t.text });
        continue;
      }
      close();
      open = {
        depth: e.depth,
        frame: t.frame_id,
        block: null,
        role: roleOfText(t),
        pieces: [{ text: t.text }],
        textFirst: true,
        sealed: false,
      };
      if (t.role === 'heading') open.level = t.level ?? 2;
      continue;
    }
    const el = e.el;
    const block = blocks[i] ?? null;
    const piece: Piece = { text: elementPhrase(el), el };
    if (block?.cell) piece.cell = block.cell;
    if (isLeaf(i) && block) {
      if (open && takesElement(open, i, block)) {
        open.pieces.push(piece);
        if (open.block === null) open.block = block;
        if (printsValue(el)) open.sealed = true;
        continue;
      }
      close();
      open = { depth: e.depth, frame: el.frame_id, block, role: block.role, pieces: [piece], textFirst: false, sealed: printsValue(el) };
      if (block.level !== undefined) open.level = block.level;
      continue;
    }
    close();
    lines.push({ text: `${'  '.repeat(e.depth)}- ${piece.text}`, depth: e.depth, key: `${el.role ?? el.type}`, elements: [el] });
  }
  close();
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

function summaryLine(skipped: Unit[], where: 'above' | 'below' | 'elsewhere' | 'outside', depth: number, like = 'the above'): string {
  const byRole = new Map<string, number>();
  for (const u of skipped)
    for (const l of u.lines)
      for (const el of l.elements) byRole.set(el.role ?? el.type.toLowerCase(), (byRole.get(el.role ?? el.type.toLowerCase()) ?? 0) + 1);
  const what = [...byRole].map(([role, n]) => `${fmt(n)} ${plural(role, n)}`).join(', ');
  const how = {
    above: 'off screen above: scroll up and take a new state to list them with refs',
    below: 'off screen below: scroll down and take a new state to list them with refs',
    elsewhere: 'off screen: scroll to them and take a new state to list them with refs',
    outside:
      'outside the page at every scroll position (off canvas): they are listed once something on the page, such as a menu button, reveals them',
  }[where];
  return `${'  '.repeat(depth)}- … ${fmt(skipped.length)} more block${skipped.length === 1 ? '' : 's'} like ${like} (${what}), ${how}`;
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
  /** Shapes of runs whose first repetitions are already listed. */
  const shown = new Set<string>();
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
      // A shape whose first repetitions were listed earlier in the page (the paragraphs of an earlier
      // section) is not listed again: a later run of it is summarised from its first repetition.
      const shape = `${depth}:${keys.slice(i, i + run.period).join('|')}`;
      const keepHere = shown.has(shape) ? 0 : keep;
      shown.add(shape);
      // Which repetitions are hidden: after the first `keepHere`, those wholly off screen (with elements).
      const repUnits: Unit[][] = Array.from({ length: run.reps }, () => []);
      for (const it of run.items) if (it.rep !== null) repUnits[it.rep]?.push(all[it.at] as Unit);
      const hiddenRep = repUnits.map((rep, r) => r >= keepHere && rep.every(offScreen) && rep.some(hasElements));
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
        return (
          !isHeading(all[it.at] as Unit) &&
          offScreen(all[it.at] as Unit) &&
          before !== null &&
          after !== null &&
          hiddenRep[before] === true &&
          hiddenRep[after] === true
        );
      });
      let pending: Unit[] = [];
      // Whether a repetition of this run is listed yet (else the summary points at the earlier run).
      let listed = false;
      const flush = () => {
        if (pending.length === 0) return;
        out.push(
          summaryLine(
            pending,
            outside(pending) ? 'outside' : seenOnScreen ? 'below' : anyOnScreen ? 'above' : 'elsewhere',
            depth,
            listed ? 'the above' : 'those listed earlier',
          ),
        );
        pending = [];
      };
      for (const [k, it] of run.items.entries()) {
        const u = all[it.at] as Unit;
        if (hidden[k]) pending.push(u);
        else {
          flush();
          emit(u);
          if (it.rep !== null) listed = true;
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
  const text =
    options.summarize === false ? lines.map((l) => l.text) : summarize(state, units(lines), options.minRepeats ?? 8, options.keep ?? 3);
  if (state.truncation) text.push(`# truncated: ${state.truncation.message}`);
  return text.join('\n');
}
