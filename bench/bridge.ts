// node --import tsx bench/bridge.ts — what the bridge itself costs, with a fake extension that
// answers at once (no browser): the handshake (the HMAC challenge, two HMACs each side), one relayed
// action round trip (agent -> bridge -> extension -> bridge -> agent, validated at every hop)
// beside a bare ws echo round trip on the same machine, and 4 agents on 4 tabs in parallel.
// Not a timed test. Writes bench/results/bridge.json and bench/results/bridge.md. BENCH_RUNS sets
// runs. Percentiles: bench/stats.ts (nearest rank), rounded to the microsecond.
import fs from 'node:fs';
import path from 'node:path';

import { WebSocketServer } from 'ws';
import WebSocket from 'ws';

import { createBridge } from '../bridge/cli/wire';
import { AgentClient } from '../bridge/client/agent-client';
import { createLogger } from '../bridge/common/log';
import type { ActionMessage } from '../schemas/generated/protocol';
import { RawPeer } from '../test/bridge/raw-peer';
import { REPO_ROOT } from '../test/harness/browser';
import { roundTo, summary as stats } from './stats';

const RUNS = Number(process.env['BENCH_RUNS'] ?? 500);
const OUT = path.join(REPO_ROOT, 'bench', 'results');
const summary = (xs: number[]) => {
  const s = stats(xs);
  return { n: s.n, p50_ms: roundTo(s.p50, 3), p95_ms: roundTo(s.p95, 3), max_ms: roundTo(s.max, 3) };
};

const bridge = createBridge({ port: 0, logger: createLogger('silent') });
await bridge.start();
const ext = await RawPeer.hello(bridge.extensionUrl, 'extension', { secret: bridge.secrets.extension_secret });
ext.ws.on('message', (d) => {
  const m = JSON.parse(d.toString()) as ActionMessage;
  if (m.type !== 'action') return;
  ext.send({
    type: 'action_result',
    original_action_id: m.action_id,
    action: m.action,
    tab_id: m.tab_id ?? 1,
    status: 'success',
    outcome_details: { message: 'ok' },
    new_simplified_state: null,
    error_info: null,
  });
});

const handshakes: number[] = [];
for (let i = 0; i < Math.min(RUNS, 100); i++) {
  const t0 = performance.now();
  const c = await AgentClient.connect({ url: bridge.agentUrl, secret: bridge.secrets.agent_secret });
  handshakes.push(performance.now() - t0);
  await c.close();
}

const agent = await AgentClient.connect({ url: bridge.agentUrl, secret: bridge.secrets.agent_secret });
const relay: number[] = [];
for (let i = 0; i < RUNS; i++) {
  const t0 = performance.now();
  await agent.call('get_state', {}, { tabId: 1 });
  relay.push(performance.now() - t0);
}

// Baseline: a bare ws echo (one hop each way, no validation).
const echo = new WebSocketServer({ port: 0, host: '127.0.0.1' });
await new Promise((r) => echo.once('listening', r));
echo.on('connection', (ws) => ws.on('message', (d) => ws.send(d.toString())));
const port = (echo.address() as { port: number }).port;
const raw = new WebSocket(`ws://127.0.0.1:${port}`);
await new Promise((r) => raw.once('open', r));
const bare: number[] = [];
for (let i = 0; i < RUNS; i++) {
  const t0 = performance.now();
  await new Promise<void>((r) => {
    raw.once('message', () => r());
    raw.send(JSON.stringify({ type: 'action', action_id: `x${i}`, action: 'get_state', params: {} }));
  });
  bare.push(performance.now() - t0);
}

// 4 agents, each on its own tab, all at once.
const agents = await Promise.all(
  [1, 2, 3, 4].map(() => AgentClient.connect({ url: bridge.agentUrl, secret: bridge.secrets.agent_secret })),
);
const t0 = performance.now();
await Promise.all(
  agents.map(async (a, i) => {
    for (let k = 0; k < RUNS / 4; k++) await a.call('get_state', {}, { tabId: 10 + i });
  }),
);
const parallelMs = performance.now() - t0;

const results = {
  runs: RUNS,
  handshake: summary(handshakes),
  relayed_action_round_trip: summary(relay),
  bare_ws_echo_round_trip: summary(bare),
  four_agents_parallel: {
    actions: RUNS,
    total_ms: Number(parallelMs.toFixed(1)),
    actions_per_s: Math.round((RUNS / parallelMs) * 1000),
  },
  machine: 'shared 2-core box, other engineers running tests',
};
fs.mkdirSync(OUT, { recursive: true });
fs.writeFileSync(path.join(OUT, 'bridge.json'), JSON.stringify(results, null, 2) + '\n');
const row = (name: string, s: ReturnType<typeof summary>) => `| ${name} | ${s.n} | ${s.p50_ms} | ${s.p95_ms} | ${s.max_ms} |`;
fs.writeFileSync(
  path.join(OUT, 'bridge.md'),
  [
    '# Bridge overhead (fake extension, no browser)',
    '',
    '| series | n | p50 ms | p95 ms | max ms |',
    '|---|---|---|---|---|',
    row('handshake (connect + HMAC challenge + hello_ack)', results.handshake),
    row(
      'relayed action round trip (2 hops each way, 2 validations: each message checked once, on receive)',
      results.relayed_action_round_trip,
    ),
    row('bare ws echo round trip (baseline)', results.bare_ws_echo_round_trip),
    '',
    `4 agents on 4 tabs in parallel: ${RUNS} actions in ${results.four_agents_parallel.total_ms} ms ` +
      `(${results.four_agents_parallel.actions_per_s} actions/s).`,
    '',
  ].join('\n'),
);
console.log(JSON.stringify(results, null, 2));
for (const a of [agent, ...agents]) await a.close();
raw.close();
echo.close();
ext.close();
await bridge.close();
