// A plain Chromium (no extension) with its own DevTools endpoint (--remote-debugging-port=0): the
// side-by-side baseline for CDP clients, and the real browser behind test/harness/cdp-recorder.ts.
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';

import { CHROMIUM_PATH } from './browser';

export interface CdpChromium {
  /** http://127.0.0.1:<port>: what a client is given as cdp_url / browserURL. */
  httpUrl: string;
  /** ws://127.0.0.1:<port>/devtools/browser/<id> */
  wsUrl: string;
  close(): Promise<void>;
}

export async function launchCdpChromium(opts: { headless?: boolean } = {}): Promise<CdpChromium> {
  if (!fs.existsSync(CHROMIUM_PATH)) {
    throw new Error(`No Chromium at ${CHROMIUM_PATH}. Install it (apt-get install -y chromium) or set CHROMIUM_PATH.`);
  }
  const profileDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bux-cdp-'));
  const args = [
    '--remote-debugging-port=0',
    `--user-data-dir=${profileDir}`,
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--no-default-browser-check',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    ...(opts.headless === false ? [] : ['--headless=new']),
    'about:blank',
  ];
  const proc: ChildProcess = spawn(CHROMIUM_PATH, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  const wsUrl = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('Chromium did not print its DevTools address within 30 s')), 30_000);
    readline.createInterface({ input: proc.stderr! }).on('line', (line) => {
      const m = /DevTools listening on (ws:\/\/\S+)/.exec(line);
      if (m?.[1]) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    proc.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`Chromium exited with ${code} before it printed its DevTools address`));
    });
  });
  proc.stderr!.resume();
  return {
    httpUrl: `http://${new URL(wsUrl).host}`,
    wsUrl,
    async close() {
      if (proc.exitCode === null && proc.signalCode === null) {
        const exited = new Promise<void>((r) => proc.once('exit', () => r()));
        proc.kill();
        await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
        if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGKILL');
      }
      await removeProfile(profileDir);
    },
  };
}

/**
 * Removes a plain Chromium's temp profile. Its helper processes may still be writing to it for a
 * while after it exits (seconds on a loaded machine): keep trying, and never fail a test over a temp folder.
 */
export async function removeProfile(profileDir: string): Promise<void> {
  for (let i = 0; ; i++) {
    try {
      fs.rmSync(profileDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
      return;
    } catch (e) {
      if (i >= 10) {
        process.stderr.write(`could not remove Chromium's temp profile ${profileDir}: ${String(e)}\n`);
        return;
      }
      await new Promise((r) => setTimeout(r, 500));
    }
  }
}
