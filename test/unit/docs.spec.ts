// The pages a person reads hold together: every relative link and anchor in README.md, MIGRATION.md,
// docs/*.md and the Python package's README resolves inside the repository, no link or path points
// outside it, every runnable snippet parses (Python through ast.parse, TypeScript/JavaScript through
// the TypeScript parser with no top-level await, JSON, and `bash -n` for shell), the README's two
// commands are what package.json and CI run, and the generated references (CLI, protocol, the
// wheel's README) are what scripts/docs-gen.ts makes now.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

import { expect } from 'chai';
import ts from 'typescript';

import { GENERATED_DOCS, renderWheelReadme, REPO } from '../../scripts/docs-gen';

/** The Markdown a person reads, repository-relative. */
function pages(): string[] {
  const docs = fs
    .readdirSync(path.join(REPO, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`);
  return ['README.md', 'MIGRATION.md', 'python-shim-spec/README.md', ...docs];
}

const read = (rel: string) => fs.readFileSync(path.join(REPO, rel), 'utf8');

interface Block {
  lang: string;
  code: string;
  line: number;
}

/** Fenced code blocks (``` or ~~~, indented ones in lists too) and the prose around them. */
function split(text: string): { prose: { text: string; line: number }[]; blocks: Block[] } {
  const prose: { text: string; line: number }[] = [];
  const blocks: Block[] = [];
  let open: { fence: string; indent: number; lang: string; line: number; lines: string[] } | null = null;
  text.split('\n').forEach((l, i) => {
    const m = /^( *)(```+|~~~+)\s*([\w+-]*)/.exec(l);
    if (open) {
      if (m && m[2]?.startsWith(open.fence) && !m[3]) {
        blocks.push({ lang: open.lang, code: open.lines.join('\n'), line: open.line });
        open = null;
      } else open.lines.push(l.slice(Math.min(open.indent, l.length - l.trimStart().length)));
    } else if (m) open = { fence: m[2] ?? '```', indent: m[1]?.length ?? 0, lang: (m[3] ?? '').toLowerCase(), line: i + 1, lines: [] };
    else prose.push({ text: l, line: i + 1 });
  });
  return { prose, blocks };
}

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
export function anchors(text: string): Set<string> {
  const out = new Set<string>();
  const seen = new Map<string, number>();
  for (const { text: l } of split(text).prose) {
    const h = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(l);
    const html = [...l.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)].map((m) => m[1] ?? '');
    for (const id of html) out.add(id);
    if (!h) continue;
    const base = (h[1] ?? '')
      .replace(/<[^>]+>/g, '')
      .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/ /g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n ? `${base}-${n}` : base);
  }
  return out;
}

/** Markdown links and images outside code: [text](target) (not an escaped \\[), with code spans removed first. */
function links(text: string): { target: string; line: number }[] {
  const out: { target: string; line: number }[] = [];
  for (const p of split(text).prose)
    for (const m of p.text.replace(/`[^`]*`/g, '').matchAll(/(?<!\\)!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g))
      out.push({ target: m[1] ?? '', line: p.line });
  return out;
}

describe('docs: the pages a newcomer reads', () => {
  it('every relative link and #anchor resolves inside the repository', () => {
    const bad: string[] = [];
    for (const page of pages()) {
      for (const { target, line } of links(read(page))) {
        const where = `${page}:${line} (${target})`;
        if (/^[a-z][a-z0-9+.-]*:/i.test(target)) {
          if (!/^(https|mailto):/i.test(target)) bad.push(`${where}: only https:// links leave the repository`);
          else if (/^https:\/\/(localhost|127\.|\[::1\])/i.test(target)) bad.push(`${where}: a loopback address is not a public site`);
          continue;
        }
        const [file = '', anchor] = target.split('#');
        const abs = file ? path.resolve(path.dirname(path.join(REPO, page)), decodeURIComponent(file)) : path.join(REPO, page);
        if (!abs.startsWith(REPO + path.sep)) bad.push(`${where}: leaves the repository`);
        else if (!fs.existsSync(abs)) bad.push(`${where}: no such file`);
        else if (anchor && abs.endsWith('.md') && !anchors(fs.readFileSync(abs, 'utf8')).has(anchor))
          bad.push(`${where}: ${path.relative(REPO, abs)} has no heading with the anchor #${anchor}`);
      }
    }
    expect(bad, bad.join('\n')).to.deep.equal([]);
  });

  it('names no path outside the repository, even in code (../shared/..., absolute checkout paths)', () => {
    const bad: string[] = [];
    for (const page of pages())
      read(page)
        .split('\n')
        .forEach((l, i) => {
          if (/\.\.\/shared\/|\/work\/(main|wt|shared)\b/.test(l)) bad.push(`${page}:${i + 1}: ${l.trim()}`);
        });
    expect(bad, bad.join('\n')).to.deep.equal([]);
  });

  it('every TypeScript/JavaScript snippet parses and awaits only inside a function', () => {
    const bad: string[] = [];
    for (const page of pages())
      for (const b of split(read(page)).blocks) {
        if (!['ts', 'typescript', 'js', 'javascript', 'mjs'].includes(b.lang)) continue;
        const where = `${page}:${b.line}`;
        const kind = b.lang.startsWith('t') ? ts.ScriptKind.TS : ts.ScriptKind.JS;
        const sf = ts.createSourceFile(`snippet.${b.lang.startsWith('t') ? 'ts' : 'js'}`, b.code, ts.ScriptTarget.ES2022, true, kind);
        const diags = (sf as unknown as { parseDiagnostics: ts.Diagnostic[] }).parseDiagnostics;
        for (const d of diags) bad.push(`${where}: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`);
        const visit = (n: ts.Node): void => {
          if (ts.isFunctionLike(n)) return;
          if (ts.isAwaitExpression(n) || (ts.isForOfStatement(n) && n.awaitModifier))
            bad.push(`${where}: top-level await (line ${sf.getLineAndCharacterOfPosition(n.getStart()).line + 1} of the snippet)`);
          ts.forEachChild(n, visit);
        };
        visit(sf);
      }
    expect(bad, bad.join('\n')).to.deep.equal([]);
  });

  it('every Python snippet parses (ast.parse, so no top-level await) and every JSON snippet is JSON', () => {
    const bad: string[] = [];
    const python: { where: string; code: string }[] = [];
    for (const page of pages())
      for (const b of split(read(page)).blocks) {
        const where = `${page}:${b.line}`;
        if (b.lang === 'python' || b.lang === 'py') python.push({ where, code: b.code });
        if (b.lang === 'json')
          try {
            JSON.parse(b.code);
          } catch (e) {
            bad.push(`${where}: ${(e as Error).message}`);
          }
      }
    expect(python.length).to.be.greaterThan(3);
    const script =
      'import ast, json, sys\nfor s in json.load(sys.stdin):\n    try:\n        ast.parse(s["code"])\n' +
      '    except SyntaxError as e:\n        print(s["where"] + ": " + str(e))\n';
    const r = spawnSync('python3', ['-c', script], { input: JSON.stringify(python), encoding: 'utf8', timeout: 30_000 });
    expect(r.status, r.stderr).to.equal(0);
    bad.push(...r.stdout.split('\n').filter(Boolean));
    expect(bad, bad.join('\n')).to.deep.equal([]);
  });

  it('every shell snippet is valid shell (bash -n)', () => {
    const bad: string[] = [];
    for (const page of pages())
      for (const b of split(read(page)).blocks) {
        if (!['sh', 'bash', 'shell'].includes(b.lang)) continue;
        const r = spawnSync('bash', ['-n'], { input: b.code, encoding: 'utf8', timeout: 10_000 });
        if (r.status !== 0) bad.push(`${page}:${b.line}: ${r.stderr.trim()}`);
      }
    expect(bad, bad.join('\n')).to.deep.equal([]);
  });

  it("the README's two commands are the ones package.json and CI run, and the README stays short", () => {
    const readme = read('README.md');
    const block = /## The two commands\n\n```sh\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';
    const commands = block.split('\n').map((l) => l.replace(/#.*$/, '').trim());
    expect(commands).to.include('npm ci && npm start');
    expect(commands).to.include('npm test');
    const ci = read('.ci/run')
      .split('\n')
      .map((l) => l.trim());
    expect(ci.filter((l) => /^npm (ci|test)\b/.test(l))).to.deep.equal(['npm ci --no-fund --no-audit', 'npm test']);
    const scripts = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts;
    expect(scripts['start'] && scripts['test']).to.be.a('string');
    expect(readme.split('\n').length).to.be.at.most(320);
  });
});

