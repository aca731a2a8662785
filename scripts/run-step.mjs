// One step of `npm test` or `npm run lint`: a child process whose output is either streamed as it
// comes (a step run alone) or held and printed in one piece when it ends (steps run at the same
// time, so their logs do not interleave), with its wall time for the summary table.
import { spawn } from 'node:child_process';

/**
 * Runs cmd with args; resolves (never rejects) with the exit code (1 when it could not start or was
 * killed), everything it printed, and the seconds it took.
 * @param {string} label
 * @param {string} cmd
 * @param {string[]} args
 * @param {{ cwd: string, env?: Record<string, string>, buffered?: boolean }} opts
 * @returns {Promise<{ label: string, code: number, out: string, seconds: number }>}
 */
export function runStep(label, cmd, args, opts) {
  const header = `\n=== ${label}: ${[cmd, ...args].join(' ')}\n`;
  if (!opts.buffered) process.stdout.write(header);
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: opts.cwd, env: { ...process.env, ...opts.env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    const tee = (stream, sink) =>
      stream.on('data', (d) => {
        out += d;
        if (!opts.buffered) sink.write(d);
      });
    tee(child.stdout, process.stdout);
    tee(child.stderr, process.stderr);
    // A command that cannot start (not installed) fails its step with the reason instead of crashing the run.
    child.on('error', (e) => (out += `${label}: could not start ${cmd}: ${e.message}\n`));
    child.on('close', (code) => {
      if (opts.buffered) process.stdout.write(header + out);
      resolve({ label, code: code ?? 1, out, seconds: (performance.now() - started) / 1000 });
    });
  });
}

/**
 * The per-step wall times as a small table ("step  seconds"), for the end of a run.
 * @param {{ label: string, seconds: number }[]} steps
 * @returns {string}
 */
export function durationTable(steps) {
  const width = Math.max(4, ...steps.map((s) => s.label.length));
  const rows = steps.map((s) => `${s.label.padEnd(width)}  ${s.seconds.toFixed(1).padStart(7)}`);
  return [`${'step'.padEnd(width)}  ${'seconds'.padStart(7)}`, ...rows].join('\n') + '\n';
}

/**
 * Resolves once at most n of the pending promises are still unsettled (at once when there are n or fewer).
 * @param {number} n
 * @param {Promise<unknown>[]} pending
 * @returns {Promise<void>}
 */
export function untilAtMost(n, pending) {
  let left = pending.length;
  if (left <= n) return Promise.resolve();
  return new Promise((resolve) => {
    for (const p of pending)
      p.finally(() => {
        left -= 1;
        if (left <= n) resolve();
      }).catch(() => {});
  });
}
