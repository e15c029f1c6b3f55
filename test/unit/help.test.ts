/** Every command of package.json answers --help with its usage and exit 0, doing nothing else. */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ROOT } from '../../harness/paths.ts';

const scripts = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')).scripts as Record<string, string>;
/** The commands that are one script of scripts/ (test and install steps are npm's chains of them). */
const commands = Object.entries(scripts).flatMap(([name, line]) => {
  const m = /^node --import tsx\/esm (scripts\/[a-z-]+\.ts)$/.exec(line);
  return m ? [[name, m[1]!] as const] : [];
});

function help(script: string): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx/esm', path.join(ROOT, script), '--help'], { cwd: ROOT });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('exit', (code) => resolve({ code, out }));
  });
}

test('every command answers --help with exit 0 and its usage', { timeout: 120_000 }, async () => {
  assert.ok(commands.length >= 12, commands.map(([n]) => n).join(', '));
  const answers = await Promise.all(commands.map(async ([name, script]) => ({ name, ...(await help(script)) })));
  for (const a of answers) {
    assert.equal(a.code, 0, `npm run ${a.name} -- --help: exit ${a.code}\n${a.out}`);
    assert.match(a.out, /npm run|usage/i, `npm run ${a.name} -- --help says how it is used`);
  }
});
