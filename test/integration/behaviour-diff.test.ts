/**
 * The behaviour diff (issue 25), on the game-bridge reference at one seed: against a second target (--compare), which
 * runs twice to measure its own noise, and against a recording of an earlier run (--compare-recording). Two correct
 * readings differ exactly on the open point flipped; a seeded fault shows where the document rules (no open point); a
 * deployment whose answers carry a random member shows it as noise with its rate, not as a difference; a recording
 * compared at another seed shows nothing but a fault. A difference changes the exit code only under --fail-on-diff, with a reason
 * of its own, and a waiver covers it.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { makeAjv } from '../../harness/validation/ajv.ts';
import type { DiffReport } from '../../harness/diff/diff-run.ts';
import { ROOT } from '../../harness/paths.ts';
import { conformance, freshDir } from './helpers.ts';

const validate = makeAjv().compile(JSON.parse(readFileSync(path.join(ROOT, 'schemas', 'diff.schema.json'), 'utf8')));
const diffOf = (reports: string) => {
  const d = JSON.parse(readFileSync(path.join(reports, 'diff.json'), 'utf8')) as DiffReport;
  assert.ok(validate(d), `diff.json against schemas/diff.schema.json: ${JSON.stringify(validate.errors)}`);
  return d;
};
const points = (d: DiffReport) => [...new Set(d.differences.flatMap((r) => r.openPoints))].sort();
const BRIDGE = ['--interfaces', 'game-bridge', '--seed', '7'];
const REFERENCE = path.join(ROOT, 'targets', 'reference.yaml');

describe('two targets, one run (--compare)', () => {
  test('the same reference on both sides differs nowhere; both verdicts are kept', { timeout: 120_000 }, async () => {
    const r = await conformance([...BRIDGE, '--compare', REFERENCE]);
    assert.equal(r.code, 0, r.out);
    assert.match(r.out, /behaviour diff against .*: no difference in \d+ cases/);
    assert.ok(existsSync(path.join(r.reports, 'compare', 'baseline', 'summary.json')), "the baseline's verdicts are a report of their own");
    assert.deepEqual(diffOf(r.reports).differences, []);
    assert.match(readFileSync(path.join(r.reports, 'conformance', 'index.html'), 'utf8'), /<h2>Behaviour diff<\/h2>/);
  });

  test('a reading flipped on the candidate differs on that open point and nothing else', { timeout: 120_000 }, async () => {
    for (const flip of ['C-NS-CHECK-ORDER=body-first', 'C-NS-MESSAGE-TYPE=refused-422']) {
      const r = await conformance([...BRIDGE, '--compare', REFERENCE, '--readings', flip]);
      assert.equal(r.code, 0, r.out);
      const d = diffOf(r.reports);
      assert.ok(d.differences.length > 0, `${flip}: the diff shows the reading`);
      assert.deepEqual(points(d), [flip.split('=')[0]], `${flip}: ${JSON.stringify(d.differences.map((x) => [x.kind, x.operation, x.openPoints]))}`);
      assert.ok(d.differences.every((x) => x.openPoints.length === 1), 'every difference is named by that point');
    }
  });

  test('a seeded fault differs where the document rules, on its requirement, side by side', { timeout: 120_000 }, async () => {
    const r = await conformance([...BRIDGE, '--compare', REFERENCE, '--fault', 'game-bridge:success-text-plain']);
    assert.equal(r.code, 1, r.out);
    const d = diffOf(r.reports);
    const status = d.differences.find((x) => x.operation === 'GET /v2/status' && x.kind === 'headers');
    assert.ok(status, JSON.stringify(d.differences.map((x) => [x.kind, x.operation])));
    assert.deepEqual(status.openPoints, [], 'no open point: the document rules the media type');
    assert.ok(status.requirements.includes('C-GEN-CONTENT-TYPE'), status.requirements.join(', '));
    assert.match(status.samples[0]!.detail, /content-type: application\/json against text\/plain/);
    assert.ok(status.samples[0]!.baseline && status.samples[0]!.candidate, 'both sides of the case are shown');
  });

  test('a random member in every other answer is measured as noise, with its rate, and is no difference', { timeout: 120_000 }, async () => {
    const noisy = path.join(freshDir('noisy'), 'noisy.yaml');
    writeFileSync(noisy, readFileSync(REFERENCE, 'utf8').replace(/reference: \{ game: "([^"]+)", version: "([^"]+)" \}/, 'reference: { game: "$1", version: "$2", noise: true }'));
    const r = await conformance([...BRIDGE, '--target', noisy, '--compare', noisy]);
    const d = diffOf(r.reports);
    assert.deepEqual(d.differences, [], r.out.slice(-2000));
    const jitter = d.noise.measured.find((n) => n.key === 'member:jitter');
    assert.ok(jitter && jitter.rate > 0.2 && jitter.rate < 0.9, JSON.stringify(d.noise.measured));
    assert.match(r.out, /noise measured: game-bridge member:jitter \d+%/);
  });

  test('--fail-on-diff fails the run on a difference it names, with its own reason; a waiver covers it; a name no spec has is refused', { timeout: 180_000 }, async () => {
    const flipped = [...BRIDGE, '--compare', REFERENCE, '--readings', 'C-NS-MESSAGE-TYPE=refused-422'];
    const gated = await conformance([...flipped, '--fail-on-diff', 'C-NS-MESSAGE-TYPE']);
    assert.equal(gated.code, 1, gated.out);
    assert.match(gated.out, /the behaviour diff gate failed: the behaviour differs from the baseline where --fail-on-diff looks: \d+ \w+ on C-NS-MESSAGE-TYPE/);
    assert.equal(diffOf(gated.reports).gate?.failed, true);
    const waivers = path.join(freshDir('waivers'), 'waivers.yaml');
    writeFileSync(waivers, 'differences:\n  - on: C-NS-MESSAGE-TYPE\n    reason: the new validator refuses typed messages (TICKET-1)\n    acceptedBy: qa\n    expires: 2999-12-31\n');
    const waived = await conformance([...flipped, '--fail-on-diff', 'all', '--waivers', waivers]);
    assert.equal(waived.code, 0, waived.out);
    assert.ok(diffOf(waived.reports).differences.every((x) => x.waived?.reason.includes('TICKET-1')));
    const elsewhere = await conformance([...flipped, '--fail-on-diff', 'GET /v2/players']);
    assert.equal(elsewhere.code, 0, `a difference elsewhere than --fail-on-diff looks does not count\n${elsewhere.out}`);
    const unknown = await conformance([...BRIDGE, '--compare', REFERENCE, '--fail-on-diff', 'C-NS-NO-SUCH']);
    assert.equal(unknown.code, 2, unknown.out);
    assert.match(unknown.out, /--fail-on-diff: C-NS-NO-SUCH: not an open point, an operation or an interface of this run/);
  });
});

describe('a run compared with a recording of an earlier one (--compare-recording)', () => {
  let recorded: string;
  before(async () => {
    const r = await conformance([...BRIDGE, '--record-behaviour']);
    assert.equal(r.code, 0, r.out);
    recorded = r.reports;
    assert.ok(existsSync(path.join(recorded, 'behaviour', 'game-bridge.json')), 'the recording is written');
  });

  test('the same reference at the same seed differs nowhere', async () => {
    const r = await conformance([...BRIDGE, '--compare-recording', recorded]);
    assert.equal(r.code, 0, r.out);
    const d = diffOf(r.reports);
    assert.ok(d.cases.compared > 100, `${d.cases.compared} cases`);
    assert.deepEqual(d.differences, []);
  });

  test('at another seed, the classes of cases that do not depend on the seed differ nowhere, and the others are not compared', async () => {
    const r = await conformance(['--interfaces', 'game-bridge', '--seed', '8', '--compare-recording', recorded]);
    assert.equal(r.code, 0, r.out);
    const d = diffOf(r.reports);
    assert.deepEqual(d.differences, []);
    assert.ok((d.cases.unpaired ?? 0) > 0 && d.cases.compared > 10, JSON.stringify(d.cases));
  });

  test('this run measures its own noise against a recording (run twice), and a fault still shows at another seed', async () => {
    const r = await conformance(['--interfaces', 'game-bridge', '--seed', '9', '--compare-recording', recorded, '--fault', 'game-bridge:success-text-plain']);
    const d = diffOf(r.reports);
    assert.equal(d.noiseFrom?.kind, 'candidate-again');
    assert.ok(d.differences.some((x) => x.kind === 'headers' && x.openPoints.length === 0), JSON.stringify(d.differences.map((x) => [x.kind, x.operation, x.openPoints])));
  });

  test('a seeded fault shows where it changed what a client sees, and the exit code stays the verdict', async () => {
    const r = await conformance([...BRIDGE, '--compare-recording', recorded, '--fault', 'game-bridge:success-text-plain']);
    assert.equal(r.code, 1, r.out);
    assert.ok(diffOf(r.reports).differences.some((x) => x.operation === 'GET /v2/status' && x.kind === 'headers'));
  });

  test('a folder without a recording is refused before the run, with a clear line', async () => {
    const r = await conformance(['--interfaces', 'game-bridge', '--compare-recording', path.join(recorded, 'no-such-folder')]);
    assert.equal(r.code, 2, r.out);
    assert.match(r.out, /--compare-recording .*no behaviour recording there/);
  });
});
