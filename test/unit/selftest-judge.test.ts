import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { RunSummary } from '../../harness/reporter/summary.ts';
import { checkName, consistency, judgeFault, judgeSharedFaultRun, judgeValid, neverFlagged, pairKey, unproven, waysCompared, type Pair } from '../../scripts/selftest-judge.ts';

type Req = RunSummary['interfaces'][number]['requirements'][number];

function req(id: string, status: Req['status'], tests: string[] = []): Req {
  return {
    id, level: 'must', text: id, source: id, generic: false, observable: true, status, counted: true, tests, causes: [],
    failures: status === 'failed' ? tests.map((t) => ({ test: t, message: 'm', replay: 'r', cause: 'c' })) : [],
  };
}

function summary(reqs: Req[], over: Partial<RunSummary> = {}): RunSummary {
  const failed = reqs.filter((r) => r.status === 'failed').map((r) => r.id);
  return {
    schemaVersion: 2, runId: 'r', harness: { name: 'h', version: '1' }, startedAt: '', finishedAt: '', durationMs: 0,
    profile: { name: 'p', file: 'f', writes: true }, seed: 1, depth: 'default', strict: true,
    interfaces: [{ name: 'game-bridge', title: '', spec: { file: '', sha256: '', document: '', section: '' }, requirements: reqs, causes: [], notShown: [], totals: { passed: 0, failed: 0, inconclusive: 0, 'not-tested': 0, 'not-applicable': 0, flagged: 0 }, exercised: { applicable: 0, judged: 0, share: 0 } }],
    notes: [], writes: [], properties: [], failedCounted: failed, inconclusiveCounted: [], exitCode: failed.length ? 1 : 0, exitReason: 'x',
    verdict: failed.length ? 'failed' : 'passed', brokenTests: [], timing: [], ...over,
  };
}

const fault = { name: 'f', description: 'd', violates: ['C-A'], collateral: ['C-B'] };

test('a fault is detected when what it names fails, and it proves the (check, requirement) pairs that failed', () => {
  const r = judgeFault(fault, 1, summary([req('C-A', 'failed', ['table rows']), req('C-B', 'passed')]));
  assert.equal(r.problem, undefined);
  assert.deepEqual(r.proves, [{ interfaceName: 'game-bridge', check: 'table rows', requirement: 'C-A' }]);
});

test('a check that broke is not a detection, even when the requirement it claims shows failed', () => {
  // The mutation of the issue: an assertion removed and a stray exception added.
  const s = summary([req('C-A', 'failed', ['table rows'])], { brokenTests: [{ test: 'game-bridge › tps', error: 'TypeError: x is undefined' }] });
  assert.match(judgeFault(fault, 1, s).problem ?? '', /broke/);
  assert.match(judgeFault(fault, 2, summary([req('C-A', 'inconclusive')])).problem ?? '', /inconclusive/);
});

test('a requirement that fails outside the fault\'s catalogue entry fails the self-test (wrong blame)', () => {
  const r = judgeFault(fault, 1, summary([req('C-A', 'failed', ['t']), req('C-C', 'failed', ['t'])]));
  assert.match(r.problem ?? '', /does not name: C-C/);
});

test('a fault whose named requirement does not fail survived', () => {
  assert.match(judgeFault(fault, 0, summary([req('C-A', 'passed')])).problem ?? '', /survived: C-A/);
});

test('a check made unable to fail leaves its pairs unproven, even when another check covers the same ids', () => {
  // The mutation of the issue: the table-rows test can no longer fail; the property still fails C-A.
  const claimed: Pair[] = [
    { interfaceName: 'game-bridge', check: 'property', requirement: 'C-A' },
    { interfaceName: 'game-bridge', check: 'table rows', requirement: 'C-A' },
  ];
  const proven = judgeFault(fault, 1, summary([req('C-A', 'failed', ['property'])])).proves;
  assert.deepEqual(unproven(claimed, proven).map(pairKey), ['game-bridge › table rows › C-A']);
});

