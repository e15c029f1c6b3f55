import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { processTreeCpuSeconds } from '../../scripts/process-cpu.ts';

test('a self-test run\'s CPU seconds count the children it waited for, as its Playwright workers are', { skip: process.platform !== 'linux' }, () => {
  const before = processTreeCpuSeconds();
  assert.ok(before !== undefined && before >= 0);
  // A child that spins for about half a second of CPU, ended and waited for before the second reading.
  spawnSync(process.execPath, ['-e', 'const end = process.cpuUsage().user + 500000; while (process.cpuUsage().user < end);']);
  const after = processTreeCpuSeconds()!;
  assert.ok(after - before >= 0.4, `the child's CPU time is counted: ${before} -> ${after}`);
});
