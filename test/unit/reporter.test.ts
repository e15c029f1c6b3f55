import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RUN_START, countedFailures, exitCodeOf, mergeStatus, type InterfaceResult, type RunSummary } from '../../harness/reporter/summary.ts';
import { renderHtml } from '../../harness/reporter/html.ts';
import { renderRequirementsJunit } from '../../harness/reporter/junit.ts';
import { summaryProblems } from '../../harness/reporter/summary-schema.ts';

test('one failure anywhere fails the requirement; trouble outweighs a pass; a pass needs a check that saw the condition', () => {
  assert.equal(mergeStatus([{ id: 'X', status: 'passed' }, { id: 'X', status: 'failed' }]), 'failed');
  assert.equal(mergeStatus([{ id: 'X', status: 'passed' }, { id: 'X', status: 'inconclusive' }]), 'inconclusive');
  assert.equal(mergeStatus([{ id: 'X', status: 'passed' }, { id: 'X', status: 'flagged' }]), 'flagged');
  assert.equal(mergeStatus([{ id: 'X', status: 'not-tested' }, { id: 'X', status: 'passed' }]), 'passed');
  assert.equal(mergeStatus([{ id: 'X', status: 'not-applicable' }, { id: 'X', status: 'not-tested' }]), 'not-tested');
  assert.equal(mergeStatus([{ id: 'X', status: 'not-applicable' }]), 'not-applicable');
  assert.equal(mergeStatus([]), 'not-tested');
});

type Status = InterfaceResult['requirements'][number]['status'];
const req = (id: string, level: 'must' | 'should' | 'advisory', status: Status, strict = false) => ({
  id, level, status, counted: level === 'must' || (strict && level === 'should'), text: `${id} text`, source: `${id} <source>`, generic: false, observable: true, tests: [], causes: [], failures: [],
});

function iface(reqs: ReturnType<typeof req>[]): InterfaceResult {
  return {
    name: 'chat',
    title: 'Chat',
    spec: { file: 'specs/chat.yaml', sha256: 'ab'.repeat(32), document: 'd.txt', section: 'E' },
    target: { baseUrl: 'http://127.0.0.1:1', reference: true },
    requirements: reqs,
    causes: [],
    notShown: [],
    totals: { passed: 1, failed: 2, inconclusive: 0, 'not-applicable': 0, flagged: 1, 'not-tested': 0 },
    exercised: { applicable: 4, judged: 4, share: 1 },
  };
}

const mixed = iface([req('E-A', 'must', 'failed'), req('E-B', 'should', 'failed'), req('E-C', 'advisory', 'flagged'), req('E-D', 'must', 'passed')]);

test('the exit code counts failed musts, and failed shoulds only under --strict; advisories never', () => {
  assert.deepEqual(countedFailures([mixed], false), ['E-A']);
  assert.deepEqual(countedFailures([mixed], true), ['E-A', 'E-B']);
  assert.equal(exitCodeOf([mixed], false).code, 1);
});

test('a knock-on of another failure is shown, never counted: the exit code and its reason follow the cause', () => {
  const knockOn = { ...req('E-K', 'must', 'failed'), knockOnOf: ['E-B'] };
  const strictRun = exitCodeOf([iface([req('E-B', 'should', 'failed', true), knockOn])], true);
  assert.equal(strictRun.code, 1);
  assert.match(strictRun.reason, /failed: E-B; knock-ons of those, not counted: E-K/);
  assert.deepEqual(countedFailures([iface([req('E-B', 'should', 'failed'), knockOn])], false), []);
  assert.equal(exitCodeOf([iface([req('E-B', 'should', 'failed'), knockOn, req('E-D', 'must', 'passed')])], false).code, 0);
});

test('exit 2 when a counted requirement is undecided or nothing was judged; 0 when all judged pass', () => {
  assert.equal(exitCodeOf([iface([req('E-A', 'must', 'inconclusive'), req('E-D', 'must', 'passed')])], false).code, 2);
  assert.equal(exitCodeOf([iface([req('E-A', 'should', 'inconclusive'), req('E-D', 'must', 'passed')])], false).code, 0);
  assert.equal(exitCodeOf([iface([req('E-A', 'must', 'not-tested'), req('E-D', 'must', 'not-applicable')])], false).code, 2);
  assert.equal(exitCodeOf([], false).code, 2);
  assert.equal(exitCodeOf([iface([req('E-A', 'must', 'not-tested'), req('E-D', 'must', 'passed')])], false).code, 0);
});

