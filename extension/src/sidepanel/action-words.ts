// A step's action as the person reads it in the task's thread: the agent's own plain words
// (task_progress actions[].description) when it sent them, else words the panel makes from the
// action's name and parameters ("Click element 3", "Click 'Add to cart'", "Open example.com"),
// never the raw JSON. Names cover browser_use 0.1.40-0.1.48's controller and this project's
// protocol actions (the built-in agent); an unknown action reads as its name in words.
import type { TaskStepDetails } from '../../../schemas/generated/protocol';

export type StepAction = NonNullable<TaskStepDetails['actions']>[number];

const MAX_QUOTE = 60;

function str(v: unknown): string | null {
  if (typeof v === 'string') return v.trim() === '' ? null : v.trim();
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  return null;
}

/** 'text', cut to a readable length. */
function quote(s: string): string {
  const one = s.replace(/\s+/g, ' ');
  return `'${one.length > MAX_QUOTE ? `${one.slice(0, MAX_QUOTE - 1)}…` : one}'`;
}

/** The site of a URL ("example.com"), or the text as given when it is no URL. */
function site(url: string): string {
  try {
    const u = new URL(url);
    return u.host ? u.host.replace(/^www\./, '') : url;
  } catch {
    return url;
  }
}

/** The element an action names: its visible text when the agent gave it, else its number. */
function element(p: Record<string, unknown>): string {
  const text = str(p['element_text']) ?? str(p['label']) ?? str(p['name']);
  if (text) return quote(text);
  const n = str(p['index']) ?? str(p['element_id']) ?? str(p['id']) ?? str(p['ref']);
  return n ? `element ${n}` : 'an element';
}

type Words = (p: Record<string, unknown>) => string;

const typed = (p: Record<string, unknown>) => {
  const text = str(p['text']) ?? str(p['value']);
  return text ? `Type ${quote(text)} into ${element(p)}` : `Type into ${element(p)}`;
};
const open = (p: Record<string, unknown>) => {
  const url = str(p['url']);
  return url ? `Open ${site(url)}` : 'Open a page';
};
const scroll = (dir: string) => (p: Record<string, unknown>) => {
  const amount = str(p['amount']);
  return amount ? `Scroll ${dir} ${amount} pixels` : `Scroll ${dir}`;
};

const WORDS: Readonly<Record<string, Words>> = {
  click_element_by_index: (p) => `Click ${element(p)}`,
  click_element: (p) => `Click ${element(p)}`,
  click: (p) => `Click ${element(p)}`,
  double_click: (p) => `Double-click ${element(p)}`,
  hover: (p) => `Point at ${element(p)}`,
  input_text: typed,
  type: typed,
  fill: typed,
  clear: (p) => `Clear ${element(p)}`,
  check: (p) => `Tick ${element(p)}`,
  uncheck: (p) => `Untick ${element(p)}`,
  go_to_url: open,
  navigate: open,
  open_tab: (p) => (str(p['url']) ? `${open(p)} in a new tab` : 'Open a new tab'),
  search_google: (p) => (str(p['query']) ? `Search Google for ${quote(str(p['query']) ?? '')}` : 'Search Google'),
  search: (p) => (str(p['query']) ? `Search for ${quote(str(p['query']) ?? '')}` : 'Search'),
  go_back: () => 'Go back',
  go_forward: () => 'Go forward',
  reload: () => 'Reload the page',
  scroll_down: scroll('down'),
  scroll_up: scroll('up'),
  scroll: (p) => (str(p['direction']) ? scroll(str(p['direction']) ?? 'down')(p) : 'Scroll'),
  scroll_to_text: (p) => (str(p['text']) ? `Scroll to ${quote(str(p['text']) ?? '')}` : 'Scroll to a text'),
  scroll_into_view: (p) => `Scroll to ${element(p)}`,
  send_keys: (p) => (str(p['keys']) ? `Press ${str(p['keys'])}` : 'Press keys'),
  press: (p) => (str(p['key']) ? `Press ${str(p['key'])}` : 'Press a key'),
  switch_tab: (p) => ((str(p['page_id']) ?? str(p['tab_id'])) ? `Switch to tab ${str(p['page_id']) ?? str(p['tab_id'])}` : 'Switch tab'),
  close_tab: (p) => ((str(p['page_id']) ?? str(p['tab_id'])) ? `Close tab ${str(p['page_id']) ?? str(p['tab_id'])}` : 'Close a tab'),
  extract_content: (p) => (str(p['goal']) ? `Read the page for ${quote(str(p['goal']) ?? '')}` : 'Read the page'),
  get_dropdown_options: (p) => `Read the options of ${element(p)}`,
  select_dropdown_option: (p) =>
    str(p['text']) ? `Pick ${quote(str(p['text']) ?? '')} in ${element(p)}` : `Pick an option in ${element(p)}`,
  select_option: (p) => `Pick an option in ${element(p)}`,
  wait: (p) => (str(p['seconds']) ? `Wait ${str(p['seconds'])} s` : 'Wait'),
  drag_drop: () => 'Drag and drop',
  drag_and_drop: () => 'Drag and drop',
  upload_file: (p) => `Upload a file into ${element(p)}`,
  set_input_files: (p) => `Upload a file into ${element(p)}`,
  get_state: () => 'Look at the page',
  screenshot: () => 'Take a screenshot',
  done: () => 'Finish',
};

/** "click_element_by_index" -> "Click element by index": an action the panel has no words for. */
function nameInWords(name: string): string {
  const w = name.replace(/[_-]+/g, ' ').trim();
  return w ? w.charAt(0).toUpperCase() + w.slice(1) : 'An action';
}

/** The action in plain words: the agent's description, else the panel's own. */
export function actionWords(a: StepAction): string {
  const own = a.description?.trim();
  if (own) return own;
  const params = a.params && typeof a.params === 'object' ? a.params : {};
  return (WORDS[a.name] ?? (() => nameInWords(a.name)))(params);
}

/** The action that ends the task: its words are the answer, shown once at the thread's end. */
export const isFinishing = (a: StepAction): boolean => a.is_done === true || a.name === 'done';