test('parts of one check share its name; a valid configuration must pass cleanly; files agree with the exit code', () => {
  assert.equal(checkName('generated schedules (part a)'), 'generated schedules');
  assert.equal(judgeValid(0, summary([req('C-A', 'passed')])), undefined);
  assert.match(judgeValid(2, summary([req('C-A', 'inconclusive')], { exitCode: 2 })) ?? '', /clean pass/);
  // An advisory is shown flagged by any valid run (the default, or a reading that takes the risky choice).
  assert.deepEqual(neverFlagged(['C-ADV', 'C-ADV2'], [summary([req('C-A', 'passed')]), summary([req('C-ADV', 'flagged')])]), ['C-ADV2']);
  assert.equal(consistency(1, summary([req('C-A', 'failed', ['t'])]), 1, []), undefined);
  assert.match(consistency(1, summary([req('C-A', 'failed', ['t'])]), 0, []) ?? '', /junit/);
  assert.match(consistency(0, summary([req('C-A', 'failed', ['t'])]), 1, []) ?? '', /exited 0/);
});

test('in a fault run shared by two interfaces, an undetected fault unproves only its own checks', () => {
  const bridge = summary([req('C-A', 'failed', ['table rows'])]).interfaces[0];
  const chat = { ...bridge, name: 'chat', requirements: [req('E-A', 'passed', ['limit'])] };
  const s = summary([], { interfaces: [bridge, chat], exitCode: 1, failedCounted: ['C-A'] });
  const r = judgeSharedFaultRun(
    [
      { interfaceName: 'game-bridge', fault },
      { interfaceName: 'chat', fault: { name: 'g', description: 'd', violates: ['E-A'] } },
    ],
    1,
    s,
  );
  assert.match(r.problem ?? '', /chat:g: survived: E-A/);
  assert.doesNotMatch(r.problem ?? '', /game-bridge/);
  assert.deepEqual(r.proves, [{ interfaceName: 'game-bridge', check: 'table rows', requirement: 'C-A' }]);
});

test('a fault that refuses a refusal check\'s control too must leave that check undecided, never passed', () => {
  const control = { name: 'orders-refused', description: 'd', violates: [], undecided: ['C-A'] };
  assert.match(judgeFault(control, 0, summary([req('C-A', 'passed', ['range'])])).problem ?? '', /passed although the fault refuses their controls too: C-A/);
  assert.equal(judgeFault(control, 0, summary([req('C-A', 'not-tested')])).problem, undefined);
  assert.equal(judgeFault(control, 2, summary([req('C-A', 'inconclusive')])).problem, undefined);
  assert.match(judgeFault(control, 1, summary([req('C-A', 'not-tested'), req('C-B', 'failed', ['x'])])).problem ?? '', /blames requirements although the fault breaks none: C-B/);
});

test('two faults of one reference in one run: each must fail what it names, and neither may blame what neither names', () => {
  const a = { name: 'a', description: 'd', violates: ['C-A'], part: 'market' };
  const b = { name: 'b', description: 'd', violates: ['C-B'], part: 'funds' };
  const both = (reqs: Req[], failed: string[]) => judgeSharedFaultRun([{ interfaceName: 'game-bridge', fault: a }, { interfaceName: 'game-bridge', fault: b }], 1, summary(reqs, { exitCode: 1, failedCounted: failed }));
  assert.equal(both([req('C-A', 'failed', ['x']), req('C-B', 'failed', ['y'])], ['C-A', 'C-B']).problem, undefined);
  assert.match(both([req('C-A', 'failed', ['x']), req('C-B', 'passed', ['y'])], ['C-A']).problem ?? '', /game-bridge:a\+b: survived: C-B/);
  assert.match(both([req('C-A', 'failed', ['x']), req('C-B', 'failed', ['y']), req('C-C', 'failed', ['z'])], ['C-A', 'C-B', 'C-C']).problem ?? '', /does not name: C-C/);
});

test('a grouped run differs from its run alone only where the two alone runs agree; what moved between them is noise', () => {
  const grouped = summary([req('C-A', 'failed', ['t']), req('C-B', 'passed'), req('C-C', 'passed')]);
  const alone = summary([req('C-A', 'failed', ['t']), req('C-B', 'not-tested'), req('C-C', 'passed')]);
  const again = summary([req('C-A', 'failed', ['t']), req('C-B', 'passed'), req('C-C', 'passed')]);
  const same = waysCompared(grouped, alone, again);
  assert.deepEqual(same.differ, []);
  assert.deepEqual(same.noise, ['game-bridge C-B: not-tested (counted) alone, passed (counted) alone again (passed (counted) grouped)']);
  assert.equal(same.compared, 4, 'three requirements and the exit code');
  const changed = waysCompared(summary([req('C-A', 'passed'), req('C-B', 'passed'), req('C-C', 'passed')]), alone, again);
  assert.deepEqual(changed.differ, ['game-bridge C-A: passed (counted) grouped, failed (counted) alone twice', 'exit code: 0 grouped, 1 alone twice']);
});
