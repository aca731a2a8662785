// The collector behind the install test's "every printed command runs as printed" case: which text
// counts as a command a person types, and the argv each becomes.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { expect } from 'chai';

import { collectPrintedCommands, type TestValues, toArgv } from './printed-commands';

const V: TestValues = { agentUrl: 'ws://127.0.0.1:4000/agent', port: 4000, configDir: '/cfg', deadUrl: 'ws://127.0.0.1:9/backend' };

describe('printed commands: the collector', () => {
  let root: string;
  before(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'bux-printed-'));
    fs.writeFileSync(
      path.join(root, 'README.md'),
      [
        'Run `npx browser-use-ext pair` and pin the browser-use-ext extension.',
        '```sh',
        'browser-use-ext cdp-url --name NAME --tabs 3      # prints a URL',
        'browser-use-ext bridge [--port N] [--log-level silent|debug] [--open]',
        '```',
        'Start the bridge (browser-use-ext bridge --extension-id <store id>) first.',
        'It appears as browser-use-ext settings in the title.',
      ].join('\n'),
    );
    fs.mkdirSync(path.join(root, 'docs'), { recursive: true });
    fs.writeFileSync(path.join(root, 'docs', 'guide.md'), 'Then run `browser-use-ext status --json`.\n');
    fs.writeFileSync(path.join(root, 'docs', 'protocol.md'), '(browser-use-ext serve starts an Agent per task)\n');
    fs.mkdirSync(path.join(root, 'bridge', 'cli'), { recursive: true });
    fs.writeFileSync(
      path.join(root, 'bridge', 'cli', 'x.ts'),
      [
        'const a = `Revoke it with: browser-use-ext mcp-token revoke ${name}\\n`;',
        "const b = `start it with \\`browser-use-ext bridge${port === 8765 ? '' : ` --port ${port}`}\\``;",
        'const c = `browser-use-ext bridge ${VERSION} listening`;',
        "const d = 'or run browser-use-ext connect --dialect 000 ws://localhost:8080 in a terminal.';",
        "const e = 'Usage: browser-use-ext agent|seed002 --help';",
        "const f = ['browser-use-ext conformance report'];",
      ].join('\n'),
    );
  });
  after(() => fs.rmSync(root, { recursive: true, force: true }));

  it('finds commands in code spans, code blocks, messages, usage lines and docs/ pages, not product names in prose', () => {
    const found = collectPrintedCommands(root).map((c) => `${c.npx ? 'npx ' : ''}${c.printed}`);
    expect(found).to.have.members([
      'npx browser-use-ext pair',
      'browser-use-ext cdp-url --name NAME --tabs 3',
      'browser-use-ext bridge [--port N] [--log-level silent|debug] [--open]',
      'browser-use-ext bridge --extension-id <store id>',
      'browser-use-ext mcp-token revoke ${}',
      'browser-use-ext bridge',
      'browser-use-ext connect --dialect 000 ws://localhost:8080 in a terminal',
      'browser-use-ext agent --help',
      'browser-use-ext seed002 --help',
      'browser-use-ext status --json',
    ]);
  });

  it('fills placeholders from the option before them, stops at prose, and tries usage lines with and without their options', () => {
    expect(toArgv('browser-use-ext cdp-url --name NAME --tabs 3', V)).to.deep.equal(['cdp-url', '--name', 'test-name', '--tabs', '3']);
    expect(toArgv('browser-use-ext connect --dialect 000 ws://localhost:8080 in a terminal', V)).to.deep.equal([
      'connect',
      '--dialect',
      '000',
      V.deadUrl,
    ]);
    expect(toArgv('browser-use-ext mcp-token revoke ${}', V)).to.deep.equal(['mcp-token', 'revoke', 'test-name']);
    expect(toArgv('browser-use-ext agent --base-url <OpenAI-compatible URL> --model <model>', V)).to.deep.equal([
      'agent',
      '--base-url',
      'http://127.0.0.1:9/backend/v1',
      '--model',
      'test-model',
    ]);
    const usage = 'browser-use-ext bridge [--port N] [--log-level silent|debug] [--open]';
    expect(toArgv(usage, V)).to.deep.equal(['bridge']);
    expect(toArgv(usage, V, true)).to.deep.equal(['bridge', '--port', '4000', '--log-level', 'silent']);
    // An outside service in an example is never called.
    expect(toArgv('browser-use-ext agent --base-url https://api.openai.com/v1', V)).to.deep.equal([
      'agent',
      '--base-url',
      'http://127.0.0.1:9/backend/v1',
    ]);
  });
});
