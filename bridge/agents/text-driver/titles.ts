// What a step of the built-in agent did, in words for the person's step log ("Click 'Add to cart'",
// "Type 'stapler' into 'Search'", "Open https://..."), instead of the raw JSON command (which, with no
// spaces to break at, ran off the side panel's edge). The one home of these words for the built-in
// agent (serve's twin: python-shim-spec/browser_use_ext/action_words.py). A typed value is named only
// when the field is known and not sensitive (no password, card or one-time-code field, nothing the page
// redacted): anything else may be a secret the person would not want on screen.
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

/** Longest step description (task_progress step_details.actions[].description). */
export const DESCRIPTION_MAX = 300;

/** A field whose value must never be shown: a password, card or one-time-code field, or one the page's state redacted. */
export function isSensitiveField(e: { redacted?: unknown; attributes?: Record<string, string | undefined> }): boolean {
  if (e.redacted !== undefined && e.redacted !== null) return true;
  const type = (e.attributes?.['type'] ?? '').toLowerCase();
  const autocomplete = (e.attributes?.['autocomplete'] ?? '').toLowerCase();
  return type === 'password' || /\b(cc-|one-time-code|current-password|new-password)/.test(autocomplete);
}

/**
 * label: elementLabel of the command's element id, when the latest snapshot had it; sensitive: whether
 * that element may hold a secret (isSensitiveField), true when it is not known.
 */
export function commandTitle(c: Seed002Command | null, label: string | null = null, sensitive = true): string {
  if (c === null) return 'Done';
  switch (c.action) {
    case 'click':
      return `Click ${label ?? `element ${c.id}`}`;
    case 'type':
      if (c.value === '') return `Click into ${label ?? `element ${c.id}`}`;
      return sensitive || label === null || !clip(c.value, 80)
        ? `Type into ${label ?? `element ${c.id}`}`
        : `Type '${clip(c.value, 80)}' into ${label}`;
    case 'open_tab':
      return `Open ${clip(c.url, 120)}`;
    case 'open_tool':
      return `Open the saved tool '${clip(c.name, 60)}'`;
    case 'done':
      return c.success ? 'Done' : 'Give up: the goal was not reached';
  }
}
