// What a tool call's arguments mean, whichever client wrote them. Ours name the element `ref` (the
// [ref=...] of our snapshot; `element_id`, the protocol's name, is accepted too); prompts and agents
// written for Playwright MCP send its shapes: `ref` (up to 0.0.4x) or `target` (0.0.83: a ref or a
// CSS selector) with `element` (the element in words, for the person's permission prompt),
// browser_drag's startTarget/endTarget, browser_type's submit/slowly, browser_click's doubleClick,
// browser_wait_for's time (seconds)/textGone, browser_fill_form's typed fields, browser_evaluate's
// function, browser_tabs' index, browser_take_screenshot's type/scale. They are turned into ours
// here, before the argument check, so one check and one set of error words covers both.

type Args = Record<string, unknown>;

/** A ref our snapshot prints: e12, or f7e3 inside a subframe. */
export const REF_PATTERN = /^(f\d+)?e\d+$/;

/** What the call says about itself beyond its arguments: the element in words, a tab by position. */
export interface CallNotes {
  /** `element` (or startElement/endElement) as the client wrote it: named in errors. */
  element?: string;
  /** browser_tabs index (Playwright MCP): position in browser_tabs list. */
  tabIndex?: number;
}

const isObj = (v: unknown): v is Args => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Playwright's ControlOrMeta is Meta on macOS, Control elsewhere (the MCP server runs beside the browser). */
const modifier = (m: unknown) => (m === 'ControlOrMeta' ? (process.platform === 'darwin' ? 'Meta' : 'Control') : m);

/** `target` (a ref or a selector) and `element_id` as `ref`/`selector`; leaves a clash for the target check. */
function targetOf(a: Args): Args {
  const out: Args = { ...a };
  if (out['element_id'] !== undefined && out['ref'] === undefined) {
    out['ref'] = out['element_id'];
    delete out['element_id'];
  }
  const t = out['target'];
  if (typeof t === 'string') {
    if (REF_PATTERN.test(t) && out['ref'] === undefined) out['ref'] = t;
    else if (!REF_PATTERN.test(t) && out['selector'] === undefined) out['selector'] = t;
    else return out; // both given: the target check names the clash
    delete out['target'];
  }
  return out;
}

function takeElement(a: Args, key: string, notes: CallNotes): void {
  if (typeof a[key] === 'string') notes.element = notes.element ? `${notes.element} onto ${a[key]}` : a[key];
  if (key !== 'element') delete a[key];
}

/** Playwright MCP's field {target, name (words), type, value} as ours {ref|selector, element, type, value}. */
function fieldOf(f: unknown): unknown {
  if (!isObj(f)) return f;
  const out = targetOf(f);
  if (out['type'] !== undefined && out['role'] === undefined && typeof out['name'] === 'string') {
    // Playwright's `name` is the field in words; ours is an accessible name used with role.
    out['element'] ??= out['name'];
    delete out['name'];
  }
  return out;
}

/** The call's arguments in our terms, and what it says about itself. */
export function normalizeArgs(tool: string, raw: Args): { args: Args; notes: CallNotes } {
  const notes: CallNotes = {};
  let a: Args = {};
  for (const [k, v] of Object.entries(raw)) if (v !== undefined) a[k] = v;
  if (tool === 'browser_snapshot') {
    if (typeof a['target'] === 'string' && a['ref'] === undefined) {
      a['ref'] = a['target'];
      delete a['target'];
    }
    return { args: a, notes };
  }
  if (tool === 'browser_drag') {
    if (a['startTarget'] !== undefined && a['target'] === undefined) a['target'] = a['startTarget'];
    if (a['startTarget'] !== undefined) delete a['startTarget'];
    takeElement(a, 'startElement', notes);
    if (typeof a['endTarget'] === 'string' && a['to'] === undefined) {
      const t = a['endTarget'];
      a['to'] = REF_PATTERN.test(t) ? { ref: t } : { selector: t };
      delete a['endTarget'];
    }
    takeElement(a, 'endElement', notes);
  }
  a = targetOf(a);
  if (typeof a['element'] === 'string') notes.element = a['element'];
  if (isObj(a['to'])) a['to'] = targetOf(a['to']);
  if (Array.isArray(a['modifiers'])) a['modifiers'] = a['modifiers'].map(modifier);
  if (tool === 'browser_click' && a['doubleClick'] !== undefined) {
    if (a['doubleClick'] === true && a['click_count'] === undefined) a['click_count'] = 2;
    if (typeof a['doubleClick'] === 'boolean') delete a['doubleClick'];
  }
  if (tool === 'browser_type') {
    if (a['submit'] === true && typeof a['text'] === 'string') a['text'] = `${a['text']}\n`;
    if (typeof a['submit'] === 'boolean') delete a['submit'];
    // Ours always types key by key (what Playwright's slowly does), so slowly changes nothing.
    if (typeof a['slowly'] === 'boolean') delete a['slowly'];
  }
  if (tool === 'browser_wait_for') {
    if (typeof a['time'] === 'number' && a['ms'] === undefined) {
      a['ms'] = Math.round(a['time'] * 1000);
      delete a['time'];
    }
    if (typeof a['textGone'] === 'string' && a['text'] === undefined) {
      a['text'] = a['textGone'];
      a['state'] = 'hidden';
      delete a['textGone'];
    }
  }
  if (tool === 'browser_fill_form' && Array.isArray(a['fields'])) a['fields'] = a['fields'].map(fieldOf);
  if (tool === 'browser_evaluate' && typeof a['function'] === 'string' && a['expression'] === undefined) {
    a['expression'] = `(${a['function']})()`;
    delete a['function'];
  }
  if (tool === 'browser_tabs' && typeof a['index'] === 'number' && a['tab_id'] === undefined) {
    notes.tabIndex = a['index'];
    delete a['index'];
  }
  if (tool === 'browser_take_screenshot') {
    // Ours is always a PNG of the visible part; Playwright's default type and its required scale fit that.
    if (a['type'] === 'png') delete a['type'];
    if (a['scale'] === 'css' || a['scale'] === 'device') delete a['scale'];
  }
  return { args: a, notes };
}

/** ref -> element_id, in a target and in a nested `to` (what the protocol calls it). */
export function toProtocol(a: Args): Args {
  const out: Args = { ...a };
  if (out['ref'] !== undefined) {
    out['element_id'] = out['ref'];
    delete out['ref'];
  }
  delete out['element'];
  if (isObj(out['to'])) out['to'] = toProtocol(out['to']);
  return out;
}
