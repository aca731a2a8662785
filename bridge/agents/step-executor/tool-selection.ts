// Seed 003's "Tool Selection": the executor reads one plan step and picks the tool by the Tool
// Inventory's triggers ("go to"/"open"/"visit" + a known URL -> navigate; "click"/"select"/"press
// button" -> click; "type"/"enter"/"fill" -> type; "search for"/"look up" -> search; scroll; a key
// to press -> press_key; wait), then grounds the target in dom_snapshot by ARIA role and accessible
// name ("Determines precise target elements using ARIA roles and accessible names from DOM"). No
// model and no guessing: a step that fits no trigger is ambiguous_step, a named target the snapshot
// lacks is element_not_found, a name several elements share is ambiguous_step (fail fast, the seed's
// Design Principles). The caller may still choose the tool itself (the wrapper {input, tool}).
import type { AxNode, Seed003ErrorType, Seed003ToolCall } from './seed003-types';

export type Selection = { ok: true; call: Seed003ToolCall } | { ok: false; tool: string; errorType: Seed003ErrorType; message: string };

/** Keys a plan step may name, as Playwright's key names. */
const KEYS: Record<string, string> = {
  enter: 'Enter',
  return: 'Enter',
  escape: 'Escape',
  esc: 'Escape',
  tab: 'Tab',
  backspace: 'Backspace',
  delete: 'Delete',
  space: 'Space',
  home: 'Home',
  end: 'End',
  'page up': 'PageUp',
  pageup: 'PageUp',
  'page down': 'PageDown',
  pagedown: 'PageDown',
  'arrow up': 'ArrowUp',
  arrowup: 'ArrowUp',
  'up arrow': 'ArrowUp',
  'arrow down': 'ArrowDown',
  arrowdown: 'ArrowDown',
  'down arrow': 'ArrowDown',
  'arrow left': 'ArrowLeft',
  arrowleft: 'ArrowLeft',
  'left arrow': 'ArrowLeft',
  'arrow right': 'ArrowRight',
  arrowright: 'ArrowRight',
  'right arrow': 'ArrowRight',
};

/** Roles a click can mean, by the words a plan step uses for them. */
const ROLE_WORDS: [RegExp, string[]][] = [
  [/\bbuttons?\b/i, ['button']],
  [/\blinks?\b/i, ['link']],
  [/\bcheck ?box(es)?\b/i, ['checkbox']],
  [/\bradio\b/i, ['radio']],
  [/\btabs?\b/i, ['tab']],
  [/\bmenu ?items?\b/i, ['menuitem']],
  [/\boptions?\b/i, ['option']],
  [/\b(field|box|input|textbox)\b/i, ['textbox', 'searchbox', 'combobox']],
];

const CLICKABLE = new Set([
  'button',
  'link',
  'checkbox',
  'radio',
  'tab',
  'menuitem',
  'option',
  'switch',
  'combobox',
  'textbox',
  'searchbox',
]);
const FIELDS = new Set(['textbox', 'searchbox', 'combobox']);