test('a check that broke, or a run that could not start, exits 2 whatever level it claims; a counted failure still exits 1', () => {
  const passing = iface([req('E-A', 'should', 'inconclusive'), req('E-D', 'must', 'passed')]);
  const crashed = exitCodeOf([passing], false, { broken: [{ test: 'chat › body', error: 'TypeError: x is undefined\n  at …' }] });
  assert.equal(crashed.code, 2);
  assert.match(crashed.reason, /1 check broke .*chat › body: TypeError: x is undefined/);
  const unstarted = exitCodeOf([], false, { broken: [{ test: RUN_START, error: '\nSyntaxError: Unexpected token\nat suites/chat/x.spec.ts:1:9' }] });
  assert.deepEqual(unstarted, { code: 2, reason: 'the run could not start: SyntaxError: Unexpected token' });
  assert.equal(exitCodeOf([iface([req('E-A', 'must', 'failed')])], false, { broken: [{ test: 'chat › body', error: 'x' }] }).code, 1);
});

function summaryOf(i: InterfaceResult, strict: boolean, over: Partial<RunSummary> = {}): RunSummary {
  const exit = exitCodeOf([i], strict);
  return {
    schemaVersion: 2, runId: 'run-1', harness: { name: 'h', version: '1' }, startedAt: '2026-11-24T00:00:00.000Z', finishedAt: '2026-11-24T00:00:01.000Z', durationMs: 1000,
    profile: { name: 'p', file: 'f', writes: false }, seed: 1, depth: 'default', strict,
    interfaces: [i], notes: [], writes: [], properties: [], failedCounted: countedFailures([i], strict), inconclusiveCounted: [],
    exitCode: exit.code, exitReason: exit.reason, verdict: exit.code === 0 ? 'passed' : 'failed', brokenTests: [], timing: [], ...over,
  };
}

test('the HTML report escapes what it shows and marks each requirement with its verdict', () => {
  const html = renderHtml(summaryOf(mixed, false, { profile: { name: '<script>alert(1)</script>', file: 'f', writes: false } }));
  assert.match(html, /data-requirement="E-A" data-status="failed"/);
  assert.match(html, /data-requirement="E-C" data-status="flagged"/);
  assert.ok(!html.includes('<script>') && html.includes('&lt;script&gt;alert(1)'), 'profile name escaped');
  assert.ok(html.includes('E-A &lt;source&gt;'), 'sources escaped');
});

