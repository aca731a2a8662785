// Subcommands for the seed clients (issue 14), dispatched from cli.ts before its own option parsing.
import { connectCommand } from './cli-connect';

export const SUBCOMMANDS: Record<string, (argv: string[]) => Promise<number>> = {
  connect: connectCommand,
};
