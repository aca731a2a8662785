// Prints random (base, delta, next) triples as JSON, computed by schemas/lib/state-delta.ts, for the
// Python twin's test (python-shim-spec/tests/test_state_delta.py): both must build the same state.
// Usage: node --import tsx test/harness/state-delta-cases.ts [count]
import { diffStates } from '../../schemas/lib/state-delta';
import { mutate, randomState, rng } from './random-states';

const count = Number(process.argv[2] ?? 200);
const cases: unknown[] = [];
for (let seed = 1; seed <= count; seed++) {
  const r = rng(seed * 7919);
  const withTree = seed % 2 === 0;
  const base = randomState(r, withTree);
  const next = mutate(r, base, withTree);
  const d = diffStates(base.s, next, base.s.state_id as string, `n${seed}`);
  if (!d.ok) throw new Error(`seed ${seed}: ${d.message}`);
  cases.push({ seed, base: base.s, delta: d.delta, next: { ...next, state_id: `n${seed}` } });
}
process.stdout.write(JSON.stringify(cases));
