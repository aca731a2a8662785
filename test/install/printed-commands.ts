// Collects the `browser-use-ext <subcommand> ...` commands that the README and docs, the extension's
// pages and messages, the bridge's messages and the Python package's messages print for a person to
// type, and turns each into an argv the install test can run. A regex scan, tolerant on purpose: it runs
// whatever is printed (a new subcommand or flag needs no change here), fills placeholders (NAME,
// <model>, ${expr}, URL) with test values, and drops optional [...] parts, so the form a person
// copies first is the one that runs.
import fs from 'node:fs';
import path from 'node:path';

export interface PrintedCommand {
  /** The command as printed (after `npx `, if any, and with template expressions shown as ${...}). */
  printed: string;
  /** Printed with `npx` in front: that form 404s for anyone who installed the package. */
  npx: boolean;
  /** Where it is printed, file:line. */
  where: string;
}

/** Sources whose text a person reads: README, MIGRATION, docs/, extension pages and messages, bridge, Python package. */
export function printedSources(root: string): string[] {
  const files: string[] = [path.join(root, 'README.md'), path.join(root, 'MIGRATION.md')];
  const docs = path.join(root, 'docs');
  // docs/protocol.md is the schemas' field descriptions (generated), written for protocol clients, not typed commands.
  const pages = fs.existsSync(docs) ? fs.readdirSync(docs).filter((f) => f.endsWith('.md') && f !== 'protocol.md') : [];
  files.push(...pages.map((f) => path.join(docs, f)));
  const walk = (dir: string, exts: RegExp) => {
    if (!fs.existsSync(dir)) return;
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) {
        if (e.name !== '__pycache__' && e.name !== 'node_modules') walk(p, exts);
      } else if (exts.test(e.name)) files.push(p);
    }
  };
  walk(path.join(root, 'extension', 'src'), /\.(ts|html)$/);
  walk(path.join(root, 'bridge'), /\.ts$/);
  walk(path.join(root, 'python-shim-spec', 'browser_use_ext'), /\.py$/);
  files.push(path.join(root, 'python-shim-spec', 'README.md'));
  return files.filter((f) => fs.existsSync(f));
}