describe('docs: generated references', function () {
  // The CLI's top-level help is asked of the CLI itself (one node process).
  this.timeout(60_000);

  for (const g of GENERATED_DOCS)
    it(`${g.rel} is what scripts/docs-gen.ts makes now (run \`npm run gen:docs\` when this fails)`, () => {
      expect(read(g.rel) === g.render(), `${g.rel} is stale: run npm run gen:docs`).to.equal(true);
    });

  it("the wheel's README states today's pairing step and the real serve factory, and refers to nothing it lacks", () => {
    const text = renderWheelReadme();
    expect(text).to.include('browser-use-ext pair');
    // No "see above" (the page is read alone on PyPI), no build step of old, no /agent path in the bridge URL
    // variable (every command takes the bridge's base URL), no link into the repository.
    expect(text).not.to.match(/see above|npx rollup|BRIDGE_URL=ws:\S*\/agent|\]\((?!https:)/i);
    // The factory's keyword arguments: the ones serve.py's docstring promises a --agent factory, each of
    // which serve really passes.
    const serve = read('python-shim-spec/browser_use_ext/serve.py');
    const call = /_call_with_supported\(\s*self\.factory,([\s\S]*?)\)\n/.exec(serve)?.[1] ?? '';
    const passed = new Set([...call.matchAll(/(\w+)=/g)].map((m) => m[1]));
    const promised = /keyword\s+arguments it declares:([\s\S]*?)\. It\s/.exec(serve)?.[1] ?? '';
    const names = [...promised.matchAll(/``(\w+)``/g)].map((m) => m[1] ?? '');
    expect(names.length).to.be.greaterThan(3);
    for (const n of names) expect(passed, `serve.py promises ${n} to a factory but does not pass it`).to.include(n);
    const documented = [...text.matchAll(/make\(([^)]*)\)/g)].map((m) => m[1] ?? '');
    expect(documented.length).to.be.greaterThan(0);
    for (const sig of documented) expect(sig.split(',').map((a) => a.trim())).to.deep.equal(names);
  });
});
