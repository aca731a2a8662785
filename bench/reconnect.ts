// Bridge restart -> extension back, in the real setup: the built CLI bridge in its own process, killed
// with SIGKILL, started again on the same port after DOWN ms (a list, cycled), with BUSY busy-looping
// node processes beside it for a loaded machine. Times from the new bridge answering /healthz to
// /status saying the extension is connected; a restart slower than 3 s prints the worker's own log
// of its tries (globalThis.__buxBridgeTries, extension/src/background/connection/try-log.ts).
// `N=20 DOWN=200,1000,3000 BUSY=2 node --import tsx bench/reconnect.ts`; writes bench/results/reconnect.{json,md}.
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { loadOrCreateSecrets } from '../bridge/common/secrets';
import { launchWithExtension, REPO_ROOT } from '../test/harness/browser';
import { freePort } from '../test/harness/free-port';
import { summary } from './stats';

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
const N = Number(process.env['N'] ?? 10);
const DOWN = (process.env['DOWN'] ?? '200,1000,3000').split(',').map(Number);
const BUSY = Number(process.env['BUSY'] ?? 0);
const SLOW_MS = 3000;

async function main(): Promise<void> {
  const configDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bux-reconnect-'));
  const secrets = loadOrCreateSecrets(configDir).secrets;
  const port = await freePort();
  let child: ChildProcess | null = null;
  const start = async () => {
    child = spawn(
      process.execPath,
      [
        path.join(REPO_ROOT, 'dist', 'bridge', 'cli.js'),
        'bridge',
        '--port',
        String(port),
        '--config-dir',
        configDir,
        '--log-level',
        'warn',
      ],
      { stdio: ['ignore', 'ignore', 'inherit'] },
    );
    const until = Date.now() + 20_000;
    while (Date.now() < until) {
      if (
        await fetch(`http://127.0.0.1:${port}/healthz`).then(
          (r) => r.ok,
          () => false,
        )
      )
        return;
      await sleep(25);
    }
    throw new Error('bridge did not start within 20 s');
  };
  const connected = () =>
    fetch(`http://127.0.0.1:${port}/status`).then(
      async (r) => ((await r.json()) as { extension: { connected: boolean } }).extension.connected,
      () => false,
    );
  const busy: ChildProcess[] = [];
  for (let i = 0; i < BUSY; i++) busy.push(spawn(process.execPath, ['-e', 'for(;;){}'], { stdio: 'ignore' }));
  const loads: number[] = [];
  const times: number[] = [];
  const slow: { ms: number; down: number; tries: unknown }[] = [];
  await start();
  const launched = await launchWithExtension({
    extensionBridgeUrl: `ws://127.0.0.1:${port}/extension`,
    extensionConfig: { extension_secret: secrets.extension_secret },
  });
  try {
    while (!(await connected())) await sleep(50);
    for (let i = 0; i < N; i++) {
      const down = DOWN[i % DOWN.length] ?? 200;
      const c = child as ChildProcess | null;
      const killedAt = Date.now();
      if (c) {
        const exited = new Promise((r) => c.once('exit', r));
        c.kill('SIGKILL');
        await exited;
      }
      await sleep(down);
      await start();
      const t = Date.now();
      while (!(await connected()) && Date.now() - t < 45_000) await sleep(25);
      const ms = Date.now() - t;
      times.push(ms);
      loads.push(os.loadavg()[0] ?? 0);
      console.log(`restart ${i + 1}/${N}: down ${down} ms -> back ${ms} ms after listening (load ${os.loadavg()[0]?.toFixed(2)})`);
      if (ms > SLOW_MS) {
        const w = await (await launched.browser.waitForTarget((x) => x.type() === 'service_worker')).worker();
        const log = (await w?.evaluate(() => (globalThis as { __buxBridgeTries?: unknown }).__buxBridgeTries ?? null)) as {
          tries: { at: number }[];
        } | null;
        slow.push({ ms, down, tries: log ? { ...log, tries: log.tries.filter((x) => x.at >= killedAt) } : null });
        console.log(`  worker tries: ${JSON.stringify(slow.at(-1)?.tries)}`);
      }
      await sleep(500);
    }
  } finally {
    for (const b of busy) b.kill('SIGKILL');
    await launched.close();
    (child as ChildProcess | null)?.kill('SIGKILL');
    fs.rmSync(configDir, { recursive: true, force: true });
  }
  const s = summary(times);
  const load = `${Math.min(...loads).toFixed(2)}-${Math.max(...loads).toFixed(2)}`;
  const out = { n: N, down_ms: DOWN, busy: BUSY, load_1min: load, back_ms: s, times, slow, cores: os.cpus().length };
  const dir = path.join(REPO_ROOT, 'bench', 'results');
  fs.writeFileSync(path.join(dir, 'reconnect.json'), `${JSON.stringify(out, null, 2)}\n`);
  fs.writeFileSync(
    path.join(dir, 'reconnect.md'),
    [
      '# Bridge restart -> extension back (bench/reconnect.ts)',
      '',
      `The built CLI bridge killed (SIGKILL) and started again on the same port after ${DOWN.join(' / ')} ms, ${N} times, ` +
        `${BUSY} busy-looping processes beside it; ${os.cpus().length} cores, 1-minute load ${load} during the run.`,
      'Measured from the new bridge answering /healthz to /status saying the extension is connected.',
      '',
      `| n | p50 | p95 | max | slower than ${SLOW_MS} ms |`,
      '|---|---|---|---|---|',
      `| ${N} | ${s.p50} ms | ${s.p95} ms | ${s.max} ms | ${slow.length} |`,
      '',
    ].join('\n'),
  );
  console.log(JSON.stringify({ back_ms: s, load }));
}
void main();
