/**
 * The published JSON Schemas (schemas/summary.schema.json, schemas/waivers.schema.json) are what the TypeBox
 * declarations of the harness's own types give, and they accept what the harness writes and refuse a misspelt file.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ROOT } from '../../harness/paths.ts';
import { PUBLISHED_SCHEMAS, publishedSchemaText } from '../../harness/published-schemas.ts';
import { applyGate, loadWaivers } from '../../harness/gate.ts';
import { summaryProblems } from '../../harness/reporter/summary-schema.ts';
import { SUMMARY_SCHEMA_VERSION, countedFailures, countedInconclusive, exitCodeOf, totalsOf, type InterfaceResult, type RequirementResult, type RunSummary } from '../../harness/reporter/summary.ts';
import { WriteJournal } from '../../harness/writes.ts';

const dir = mkdtempSync(path.join(os.tmpdir(), 'published-schemas-'));
after(() => rmSync(dir, { recursive: true, force: true }));

function waiversFile(text: string): string {
  const file = path.join(dir, `waivers-${Math.random().toString(36).slice(2)}.yaml`);
  writeFileSync(file, text);
  return file;
}

test('each committed schema is what its declaration gives now (npm run generate writes them)', () => {
  for (const { file, schema } of PUBLISHED_SCHEMAS) {
    assert.equal(readFileSync(path.join(ROOT, file), 'utf8'), publishedSchemaText(file, schema()), `${file} is stale: run npm run generate`);
  }
});

test('a published schema names its dialect and itself at the top only: no part carries an $id of its own', () => {
  for (const { file, schema } of PUBLISHED_SCHEMAS) {
    const text = publishedSchemaText(file, schema());
    const published = JSON.parse(text) as Record<string, unknown>;
    assert.equal(published.$schema, 'https://json-schema.org/draft/2020-12/schema');
    assert.equal(published.$id, `https://conformance.invalid/${file}`);
    assert.ok(published.title && published.description, `${file} has a title and a description`);
    assert.equal(text.match(/"\$id"/g)?.length, 1, `${file}: one $id`);
    assert.ok(text.endsWith('}\n') && text.startsWith('{\n  "$schema"'), `${file}: 2-space indents, a trailing newline`);
  }
});

function requirement(id: string, status: RequirementResult['status'], over: Partial<RequirementResult> = {}): RequirementResult {
  return { id, level: 'must', text: `${id} text`, source: `${id} source`, generic: false, observable: true, status, counted: true, tests: ['chat › a check'], causes: [], failures: [], ...over };
}

/** A small summary put together by the harness's own functions, as the reporter and the gate write it. */
function writtenSummary(): RunSummary {
  const exchange = { label: 'a request', request: { method: 'POST', url: 'http://127.0.0.1:1/api/chat', headers: [['content-type', 'application/json']] as Array<[string, string]>, body: '{}' }, response: { status: 500, headers: {}, body: 'oops' }, startedAt: 1, durationMs: 2 };
  const failed = requirement('E-A', 'failed', {
    causes: ['chat-cause-1'],
    failures: [{ test: 'chat › a check', message: 'a 500', evidence: { requirement: 'E-A', message: 'a 500', exchanges: [exchange] }, replay: 'npm run replay', cause: 'chat-cause-1' }],
  });
  const requirements = [failed, requirement('E-B', 'passed'), requirement('E-C', 'failed', { knockOnOf: ['E-A'] }), requirement('E-D', 'not-applicable', { message: 'switched off' })];
  const iface: InterfaceResult = {
    name: 'chat',
    title: 'Chat',
    spec: { file: 'specs/chat.yaml', sha256: 'ab'.repeat(32), document: 'd.txt', section: 'Interface E' },
    target: { baseUrl: 'http://127.0.0.1:1', reference: true, readings: { 'E-NS-AUTH': 'none' } },
    requirements,
    causes: [{ id: 'chat-cause-1', requirement: 'E-A', touches: ['E-A', 'E-C'], test: 'chat › a check', message: 'a 500', exchanges: [exchange], replay: 'npm run replay', curl: { line: 'curl …', signed: false } }],
    notShown: [{ id: 'E-NS-AUTH', text: 't', source: 's', readings: [{ id: 'none', text: 'n' }, { id: 'bearer', text: 'b' }], stated: false, seen: [{ reading: 'none', tests: ['chat › a check'] }] }],
    totals: totalsOf(requirements),
    exercised: { applicable: 3, judged: 3, share: 1 },
    operations: [{ operation: 'POST /api/chat', exercised: true, statuses: [200, 500], unseen: ['429'], tests: ['chat › a check'] }],
  };
  const journal = new WriteJournal(false, 'chat', undefined);
  journal.sent('POST /api/chat', 'one message', 'a request');
  journal.sent('POST /api/chat', 'one message', 'a bad request', 'refused');
  const exit = exitCodeOf([iface], false);
  const summary: RunSummary = {
    schemaVersion: SUMMARY_SCHEMA_VERSION, runId: 'run-1', harness: { name: 'h', version: '1' }, startedAt: '2026-11-24T00:00:00.000Z', finishedAt: '2026-11-24T00:00:01.000Z', durationMs: 1000,
    profile: { name: 'embedded-reference', file: 'targets/reference.yaml', writes: false }, seed: 1, depth: 'quick', strict: false, shard: '1/2',
    interfaces: [iface], notes: ['a note'], writes: journal.records, properties: [{ interfaceName: 'chat', test: 'chat › a check', property: 'p', runs: 10 }],
    failedCounted: countedFailures([iface], false), inconclusiveCounted: countedInconclusive([iface], false),
    exitCode: exit.code, exitReason: exit.reason, verdict: exit.code === 0 ? 'passed' : 'failed', brokenTests: [],
    timing: [{ interfaceName: 'chat', test: 'chat › a check', startMs: 1, durationMs: 2, plannedWaitMs: 0, workerIndex: 0 }],
  };
  const waivers = loadWaivers(
    waiversFile(`waivers:
  - { requirement: E-A, reason: "vendor ticket 123", acceptedBy: qa-lead, expires: "2999-12-31" }
  - { requirement: E-B, target: embedded-reference, reason: stale, acceptedBy: qa-lead, expires: "2999-12-31" }
  - { requirement: E-D, reason: old, acceptedBy: qa-lead, expires: "2001-01-01" }
`),
  );
  return applyGate(summary, { waivers, failOn: 'any', today: '2026-11-24' });
}

test('a summary the harness writes, with the gate applied, fits the published schema; a misspelt field does not', () => {
  const summary = writtenSummary();
  assert.deepEqual([summary.gate?.waived.length, summary.gate?.unusedWaivers.length, summary.gate?.expiredWaivers.length], [1, 1, 1], 'every part of the gate is filled');
  assert.deepEqual(summaryProblems(summary), []);
  const [iface] = summary.interfaces;
  const misspelt = { ...summary, interfaces: [{ ...iface, totals: { ...iface.totals, passd: 1 } }] };
  assert.deepEqual(summaryProblems(misspelt), ['/interfaces/0/totals: must NOT have additional properties (passd)']);
});

test('a waivers file with a misspelt field is refused, naming the field', () => {
  const file = waiversFile('waivers:\n  - { requirement: E-A, reason: r, acceptedby: qa-lead, expires: "2999-12-31" }\n');
  assert.throws(() => loadWaivers(file), (e: Error) => {
    assert.match(e.message, /waivers\.0\.acceptedby: unknown field/);
    assert.match(e.message, /waivers\.0\.acceptedBy: required field missing/);
    return true;
  });
});