/** A URL written in the step: a scheme URL (any scheme: what may be opened is judged when it is), or a bare host. */
function urlIn(step: string): string | null {
  const scheme = /\b([a-z][a-z0-9+.-]*:\/\/[^\s"'<>]+|about:[a-z-]+|data:[^\s"'<>]+)/i.exec(step);
  if (scheme) return trimUrl(scheme[1] as string);
  const host = /(?:^|\s)((?:localhost|(?:[a-z0-9-]+\.)+[a-z]{2,})(?::\d+)?(?:\/[^\s"'<>]*)?)/i.exec(step);
  return host ? trimUrl(host[1] as string) : null;
}

const trimUrl = (u: string) => u.replace(/[.,;:!?)\]]+$/, '');

/** Text in quotes ("x", 'x', “x”), in the order written. */
function quoted(step: string): string[] {
  return [...step.matchAll(/"([^"]+)"|“([^”]+)”|'([^']+)'/g)].map((m) => (m[1] ?? m[2] ?? m[3] ?? '').trim()).filter(Boolean);
}

function nodes(tree: unknown): AxNode[] {
  const out: AxNode[] = [];
  const walk = (n: unknown) => {
    if (!n || typeof n !== 'object') return;
    const node = n as Partial<AxNode>;
    if (typeof node.role === 'string' && typeof node.name === 'string') out.push(node as AxNode);
    if (Array.isArray(node.children)) node.children.forEach(walk);
  };
  walk(tree);
  return out;
}

const norm = (s: string) => s.replace(/\s+/g, ' ').trim().toLowerCase();

/** Words that say how to act or what kind of element, never which element. */
const FILLER = new Set(
  (
    'a an the to of on in into at for from with and or then this that it its my your page site ' +
    'click select press tap choose check uncheck toggle open go visit type enter fill button link field box input ' +
    'textbox checkbox tab menu item option radio'
  ).split(' '),
);

const words = (s: string) =>
  norm(s)
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 1 && !FILLER.has(w));

/**
 * The element the step names: a quoted name first (exactly), else the longest accessible name the
 * step contains; narrowed by a role word ("button", "link", ...) when the step has one.
 */
function ground(
  step: string,
  tree: unknown,
  roles: ReadonlySet<string>,
): { node: AxNode } | { errorType: Seed003ErrorType; message: string } {
  const hinted = ROLE_WORDS.filter(([re]) => re.test(step)).flatMap(([, r]) => r);
  const candidates = nodes(tree).filter((n) => roles.has(n.role) && n.name.trim() !== '');
  const narrowed = hinted.length ? candidates.filter((n) => hinted.includes(n.role)) : candidates;
  const pool = narrowed.length ? narrowed : candidates;
  const q = quoted(step).map(norm);
  let matches = q.length ? pool.filter((n) => q.includes(norm(n.name))) : [];
  if (matches.length === 0) {
    const s = norm(step);
    const inStep = pool.filter((n) => s.includes(norm(n.name)));
    const longest = Math.max(0, ...inStep.map((n) => norm(n.name).length));
    matches = inStep.filter((n) => norm(n.name).length === longest);
  }
  if (matches.length === 0) {
    // Words of a name the step uses ("the search box" for "Search products"): the best overlap, if any.
    const said = new Set(words(step));
    const score = (n: AxNode) => words(n.name).filter((w) => said.has(w)).length;
    const best = Math.max(0, ...pool.map(score));
    if (best > 0) matches = pool.filter((n) => score(n) === best);
  }
  if (matches.length === 0)
    return {
      errorType: 'element_not_found',
      message: `No element of dom_snapshot is named in the step "${step}". Name the element as dom_snapshot does (its accessible name), or take a fresh snapshot.`,
    };
  if (matches.length > 1) {
    const names = matches.map((n) => `${n.role} "${n.name}"`);
    return {
      errorType: 'ambiguous_step',
      message: `The step "${step}" fits ${matches.length} elements of dom_snapshot (${[...new Set(names)].join(', ')}); the step must say which.`,
    };
  }
  return { node: matches[0] as AxNode };
}

/** The text a type step writes: quoted, else what follows the verb up to "in/into <field>". */
function typedText(step: string): string | null {
  const q = quoted(step);
  if (q.length) return q[0] as string;
  const withMatch = /\bwith\s+(.+?)\s*\.?$/i.exec(step);
  if (/\bfill\b/i.test(step) && withMatch) return withMatch[1] as string;
  const m = /\b(?:type|enter|fill in|fill)\s+(.+?)(?:\s+(?:in|into|on)\s+.+)?\s*\.?$/i.exec(step);
  return m ? (m[1] as string) : null;
}

/** The query of a search step: quoted, else what follows "search for" / "look up" (without "on Google", "on the site"). */
function searchQuery(step: string): string | null {
  const q = quoted(step);
  if (q.length) return q[0] as string;
  const where =
    /\s+(?:on|in|at|using|with)\s+(?:google|bing|duckduckgo|the (?:site|page|web)|this (?:site|page)|[a-z0-9-]+\.[a-z.]{2,})\s*\.?$/i;
  const m = /\b(?:search(?: for)?|look up)\s+(.+?)\s*\.?$/i.exec(step.replace(where, ''));
  return m ? (m[1] as string) : null;
}

function keyIn(step: string): string | null {
  const m = /\b(?:press|hit|tap)\s+(?:the\s+)?([a-z]+(?: (?:up|down|left|right|arrow))?)(?:\s+key)?\b/i.exec(step);
  if (!m) return null;
  const word = (m[1] as string).toLowerCase();
  return KEYS[word] ?? KEYS[word.split(' ')[0] as string] ?? null;
}

/** Seed 003's Tool Selection for one plan step, grounded in dom_snapshot. */
export function selectTool(planStep: string, domSnapshot: unknown): Selection {
  const step = planStep.trim();
  const url = urlIn(step);
  if (url && /\b(go to|go back to|open|visit|navigate|load|browse to|head to)\b/i.test(step))
    return { ok: true, call: { tool: 'navigate', args: { url } } };
  if (/\bwait\b/i.test(step)) {
    const n = /(\d+)\s*(?:s\b|sec|secs|second|seconds)?/i.exec(step);
    // "Wait for the page to load" names no time: two seconds, the seed's "page loading, transitions".
    return { ok: true, call: { tool: 'wait', args: { seconds: n ? Number(n[1]) : 2 } } };
  }
  if (/\bscroll\b/i.test(step))
    return { ok: true, call: { tool: 'scroll', args: { direction: /\b(up|top|back up)\b/i.test(step) ? 'up' : 'down' } } };
  const key = keyIn(step);
  if (key && !/\bbutton\b/i.test(step)) return { ok: true, call: { tool: 'press_key', args: { key } } };
  if (/\b(search for|look up|search)\b/i.test(step) && !/\b(search (box|field|bar|button))\b/i.test(step)) {
    const query = searchQuery(step);
    if (!query)
      return { ok: false, tool: 'search', errorType: 'ambiguous_step', message: `The step "${step}" says search but not for what.` };
    return { ok: true, call: { tool: 'search', args: { query } } };
  }
  if (/\b(type|enter|fill)\b/i.test(step)) {
    const text = typedText(step);
    if (text === null)
      return { ok: false, tool: 'type', errorType: 'ambiguous_step', message: `The step "${step}" says type but not what.` };
    // The field the step names (other than by the text itself), else the focused one.
    const rest = step.replace(text, ' ');
    const field = ground(rest, domSnapshot, FIELDS);
    const args = 'node' in field ? { text, role: field.node.role, name: field.node.name } : { text };
    return { ok: true, call: { tool: 'type', args } };
  }
  if (/\b(click|select|press|tap|choose|check|uncheck|toggle)\b/i.test(step) || /\b(open|go to|visit)\b/i.test(step)) {
    const target = ground(step, domSnapshot, CLICKABLE);
    if (!('node' in target)) {
      // "Go to the shop" with neither a URL nor an element of that name: which page is meant is unclear.
      if (!/\b(click|select|press|tap|choose|check|uncheck|toggle)\b/i.test(step))
        return {
          ok: false,
          tool: 'navigate',
          errorType: 'ambiguous_step',
          message: `The step "${step}" names no URL and no element to open.`,
        };
      return { ok: false, tool: 'click', ...target };
    }
    return { ok: true, call: { tool: 'click', args: { role: target.node.role, name: target.node.name } } };
  }
  return {
    ok: false,
    tool: '',
    errorType: 'ambiguous_step',
    message:
      `No tool fits the step "${step}": it should say what to do as the seed's triggers do ` +
      `(go to/open/visit a URL, click/select, type/enter/fill, search for/look up, scroll, press a key, wait).`,
  };
}
