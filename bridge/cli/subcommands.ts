// Subcommands for the seed clients and the CDP URLs, dispatched from main.ts before its own option parsing.
import { cdpUrlCommand } from './cdp-url';
import { conformanceCommand } from './conformance';
import { connectCommand } from './connect';
import { seed003Command } from './step-executor';
import { agentCommand, driverCommand } from './text-driver';

export const SUBCOMMANDS: Record<string, (argv: string[]) => Promise<number>> = {
  connect: connectCommand,
  agent: agentCommand,
  seed002: driverCommand,
  seed003: seed003Command,
  conformance: conformanceCommand,
  'cdp-url': cdpUrlCommand,
};
