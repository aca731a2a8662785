// What happened to a page an agent ran its own script in when that agent ended: reloaded (the
// script is gone with the document) or kept as the person's Settings asked (the script may still
// run). The worker writes these lines to storage.session (background/cdp/client-script-marks.ts); the
// side panel shows them under the agent list (sidepanel/script-ends-list.ts).

/** storage.local: what to do with such a page when its agent ends. */
export type ScriptEndChoice = 'reload' | 'keep';
export const DEFAULT_SCRIPT_END: ScriptEndChoice = 'reload';

/** The stored setting as a choice: anything but 'keep' is the default. */
export const scriptEndChoice = (v: unknown): ScriptEndChoice => (v === 'keep' ? 'keep' : DEFAULT_SCRIPT_END);

export interface ScriptEndLine {
  /** ms since epoch. */
  at: number;
  tab_id: number;
  /** reloaded; kept (the person's choice); not_reloaded (Chrome refused the reload: `error` says why). */
  outcome: 'reloaded' | 'kept' | 'not_reloaded';
  /** The agent's hello.client name ("cdp:scraper"), or null when it ended before the bridge named it. */
  agent: string | null;
  /** The tab's title and site, as the person knows the tab. */
  title: string;
  site: string;
  error?: string;
}

export const MAX_SCRIPT_END_LINES = 5;

/** The panel's line: which tab, which agent (`who`: as the panel words l.agent), what happened, and what the person can do. */
export function scriptEndText(l: ScriptEndLine, who = 'An agent'): string {
  const tab = l.site ? `“${l.title}” (${l.site})` : `“${l.title}”`;
  if (l.outcome === 'reloaded') return `${who} ended: reloaded ${tab}, so no script it ran there keeps running.`;
  if (l.outcome === 'kept')
    return `${who} ended: ${tab} was kept as it was (your Settings), so script the agent ran there may still run. Reload that tab to stop it.`;
  return `${who} ended, but ${tab} could not be reloaded (${l.error ?? 'Chrome refused'}): script the agent ran there may still run. Reload that tab to stop it.`;
}
