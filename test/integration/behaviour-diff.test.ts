/**
 * The behaviour diff against a recording (issue 25, its first part): a run of the game-bridge reference recorded with
 * --record-behaviour, and later runs at the same seed compared with it (--compare-recording). The same reference
 * differs nowhere; a seeded fault shows where it changed what a client sees; the comparison never changes the exit
 * code, which stays the conformance verdict's.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { DiffReport } from '../../harness/diff/diff-run.ts';
import { conformance } from './helpers.ts';

const diffOf = (reports: string) => JSON.parse(readFileSync(path.join(reports, 'diff.json'), 'utf8')) as DiffReport;

describe('a run compared with a recording of an earlier one', () => {
  let recorded: string;
  before(async () => {
    const r = await conformance(['--interfaces', 'game-bridge', '--seed', '7', '--record-behaviour']);
    assert.equal(r.code, 0, r.out);
    recorded = r.reports;
    assert.ok(existsSync(path.join(recorded, 'behaviour', 'game-bridge.json')), 'the recording is written');
  });

  test('the same reference at the same seed differs nowhere', async () => {
    const r = await conformance(['--interfaces', 'game-bridge', '--seed', '7', '--compare-recording', recorded]);
    assert.equal(r.code, 0, r.out);
    assert.match(r.out, /behaviour diff against .*: no difference in \d+ cases/);
    const d = diffOf(r.reports);
    assert.ok(d.cases.compared > 100, `${d.cases.compared} cases`);
    assert.deepEqual(d.differences, []);
  });

  test('a seeded fault shows where it changed what a client sees, and the exit code stays the verdict', async () => {
    // Successful reads answered as text/plain: the media type differs on the status read.
    const r = await conformance(['--interfaces', 'game-bridge', '--seed', '7', '--compare-recording', recorded, '--fault', 'game-bridge:success-text-plain']);
    assert.equal(r.code, 1, r.out);
    const d = diffOf(r.reports);
    const status = d.differences.find((x) => x.operation === 'GET /v2/status' && x.kind === 'headers');
    assert.ok(status, JSON.stringify(d.differences.map((x) => [x.kind, x.operation])));
    assert.match(status.samples[0]!.detail, /content-type: application\/json against text\/plain/);
    assert.ok(status.samples[0]!.a && status.samples[0]!.b, 'both sides of the case are shown');
  });

  test('a folder without a recording is refused before the run, with a clear line', async () => {
    const r = await conformance(['--interfaces', 'game-bridge', '--compare-recording', path.join(recorded, 'no-such-folder')]);
    assert.equal(r.code, 2, r.out);
    assert.match(r.out, /--compare-recording .*no behaviour recording there/);
  });
});