test('writes are grouped by operation, and one accepted although writes are forbidden is flagged', () => {
  const writes = [
    { interfaceName: 'game-bridge', operation: 'POST /v2/log', what: 'one console line' },
    { interfaceName: 'game-bridge', operation: 'POST /v2/log', what: 'one console line', acceptedWhileForbidden: true as const },
    { interfaceName: 'game-bridge', operation: 'POST /v2/log', what: 'one console line', outcome: 'refused' as const },
  ];
  const html = renderHtml(summaryOf(mixed, false, { writes }));
  assert.match(html, /data-write="game-bridge POST \/v2\/log"><td><code>game-bridge POST \/v2\/log<\/code><\/td><td>3 \(2 accepted, 1 refused\)<\/td>/);
  assert.match(html, /1 accepted although writes are forbidden/);
  // A write answered neither way (a 5xx, a 429, no answer) claims neither: its effect is unknown.
  const unknown = renderHtml(summaryOf(mixed, false, { writes: [...writes, { interfaceName: 'game-bridge', operation: 'POST /v2/log', what: 'one console line', outcome: 'other' as const }] }));
  assert.match(unknown, /4 \(2 accepted, 1 refused, 1 of unknown effect/);
});

test('the per-requirement JUnit file fails exactly what the exit code counts; a should of a non-strict run is skipped', () => {
  for (const strict of [false, true]) {
    const i = iface([req('E-A', 'must', 'failed', strict), req('E-B', 'should', 'failed', strict), req('E-C', 'advisory', 'flagged', strict), req('E-D', 'must', 'passed', strict)]);
    const s = summaryOf(i, strict);
    const xml = renderRequirementsJunit(s);
    assert.equal((xml.match(/<failure /g) ?? []).length, s.failedCounted.length, `strict ${strict}`);
    assert.equal((xml.match(/<testcase /g) ?? []).length, 4);
  }
  assert.match(renderRequirementsJunit(summaryOf(mixed, false)), /E-B \(should\)[^\n]*<skipped message="should failed, not counted/);
});

test('a summary the reporter writes fits the published schema; one with a field missing does not', () => {
  const s = summaryOf(mixed, false);
  assert.deepEqual(summaryProblems(s), []);
  const { exitCode: _gone, ...without } = s;
  assert.ok(summaryProblems(without).length > 0);
});

test('the coverage table shows every operation of the spec: reached or not, the statuses seen and the documented ones never seen', () => {
  const operations = [
    { operation: 'GET /v2/status', exercised: true, statuses: [200, 401], unseen: ['403'], tests: ['reads'] },
    { operation: 'POST /v2/log', exercised: false, statuses: [], unseen: ['200', '400'], tests: [] },
  ];
  const html = renderHtml(summaryOf({ ...mixed, operations }, false));
  assert.match(html, /1 of the 2 operations of the spec were reached/);
  assert.match(html, /data-operation="GET \/v2\/status"><td><code>GET \/v2\/status<\/code><\/td><td>yes<\/td><td>200, 401<\/td><td>403<\/td>/);
  assert.match(html, /data-operation="POST \/v2\/log"><td><code>POST \/v2\/log<\/code><\/td><td><b>no<\/b><\/td>/);
});

test('--min-coverage fails a passing run that judged too little of an interface, and leaves a failed run as it is', async () => {
  const { withCoverageGate } = await import('../../harness/after-run.ts');
  const low = { ...mixed, exercised: { applicable: 10, judged: 7, share: 0.7 } };
  const passing = { ...summaryOf(low, false), exitCode: 0 as const, verdict: 'passed' as const };
  const gated = withCoverageGate(passing, 0.8);
  assert.equal(gated.exitCode, 1);
  assert.match(gated.exitReason, /coverage below the 80% that --min-coverage asks: .* judged 70%/);
  assert.equal(withCoverageGate(passing, 0.7).exitCode, 0);
  const failing = { ...passing, exitCode: 2 as const };
  assert.equal(withCoverageGate(failing, 0.8).exitCode, 2);
});

test('a --grep run that judged part of what applies says so, with how much and how to judge the rest', () => {
  const partial = exitCodeOf([iface([req('E-A', 'must', 'passed'), req('E-B', 'must', 'not-tested'), req('E-C', 'must', 'not-tested'), req('E-D', 'must', 'not-applicable')])], false, { grep: 'limit' });
  assert.equal(partial.code, 0);
  assert.match(partial.reason, /partial: --grep "limit" judged 1 of the 3 requirements that apply; drop --grep to judge the rest/);
  const whole = exitCodeOf([iface([req('E-A', 'must', 'passed'), req('E-D', 'must', 'not-applicable')])], false, { grep: 'limit' });
  assert.doesNotMatch(whole.reason, /partial/);
});

test('a run that judged nothing names what happened instead of blaming --grep', () => {
  const serverErrors = { ...req('E-A', 'should', 'inconclusive'), message: 'the order (GET /orders) was answered 500, a server error: not a verdict on this rule (GEN-NO-5XX judges it)' };
  const undecided = exitCodeOf([iface([serverErrors, req('E-B', 'must', 'not-tested')])], false);
  assert.equal(undecided.code, 2);
  assert.match(undecided.reason, /nothing could be judged; first cause: .*answered 500, a server error/);
  assert.doesNotMatch(undecided.reason, /--grep/);
  assert.match(exitCodeOf([iface([req('E-B', 'must', 'not-tested')])], false, { grep: 'nothing' }).reason, /does --grep "nothing" match any test/);
});

test('an operation is exercised only where the API answered it: a throttle, a 5xx, a redirect or no answer reaches nothing', async () => {
  const { operationCoverage } = await import('../../harness/reporter/coverage.ts');
  const op = (key: string) => ({ key, method: key.split(' ')[0], path: key.split(' ')[1], responses: { '200': { status: '200', headers: {} } } }) as never;
  const rows = operationCoverage([op('GET /a'), op('GET /b'), op('GET /c')], [
    { test: 'one', operations: { 'GET /a': [429, 503, 0, 302] } },
    { test: 'two', operations: { 'GET /b': [429, 404] } },
  ]);
  assert.deepEqual(rows.map((r) => [r.operation, r.exercised, r.tests]), [['GET /a', false, ['one']], ['GET /b', true, ['two']], ['GET /c', false, []]]);
});
