// How the person types the bridge's CLI on the machine where the bridge runs: `browser-use-ext`
// (installed package) or `npx browser-use-ext` (a checkout, where the plain name is "command not
// found"). The bridge decides (bridge/common/cli-invocation.ts) and says so on /healthz; the worker
// keeps the answer here, and the pages show every command in that form. Until a bridge has
// answered, commands keep the installed form.

/** chrome.storage.local key of the form the bridge last named. */
export const CLI_FORM_KEY = 'cli_form';
export const CLI_FORMS = ['browser-use-ext', 'npx browser-use-ext'] as const;
export type CliForm = (typeof CLI_FORMS)[number];

export function isCliForm(x: unknown): x is CliForm {
  return typeof x === 'string' && (CLI_FORMS as readonly string[]).includes(x);
}

/** The command as typed with that form (the npx form puts npx in front of the plain name). Other text is unchanged. */
export function inCliForm(command: string, form: CliForm | null): string {
  if (form === null || !/^browser-use-ext(\s|$)/.test(command)) return command;
  return `${form}${command.slice('browser-use-ext'.length)}`;
}
