// What a step of the built-in agent did, in words for the person's step log ("Click 'Add to cart'",
// "Type into 'Search'", "Open https://..."), instead of the raw JSON command (which, with no spaces
// to break at, ran off the side panel's edge). A typed value is never in the title: it may be a
// password or another value the person would not want on screen.
import type { Seed002Command } from './parse';

const clip = (s: string, n: number) => {
  const t = s.replace(/\s+/g, ' ').trim();
  return t.length <= n ? t : `${t.slice(0, n - 1).trimEnd()}…`;
};

/** The element as the person sees it: its accessible name, else its text, else its kind. */
export function elementLabel(e: { name?: string | null; text_content?: string | null; role?: string | null; tag?: string }): string {
  const name = clip(e.name ?? '', 60) || clip(e.text_content ?? '', 60);
  return name ? `'${name}'` : `the ${e.role || e.tag?.toLowerCase() || 'element'}`;
}

/** label: elementLabel of the command's element id, when the latest snapshot had it. */
export function commandTitle(c: Seed002Command | null, label: string | null = null): string {
  if (c === null) return 'Finish';
  switch (c.action) {
    case 'click':
      return `Click ${label ?? `element ${c.id}`}`;
    case 'type':
      return c.value === '' ? `Click into ${label ?? `element ${c.id}`}` : `Type into ${label ?? `element ${c.id}`}`;
    case 'open_tab':
      return `Open ${clip(c.url, 120)}`;
    case 'open_tool':
      return `Open the saved tool '${clip(c.name, 60)}'`;
    case 'done':
      return c.success ? 'Finish' : 'Give up: the goal was not reached';
  }
}
