// Subcommands for the seed clients (issue 14), dispatched from cli.ts before its own option parsing.
import { agentCommand, driverCommand } from '../seed002/cli';
import { conformanceCommand } from '../conformance/cli';
import { seed003Command } from '../seed003/cli';
import { connectCommand } from './cli-connect';

export const SUBCOMMANDS: Record<string, (argv: string[]) => Promise<number>> = {
  connect: connectCommand,
  agent: agentCommand,
  seed002: driverCommand,
  seed003: seed003Command,
  conformance: conformanceCommand,
};
