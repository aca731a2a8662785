// Agents as a person knows them: what kind of program it is, in words, and the language model it
// drives ("Built-in agent · gpt-4o-mini"), never the raw hello.client name. The raw name and
// version go on the agent's small details line, for whoever needs to tell two of a kind apart.
import { cdpClientName } from './panel-messages';

interface ClientInfo {
  name: string;
  version: string;
  model?: string;
}

/** The hello.client names of the agents this project ships. */
const KINDS: Readonly<Record<string, string>> = {
  'seed002-agent': 'Built-in agent',
  'browser-use-ext-python-serve': 'browser_use agent',
  // The Python shim's ExtensionBrowser: browser_use driving this browser, in the person's own program or
  // in the session serve runs a task in (folded into serve's entry: the same words for the same agent).
  'browser-use-ext-python': 'browser_use agent',
  'browser-use-ext-ts-client': 'TypeScript program',
  'seed002-driver': 'Text command driver',
  'seed003-executor': 'Step runner',
  'browser-use-ext-conformance': 'Conformance check',
};

/** The session `serve` or the built-in agent opens to run one task names itself by that task
 * ('browser-use-ext serve, running "Find a pen"'): the agent is the same program, the task goes on its own line. */
const TASK_SESSION = /^browser-use-ext (serve|built-in agent), running "(.*)"$/s;
const TASK_SESSION_KIND: Readonly<Record<string, string>> = { serve: 'browser_use agent', 'built-in agent': 'Built-in agent' };

/** The task a task session names itself by, clipped as it sent it; null for any other agent. */
export function taskOfSessionName(name: string): string | null {
  return TASK_SESSION.exec(name)?.[2] ?? null;
}

const MCP_PREFIX = 'mcp:';
const CONNECTOR = /^seed00[01]-connector\s/;

/** What the agent is, without its model. */
export function agentKind(name: string): string {
  // A CDP client's session (bridge/agents/cdp) is named cdp:<URL name>: show the name the person chose.
  const cdp = cdpClientName(name);
  if (cdp !== null) return `${cdp} (CDP client)`;
  // An MCP client (Claude Desktop, Cursor, ...) is named by the name it gave (bridge/agents/mcp).
  if (name.startsWith(MCP_PREFIX) && name.length > MCP_PREFIX.length) return `${name.slice(MCP_PREFIX.length)} (MCP client)`;
  if (CONNECTOR.test(name)) return 'Backend connector';
  const task = TASK_SESSION.exec(name);
  if (task) return TASK_SESSION_KIND[task[1] ?? ''] ?? name;
  return KINDS[name] ?? name;
}

/** "Built-in agent · gpt-4o-mini": the agent's kind and, when it said, its model. */
export function agentLabel(client: ClientInfo): string {
  const kind = agentKind(client.name);
  return client.model ? `${kind} · ${client.model}` : kind;
}

/** The details line: the program's own name and version. Our seed-numbered internal names
 * (seed002-agent, seed001-connector ...) stay out of what a person reads: the version alone. */
export function agentDetails(client: ClientInfo): string {
  // A task session: the program's name; its task is on the entry's own line.
  const task = TASK_SESSION.exec(client.name);
  if (task) return `browser-use-ext ${task[1] ?? ''} ${client.version}`;
  return /seed\d{3}/i.test(client.name) ? `version ${client.version}` : `${client.name} ${client.version}`;
}
