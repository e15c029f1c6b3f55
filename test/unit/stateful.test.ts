import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { runProperty } from '../../harness/property.ts';
import { commandProperty, eventually, type Step } from '../../harness/stateful.ts';
import { RequirementViolation } from '../../harness/verdicts.ts';

/** A toy nonce rule: each request of a key carries a nonce greater than the last one accepted, else it is refused. */
class NonceServer {
  private last = new Map<string, number>();
  constructor(private readonly acceptsEqual = false) {}
  request(key: string, nonce: number): number {
    const last = this.last.get(key) ?? -1;
    if (nonce < last || (nonce === last && !this.acceptsEqual)) return 400;
    this.last.set(key, nonce);
    return 200;
  }
}

interface Model {
  last: number;
}
interface Real {
  server: NonceServer;
  key: string;
}

const send = (delta: number): Step<Model, Real> => ({
  describe: () => `request with nonce last${delta >= 0 ? '+' : ''}${delta}`,
  testing: ['T-NONCE'],
  applies: () => true,
  run: async (m, r, saw) => {
    const nonce = m.last + delta;
    const status = r.server.request(r.key, nonce);
    const expected = nonce > m.last ? 200 : 400;
    if (status !== expected) throw new RequirementViolation('T-NONCE', `nonce ${nonce} after ${m.last}: ${status}`, String(expected));
    saw('T-NONCE');
    if (status === 200) m.last = nonce;
  },
});

function nonceProperty(server: () => NonceServer) {
  let keys = 0;
  return commandProperty<Model, Real>({
    id: 'toy-nonces',
    requirements: ['T-NONCE'],
    runs: 50,
    steps: [fc.integer({ min: -2, max: 3 }).map(send)],
    // A fresh key per case: cases never share a nonce sequence.
    setup: () => ({ model: { last: -1 }, real: { server: server(), key: `k${keys++}` } }),
  });
}

test('a command sequence against a conforming target passes and sees its condition', async () => {
  const p = nonceProperty(() => new NonceServer());
  const seen = new Set<string>();
  const run = await runProperty(p.id, p.arbitrary, (v) => p.check(v, new Set(), (id) => seen.add(id)), p.runs);
  assert.equal(run.failed, false);
  assert.ok(seen.has('T-NONCE'));
});

test('a deviation names its requirement and shrinks to the shortest sequence that shows it', async () => {
  const shared = new NonceServer(true);
  const p = nonceProperty(() => shared);
  const run = await runProperty(p.id, p.arbitrary, (v) => p.check(v, new Set(), () => {}), p.runs);
  assert.equal(run.failed, true);
  assert.ok(run.error instanceof RequirementViolation && run.error.requirement === 'T-NONCE');
  // The counterexample prints the steps that ran before the failure.
  assert.equal(String(run.counterexample).replace(/ \/\*replayPath=.*\*\/$/, ''), 'request with nonce last+0');
  assert.deepEqual(p.testing(run.counterexample!), ['T-NONCE']);
});

test('a deviation of a requirement already set aside does not fail the case again', async () => {
  const p = nonceProperty(() => new NonceServer(true));
  const run = await runProperty(p.id, p.arbitrary, (v) => p.check(v, new Set(['T-NONCE']), () => {}), p.runs);
  assert.equal(run.failed, false);
});

test('eventually: waits, bounded, and reports how long', async () => {
  const t0 = Date.now();
  const ok = await eventually({ requirement: 'T-Q', what: 'the event is queryable', probe: async () => Date.now() - t0 > 250, accept: (v) => v, withinMs: 3000, firstPauseMs: 50 });
  assert.ok(ok.waitedMs >= 250 && ok.attempts > 1);
  await assert.rejects(
    eventually({ requirement: 'T-Q', what: 'the event is queryable', probe: async () => 'missing', accept: (v) => v === 'found', withinMs: 300, firstPauseMs: 50 }),
    (e: unknown) => e instanceof RequirementViolation && e.requirement === 'T-Q' && /last answer: "missing"/.test(e.message),
  );
});