// Where a command starts in running text: a code span, <code>, a quote that opens a message, "run ",
// "with ", "(", ": ", or the start of a line (code blocks, help text). "the browser-use-ext extension"
// in prose has none of these in front of it and is not a command.
const LEAD = /(?:^|[`(]|:\s|\b(?:run|Run|with|With|use|Use|from|try|Try)\s)\s*$/;
const COMMAND = /(npx\s+)?\bbrowser-use-ext\s+([a-z][a-z0-9-]*(?:\|[a-z][a-z0-9-]*)*)/g;
// Words that end a command written into a sentence ("run browser-use-ext pair in a terminal").
const STOP_WORDS = new Set(['in', 'and', 'or', 'to', 'then', 'a', 'the', 'for', 'on', 'once', 'again', 'there', 'instead', 'is', 'first']);

/** Skips a `${...}` template expression (nested braces and template literals included) from i. */
function skipTemplate(text: string, i: number): number {
  let depth = 0;
  for (let j = i; j < text.length; j++) {
    const c = text[j];
    if (c === '{') depth++;
    else if (c === '}' && --depth === 0) return j + 1;
  }
  return text.length;
}

/** The argument text after the subcommand, up to where the printed command ends. */
function argText(text: string, start: number): string {
  let out = '';
  let i = start;
  while (i < text.length) {
    const c = text[i] as string;
    if (c === '$' && text[i + 1] === '{') {
      const end = skipTemplate(text, i);
      out += '${}';
      i = end;
      continue;
    }
    if (c === '\\' && /[`nt]/.test(text[i + 1] ?? '')) break; // \` or \n in a TS/Python string: the command ended
    if ('`"\'\n;,()'.includes(c)) break;
    if (c === '<' && !/^<[a-zA-Z][\w -]*>/.test(text.slice(i))) break; // </code>, "< step.json"
    if (c === '.' && /^\.(\s|$|['"`\\])/.test(text.slice(i))) break; // a full stop, not a dot in a URL or file name
    if (c === '#' && /\s$/.test(out)) break; // a shell comment
    if (c === ' ' && text[i + 1] === ' ') break; // help text columns
    out += c;
    i++;
  }
  return out.trim();
}

/** Every printed command in the sources, deduplicated by its printed form. */
export function collectPrintedCommands(root: string): PrintedCommand[] {
  const seen = new Map<string, PrintedCommand>();
  for (const file of printedSources(root)) {
    const text = fs.readFileSync(file, 'utf8');
    for (const m of text.matchAll(COMMAND)) {
      const at = m.index;
      const lineStart = text.lastIndexOf('\n', at - 1) + 1;
      if (!LEAD.test(text.slice(lineStart, at).replace(/<code[^>]*>$/, '`'))) continue;
      const [whole, npx, subs] = m as unknown as [string, string | undefined, string];
      const after = at + whole.length;
      // `bridge${port === 8765 ? '' : ...}`: an optional suffix the message adds; `bridge ${VERSION}
      // listening`: a status line, not a command. A template right after the subcommand ends it.
      const args = /^\s?\$\{/.test(text.slice(after)) ? '' : argText(text, after);
      const line = text.slice(0, at).split('\n').length;
      // connect|agent|seed002 --help: each alternative is a command a person may type.
      for (const sub of subs.split('|')) {
        const printed = `browser-use-ext ${sub}${args ? ` ${args}` : ''}`;
        const key = `${npx ? 'npx ' : ''}${printed}`;
        if (!seen.has(key)) seen.set(key, { printed, npx: Boolean(npx), where: `${path.relative(root, file)}:${line}` });
      }
    }
  }
  return [...seen.values()];
}

export interface TestValues {
  /** ws://127.0.0.1:PORT/agent of the bridge the installed package started. */
  agentUrl: string;
  port: number;
  configDir: string;
  /** An address where nothing answers (a backend or an LLM that is not there). */
  deadUrl: string;
}

// The value a placeholder stands for, by the option in front of it.
function valueFor(option: string | undefined, v: TestValues): string {
  switch (option) {
    case '--port':
      return String(v.port);
    case '--bridge-url':
    case '--bridge':
    case '--against':
      return v.agentUrl;
    case '--config-dir':
      return v.configDir;
    case '--base-url':
      return `${v.deadUrl.replace(/^ws/, 'http')}/v1`;
    case '--model':
      return 'test-model';
    case '--tabs':
    case '--max-tabs':
      return '2';
    case '--wait':
      return '1';
    case '--dialect':
      return '000';
    case '--goal':
      return 'test goal';
    case '--host':
      return '127.0.0.1';
    case '--log-level':
      return 'info';
    case '--extension-id':
      return 'hlpljhaoajogiafnlkgfmcioikalboec';
    default:
      return 'test-name';
  }
}

const PLACEHOLDER = /^(?:<[^>]*>|\$\{\}|[A-Z][A-Z_]*|\S*\$\{\}\S*)$/;

/**
 * The argv to run for a printed command: the first of a|b alternatives, placeholders filled in from
 * the option before them. Optional [...] parts are left out, or with `full` put in (the first
 * alternative of each; never --open, which would open a browser window), so that both the form a
 * person copies first and every flag a usage line offers are tried. Null when nothing is left.
 */
export function toArgv(printed: string, v: TestValues, full = false): string[] | null {
  const body = printed
    .replace(/^browser-use-ext\s+/, '')
    .replace(/\[([^\]]*)\]/g, (_m, inner: string) =>
      full && !/^(options|--open)$/.test(inner.trim()) ? ` ${inner.split(' | ')[0]} ` : ' ',
    )
    .replace(/<([^>]*)>/g, (_m, inner: string) => `<${inner.replace(/\s+/g, '_')}>`);
  const words = body.split(/\s+/).filter(Boolean);
  const argv: string[] = [];
  for (const raw of words) {
    const w = raw.includes('|') && !raw.includes('://') ? (raw.split('|')[0] as string) : raw;
    const prev = argv[argv.length - 1];
    const after = prev?.startsWith('--') ? prev : undefined;
    if (!w.startsWith('-') && STOP_WORDS.has(w) && argv.length > 0) break;
    if (/^wss?:\/\/localhost[:/]/.test(w))
      argv.push(v.deadUrl); // a backend of one's own: not running here
    else if (/^wss?:\/\/127\.0\.0\.1:(\d+|PORT)\/agent$/.test(w)) argv.push(v.agentUrl);
    else if (/^https?:\/\//.test(w) && !/^https?:\/\/(127\.0\.0\.1|localhost)[:/]/.test(w))
      argv.push(`${v.deadUrl.replace(/^ws/, 'http')}/v1`); // no calls to outside services
    else if (!after && /URL/.test(w) && PLACEHOLDER.test(w)) argv.push(v.deadUrl);
    else if (PLACEHOLDER.test(w)) argv.push(valueFor(after, v));
    else argv.push(w);
  }
  return argv.length > 0 ? argv : null;
}
