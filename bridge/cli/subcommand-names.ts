// The subcommands of `browser-use-ext`, in the order the top-level help lists them. A module of its
// own (main.ts runs the CLI when imported) so tests can run every subcommand's --help.
export const SUBCOMMAND_NAMES = [
  'bridge',
  'pair',
  'serve',
  'agent',
  'mcp',
  'mcp-token',
  'cdp-url',
  'status',
  'connect',
  'seed002',
  'seed003',
  'conformance',
] as const;

export type SubcommandName = (typeof SUBCOMMAND_NAMES)[number];
