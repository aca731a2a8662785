// The step runner behind `npm test` and `npm run lint` (scripts/run-step.mjs): a step's exit code
// and output are its verdict, a command that cannot start fails its step instead of the run, and
// the timing table lines up whatever the labels.
import os from 'node:os';

import { expect } from 'chai';
import sinon from 'sinon';

import { splitSuites } from '../../scripts/mocha-suites.mjs';
import { durationTable, runStep, untilAtMost } from '../../scripts/run-step.mjs';

describe('step runner (scripts/run-step.mjs)', () => {
  afterEach(() => sinon.restore());

  it('a buffered step prints its header and output in one piece when it ends, with its exit code and time', async () => {
    const write = sinon.stub(process.stdout, 'write').returns(true);
    const r = await runStep('echo', process.execPath, ['-e', 'console.log("out"); console.error("err"); process.exit(3)'], {
      cwd: os.tmpdir(),
      buffered: true,
    });
    write.restore();
    expect(r.code).to.equal(3);
    expect(r.out).to.contain('out').and.contain('err');
    expect(r.seconds).to.be.above(0);
    expect(write.callCount, 'one write: logs of steps run at once do not interleave').to.equal(1);
    expect(String(write.firstCall.args[0])).to.match(/^\n=== echo: .*\nout\n/);
  });

  it('a command that cannot start fails its step with the reason', async () => {
    const write = sinon.stub(process.stdout, 'write').returns(true);
    const r = await runStep('missing', '/nonexistent/bux-no-such-tool', [], { cwd: os.tmpdir(), buffered: true });
    write.restore();
    expect(r.code).to.not.equal(0);
    expect(r.out).to.contain('could not start /nonexistent/bux-no-such-tool');
  });

  it('the duration table has a header and one aligned row per step', () => {
    const t = durationTable([
      { label: 'eslint', seconds: 12.345 },
      { label: 'typecheck tests', seconds: 3 },
    ]);
    expect(t.split('\n')).to.deep.equal(['step             seconds', 'eslint              12.3', 'typecheck tests      3.0', '']);
  });

  it('untilAtMost resolves once only n runs are left, whether the others passed or failed, and at once when n or fewer run', async () => {
    const ends: Record<string, () => void> = {};
    const fails: Record<string, (e: Error) => void> = {};
    const runs = ['bu048', 'bu040', 'nobu'].map((name) => new Promise<void>((res, rej) => ((ends[name] = res), (fails[name] = rej))));
    let oneLeft = false;
    const waiting = untilAtMost(1, runs).then(() => (oneLeft = true));
    ends['nobu']?.();
    await new Promise((r) => setImmediate(r));
    expect(oneLeft, 'two runs still going').to.equal(false);
    fails['bu040']?.(new Error('failed run'));
    await waiting;
    expect(oneLeft).to.equal(true);
    ends['bu048']?.();
    await untilAtMost(1, [new Promise(() => {})]);
    await untilAtMost(1, []);
  });

  it('npm test runs e2e and integration before the Python runs and every other mocha suite after them, each exactly once', () => {
    const suites = ['e2e', 'install', 'integration', 'mcp', 'seeds', 'soak', 'test/'].map((name) => ({ name, globs: [`test/${name}/**`] }));
    const { first, later } = splitSuites(suites);
    expect(first.map((s) => s.name)).to.deep.equal(['e2e', 'integration']);
    expect(later.map((s) => s.name)).to.deep.equal(['install', 'mcp', 'seeds', 'soak', 'test/']);
  });
});
