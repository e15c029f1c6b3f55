/**
 * One truth per run: whatever a CI service reads agrees with the exit code and with the rest. For a clean run, a run
 * whose only failure is a should, a waived failure, an expired waiver and a failure the baseline has too: the exit
 * code, summary.json, the console's last line, junit-requirements.xml (the file the examples publish), Playwright's
 * own junit.xml, and the GitHub example's job summary (its script run as the workflow runs it).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync, copyFileSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ROOT } from '../../harness/paths.ts';
import { conformance, freshDir, readSummary, type Ran } from './helpers.ts';

const PLAYERS = ['--interfaces', 'game-bridge', '--fault', 'game-bridge:players-count-truncated', '--grep', 'GET /v2/players', '--seed', '1'];
const FAILING = 'C-PLAYERS-COUNT-TOTAL';

function waivers(expires: string): string {
  const file = path.join(freshDir('waivers'), 'waivers.yaml');
  writeFileSync(file, `waivers:\n  - { requirement: ${FAILING}, reason: "vendor ticket 123", acceptedBy: qa-lead, expires: "${expires}" }\n`);
  return file;
}

/** The GitHub gate example's job-summary script, run on a run's summary.json as the workflow runs it. */
function jobSummary(reports: string): string {
  const workflow = readFileSync(path.join(ROOT, 'examples', 'ci', 'github', 'gate.yml'), 'utf8');
  const script = /node -e '\n([\s\S]*?)\n\s*' >> "\$GITHUB_STEP_SUMMARY"/.exec(workflow)?.[1];
  assert.ok(script, 'the gate workflow has its job-summary script');
  const dir = freshDir('job-summary');
  mkdirSync(path.join(dir, 'reports', 'merged'), { recursive: true });
  copyFileSync(path.join(reports, 'summary.json'), path.join(dir, 'reports', 'merged', 'summary.json'));
  return execFileSync(process.execPath, ['-e', script], { cwd: dir, encoding: 'utf8' });
}

const count = (xml: string, what: 'failures' | 'errors') => Number(new RegExp(`<testsuites [^>]*${what}="(\\d+)"`).exec(xml)?.[1] ?? NaN);
const failuresIn = (xml: string) => count(xml, 'failures');
/** Playwright reports a test that failed in its teardown (where the harness fails it) as an error: both fail a CI view. */
const failingIn = (xml: string) => count(xml, 'failures') + count(xml, 'errors');

function agree(kind: string, r: Ran, expectedCode: number): void {
  assert.equal(r.code, expectedCode, `${kind}: exit\n${r.out}`);
  const s = readSummary(r.reports);
  assert.equal(s.exitCode, r.code, `${kind}: summary.json`);
  assert.match(r.out, new RegExp(`Exit ${r.code}: `), `${kind}: the console's last line`);
  const requirementsJunit = failuresIn(readFileSync(path.join(r.reports, 'junit-requirements.xml'), 'utf8'));
  assert.equal(requirementsJunit > 0, r.code === 1, `${kind}: junit-requirements.xml has ${requirementsJunit} failures`);
  const playwrightJunit = failingIn(readFileSync(path.join(r.reports, 'junit.xml'), 'utf8'));
  assert.equal(playwrightJunit > 0, r.code === 1, `${kind}: Playwright's junit.xml has ${playwrightJunit} failures and errors`);
  const summary = jobSummary(r.reports);
  assert.match(summary, new RegExp(`\\(exit ${r.code}\\)`), `${kind}: the job summary`);
  assert.doesNotMatch(summary, /\[object Object\]/, `${kind}: the job summary`);
}

describe('one truth per run', () => {
  test('clean, should-only, waived, expired and baseline-known runs: every output agrees with the exit code', { timeout: 240_000 }, async () => {
    const [clean, shouldOnly, known] = await Promise.all([
      conformance(['--interfaces', 'game-bridge', '--grep', 'GET /v2/players', '--seed', '1']),
      conformance(['--interfaces', 'game-bridge', '--fault', 'game-bridge:method-case-insensitive', '--grep', 'another letter case', '--seed', '1']),
      conformance(PLAYERS),
    ]);
    agree('clean', clean, 0);
    agree('should-only', shouldOnly, 0);
    assert.match(shouldOnly.out, /not counted: 1 shoulds without --strict/);
    agree('a new failure', known, 1);
    const [waived, expired, inBaseline] = await Promise.all([
      conformance([...PLAYERS, '--waivers', waivers('2999-12-31')]),
      conformance([...PLAYERS, '--waivers', waivers('2001-01-01')]),
      conformance([...PLAYERS, '--baseline', path.join(known.reports, 'summary.json'), '--fail-on', 'new']),
    ]);
    agree('waived', waived, 0);
    agree('expired', expired, 1);
    assert.match(jobSummary(expired.reports), /\*\*Expired waivers\*\*: C-PLAYERS-COUNT-TOTAL \(expired 2001-01-01, accepted by qa-lead\)/);
    agree('baseline-known', inBaseline, 0);
  });
});
