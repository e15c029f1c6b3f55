/**
 * A long test is never silent: while it runs, the console says so at every heartbeat, with what it is at (here a
 * rate-limit window it sits out) and the time to go. Shown with a 12-second chat window and the heartbeat shortened
 * to 2 s (HARNESS_HEARTBEAT_MS; 30 s by default), in a log (CI=1: plain lines, no rewritten terminal line).
 */
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ROOT, scriptArgs } from '../../harness/paths.ts';
import { freshDir } from '../integration/helpers.ts';

const HEARTBEAT_MS = 2000;

test('a test longer than the heartbeat prints a line at least every heartbeat, saying what it waits for', { timeout: 120_000 }, async () => {
  const dir = freshDir('progress');
  const profile = path.join(dir, 'long-window.yaml');
  writeFileSync(profile, 'name: long-window\nwrites: true\nrequestTimeoutMs: 3000\ninterfaces:\n  chat:\n    reference: {}\n    settings: { windowMs: 12000, maxRequests: 3, instances: 1, clientAddressesPreserved: true, developmentMode: false }\n');
  const lines: Array<{ at: number; text: string }> = [];
  const code = await new Promise<number | null>((resolve) => {
    const child = spawn(process.execPath, scriptArgs('conformance', ['--target', profile, '--grep', 'limit, Retry-After and sliding window']), {
      cwd: ROOT,
      env: { ...process.env, CI: '1', HARNESS_QUIET: '1', HARNESS_HEARTBEAT_MS: String(HEARTBEAT_MS), HARNESS_REPORT_DIR: path.join(dir, 'reports') },
    });
    let rest = '';
    child.stdout.on('data', (d) => {
      const parts = (rest + d).split('\n');
      rest = parts.pop()!;
      for (const text of parts) lines.push({ at: Date.now(), text });
    });
    child.on('exit', resolve);
  });
  assert.equal(code, 0, lines.map((l) => l.text).join('\n'));
  const beats = lines.filter((l) => l.text.startsWith('...  chat › limit'));
  assert.ok(beats.length >= 3, lines.map((l) => l.text).join('\n'));
  assert.ok(beats.some((l) => /running \d+ s; waiting \d+ s: the rate-limit window to move on \(\d+ s to go\)/.test(l.text)), beats.map((l) => l.text).join('\n'));
  // From the first heartbeat to the test's end, no silence longer than a heartbeat (and some slack for a busy machine).
  const end = lines.findIndex((l) => l.text.startsWith('conformance:'));
  const watched = lines.slice(lines.indexOf(beats[0]!), end);
  const gaps = watched.slice(1).map((l, i) => l.at - watched[i]!.at);
  assert.ok(Math.max(...gaps) <= HEARTBEAT_MS * 1.75, `gaps ${gaps.join(', ')} ms`);
});
