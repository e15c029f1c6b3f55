/**
 * The CI gate (--baseline, --fail-on new, --waivers): a deviation the baseline already has does not fail a --fail-on new
 * run, a new one does; a waived failure does not fail the run and shows with its reason; an expired waiver fails it by
 * name; a waiver that matched nothing is listed; a malformed waivers file is refused field by field.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { conformance, freshDir, readSummary, type Ran } from './helpers.ts';

// One seeded fault, one check: C-PLAYERS-COUNT-TOTAL fails, C-PLAYERS-200 and C-PLAYERS-TRUNCATE pass.
const RUN = ['--interfaces', 'game-bridge', '--fault', 'game-bridge:players-count-truncated', '--grep', 'GET /v2/players', '--seed', '1'];
const FAILING = 'C-PLAYERS-COUNT-TOTAL';

function waivers(entries: Array<Record<string, string>>): string {
  const file = path.join(freshDir('waivers'), 'waivers.yaml');
  writeFileSync(file, `waivers:\n${entries.map((e) => `  - ${JSON.stringify(e)}`).join('\n')}\n`);
  return file;
}

describe('the gate: baseline and waivers', () => {
  let baseline: Ran;
  before(async () => {
    baseline = await conformance(RUN);
    assert.equal(baseline.code, 1, baseline.out);
    // The console says why: the requirement, the answer that broke it, and a curl line with the key as its variable.
    assert.match(baseline.out, /FAILED C-PLAYERS-COUNT-TOTAL \(must\) game-bridge: /);
    assert.match(baseline.out, /answer: +GET \/v2\/players -> 200 \{/);
    // Its exchanges as HAR 1.2 beside the cassette, for a vendor's own tools, credentials still tokens.
    const har = JSON.parse(readFileSync(path.join(baseline.reports, 'cassettes', 'game-bridge', `${FAILING}-1.har`), 'utf8'));
    assert.equal(har.log.version, '1.2');
    const [entry] = har.log.entries;
    for (const key of ['startedDateTime', 'time', 'request', 'response', 'cache', 'timings']) assert.ok(key in entry, key);
    assert.equal(entry.response.status, 200);
    assert.deepEqual(entry.request.headers, [{ name: 'X-Auth-Key', value: '{{secret:authKey}}' }]);
    assert.match(baseline.out, /curl: +curl -sS -i -X GET 'http:\/\/127\.0\.0\.1:\d+\/v2\/players' -H 'X-Auth-Key: '"\$BRIDGE_AUTH_KEY"/);
  });

  test('a failure the baseline has too does not fail --fail-on new; one it did not have does', async () => {
    const original = path.join(baseline.reports, 'summary.json');
    const clean = JSON.parse(readFileSync(original, 'utf8'));
    for (const i of clean.interfaces) for (const r of i.requirements) if (r.id === FAILING) r.status = 'passed';
    const cleanFile = path.join(freshDir('baseline'), 'summary.json');
    writeFileSync(cleanFile, JSON.stringify(clean));
    const [same, fresh] = await Promise.all([conformance([...RUN, '--baseline', original, '--fail-on', 'new']), conformance([...RUN, '--baseline', cleanFile, '--fail-on', 'new'])]);
    assert.equal(same.code, 0, same.out);
    assert.deepEqual(readSummary(same.reports).gate?.stillFailing, [`game-bridge:${FAILING}`]);
    // The console and JUnit say why it does not count in the same words, from the rules that set the exit code.
    assert.match(same.out, /not counted: 1 failing in the baseline too \(--fail-on new\)/);
    assert.match(readFileSync(path.join(same.reports, 'junit-requirements.xml'), 'utf8'), /must failed, not counted \(failing in the baseline too/);
    assert.equal(fresh.code, 1, fresh.out);
    const gate = readSummary(fresh.reports).gate!;
    assert.deepEqual(gate.newFailures, [`game-bridge:${FAILING}`]);
    assert.match(readFileSync(path.join(fresh.reports, 'conformance', 'index.html'), 'utf8'), /data-testid="gate-new"><li><code>game-bridge:C-PLAYERS-COUNT-TOTAL/);
  });

  test('a waived failure passes the gate with its reason; a waiver that matched nothing is listed; an expired one fails by name', async () => {
    const [waived, expired] = await Promise.all([
      conformance([...RUN, '--waivers', waivers([{ requirement: FAILING, reason: 'vendor ticket 123', acceptedBy: 'qa-lead', expires: '2999-12-31' }, { requirement: 'C-STATUS-200', reason: 'stale', acceptedBy: 'qa-lead', expires: '2999-12-31' }])]),
      conformance([...RUN, '--waivers', waivers([{ requirement: FAILING, reason: 'vendor ticket 123', acceptedBy: 'qa-lead', expires: '2001-01-01' }])]),
    ]);
    assert.equal(waived.code, 0, waived.out);
    const s = readSummary(waived.reports);
    assert.deepEqual(s.gate?.waived.map((w) => w.requirement), [FAILING]);
    assert.deepEqual(s.gate?.unusedWaivers.map((w) => w.requirement), ['C-STATUS-200']);
    const html = readFileSync(path.join(waived.reports, 'conformance', 'index.html'), 'utf8');
    assert.match(html, /data-testid="gate-waived"><li><code>C-PLAYERS-COUNT-TOTAL<\/code>: vendor ticket 123/);
    assert.match(html, /data-testid="gate-unused"/);
    const junit = readFileSync(path.join(waived.reports, 'junit-requirements.xml'), 'utf8');
    assert.match(junit, /must failed, not counted \(waived\): waived until 2999-12-31/);
    assert.match(junit, /<testsuites [^>]*failures="0"/);
    assert.match(waived.out, /not counted: 1 waived/);
    assert.equal(expired.code, 1, expired.out);
    assert.match(readSummary(expired.reports).exitReason, /waiver expired: C-PLAYERS-COUNT-TOTAL \(expired 2001-01-01, qa-lead\)/);
    // The expired waiver is its own failing case, so that the file agrees with the exit code.
    assert.match(readFileSync(path.join(expired.reports, 'junit-requirements.xml'), 'utf8'), /<testcase classname="gate" name="waiver for C-PLAYERS-COUNT-TOTAL expired"><failure/);
  });

  test('a waiver for no requirement of any spec is refused before the run; one for another profile is warned of by name', async () => {
    const [misspelt, elsewhere] = await Promise.all([
      conformance([...RUN, '--waivers', waivers([{ requirement: 'C-PLAYERS-COUNT-TOTL', reason: 'typo', acceptedBy: 'qa-lead', expires: '2999-12-31' }])]),
      conformance([...RUN, '--grep', 'no test has this name', '--waivers', waivers([{ requirement: FAILING, target: 'production', reason: 'r', acceptedBy: 'qa-lead', expires: '2999-12-31' }])]),
    ]);
    assert.equal(misspelt.code, 2, misspelt.out);
    assert.match(misspelt.out, /the waiver for C-PLAYERS-COUNT-TOTL names no requirement of any spec \(did you mean C-PLAYERS-COUNT-TOTAL/);
    assert.match(elsewhere.out, /warning: the waiver for C-PLAYERS-COUNT-TOTAL is for profile production, not embedded-reference: not applied/);
  });

  test('a malformed waivers file is refused before the run, field by field', async () => {
    const r = await conformance([...RUN, '--waivers', waivers([{ requirement: FAILING, acceptedBy: 'qa-lead', expires: 'soon' }])]);
    assert.equal(r.code, 2, r.out);
    assert.match(r.out, /waivers\.0\.reason: required field missing/);
    assert.match(r.out, /waivers\.0\.expires: must match pattern/);
  });
});
