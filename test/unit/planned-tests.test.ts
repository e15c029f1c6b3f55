/**
 * A long test is announced when it starts, with its planned duration: how long it took in the last run of the same
 * profile at the same depth (the nightly history, or the previous report). Short and never-timed tests are not.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { TestCase } from '@playwright/test/reporter';
import { PLANNED_TESTS_ENV, plannedFrom, readPlannedTests, writePlannedTests } from '../../harness/planned-tests.ts';
import ConsoleReporter from '../../harness/reporter/console.ts';
import type { RunSummary } from '../../harness/reporter/summary.ts';

const run = (profile: string, depth: string, durationMs: number, shard?: string) =>
  ({ profile: { name: profile }, depth, shard, timing: [{ interfaceName: 'chat', test: 'limit, Retry-After and sliding window', durationMs }] }) as unknown as RunSummary;

test('the plan is the last earlier run of the same profile and depth, never a shard of one', () => {
  const plan = plannedFrom([run('nightly', 'default', 60_000), run('nightly', 'deep', 600_000), run('staging', 'default', 5_000), run('nightly', 'default', 1_000, '1/2')], 'nightly', 'default');
  assert.deepEqual(plan, { 'chat › limit, Retry-After and sliding window': 60_000 });
  assert.deepEqual(plannedFrom([run('staging', 'default', 5_000)], 'nightly', 'default'), {});
});

test('from a history folder, the newest summary of the profile and depth; a broken file or none gives no plan, never an error', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'planned-history-'));
  const history = path.join(dir, 'history');
  mkdirSync(history);
  writeFileSync(path.join(history, '2026-11-24.json'), JSON.stringify(run('nightly', 'default', 61_000)));
  writeFileSync(path.join(history, '2026-11-25.json'), JSON.stringify(run('staging', 'default', 2_000)));
  writeFileSync(path.join(history, '2026-11-26.json'), '{"cut short');
  const file = writePlannedTests(path.join(dir, 'run'), { profileName: 'nightly', depth: 'default', history, latest: path.join(dir, 'no-latest') });
  assert.deepEqual(readPlannedTests(file), { 'chat › limit, Retry-After and sliding window': 61_000 });
  assert.deepEqual(readPlannedTests(writePlannedTests(path.join(dir, 'run2'), { profileName: 'other', depth: 'default', latest: path.join(dir, 'none') })), {});
});

test('the console announces a test planned at 10 s or more when it starts, with the plan; others only when they end', () => {
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'planned-')), 'planned-tests.json');
  writeFileSync(file, JSON.stringify({ 'chat › a long window': 65_000, 'chat › a quick read': 300 }));
  const lines: string[] = [];
  const write = process.stdout.write;
  process.env[PLANNED_TESTS_ENV] = file;
  process.stdout.write = ((chunk: string) => (lines.push(String(chunk)), true)) as typeof process.stdout.write;
  try {
    const reporter = new ConsoleReporter();
    const started = (title: string) => ({ id: title, title, titlePath: () => ['', 'chat', 'chat/limit.spec.ts', title] }) as unknown as TestCase;
    for (const t of ['a long window', 'a quick read', 'never timed']) reporter.onTestBegin(started(t));
    reporter.onEnd({} as never);
  } finally {
    process.stdout.write = write;
    delete process.env[PLANNED_TESTS_ENV];
  }
  assert.deepEqual(lines, ['run  chat › a long window: planned about 1 min 5 s (its last run)\n']);
});
