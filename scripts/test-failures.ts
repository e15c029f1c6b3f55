/**
 * npm run test:failures: the failed tests of the last `npm test`, from the TAP files its node:test steps keep in
 * reports/npm-test/ (beside their console output). `npm test` calls it when its parallel step fails: there the
 * self-test prints long after the integration tests end, so a CI log cut to its tail would otherwise show the
 * self-test's success and "test:harness exited with 1", but not which test failed or why. Always exits 1: it runs
 * only after a failure.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from '../harness/paths.ts';
import { answerHelp } from './help.ts';

// Not under test-results/: Playwright empties that folder when a run starts (the self-test's browser check does, beside
// the integration tests).
export const TAP_DIR = path.join(ROOT, 'reports', 'npm-test');

interface Failure {
  file: string;
  /** The titles from the file's outermost test to the failed one. */
  titles: string[];
  /** The failure's YAML block (error, expected, actual, location), its first lines. */
  detail: string[];
}

/** The innermost failed tests of one TAP stream (a failed parent of a failed child is not repeated). */
export function failuresOf(tap: string, file: string): Failure[] {
  const lines = tap.split('\n');
  const out: Failure[] = [];
  const open: Array<{ depth: number; title: string }> = [];
  for (let i = 0; i < lines.length; i++) {
    const m = /^( *)(not ok|ok) \d+ - (.*)$/.exec(lines[i]!);
    const subtest = /^( *)# Subtest: (.*)$/.exec(lines[i]!);
    if (subtest) {
      const depth = subtest[1]!.length;
      while (open.length && open.at(-1)!.depth >= depth) open.pop();
      open.push({ depth, title: subtest[2]! });
      continue;
    }
    if (!m) continue;
    const depth = m[1]!.length;
    while (open.length && open.at(-1)!.depth > depth) open.pop();
    const titles = [...open.map((o) => o.title)];
    if (titles.at(-1) !== m[3]) titles.push(m[3]!);
    if (open.length && open.at(-1)!.depth === depth) open.pop();
    if (m[2] !== 'not ok') continue;
    const detail: string[] = [];
    for (let j = i + 1; j < lines.length && detail.length < 12; j++) {
      const line = lines[j]!;
      if (line.trim() === '...') break;
      if (line.trim() === '---') continue;
      detail.push(line.trim());
    }
    // A parent fails because a child did: keep the child's entry, which says why.
    const children = out.filter((f) => f.file === file && f.titles.length > titles.length && titles.every((t, k) => f.titles[k] === t));
    if (children.length === 0) out.push({ file, titles, detail });
  }
  return out;
}

function main(): number {
  const files = existsSync(TAP_DIR) ? readdirSync(TAP_DIR).filter((f) => f.endsWith('.tap')).sort() : [];
  const failures = files.flatMap((f) => failuresOf(readFileSync(path.join(TAP_DIR, f), 'utf8'), f));
  if (failures.length === 0) {
    console.log(`test:failures: no failed node:test test in ${path.relative(ROOT, TAP_DIR)} (${files.length} files): the failure is in the output above (the self-test, a lint, the type check)`);
    return 1;
  }
  console.log(`\ntest:failures: ${failures.length} failed test${failures.length === 1 ? '' : 's'} (from ${path.relative(ROOT, TAP_DIR)}):`);
  for (const f of failures) {
    console.log(`\n  ✖ [${f.file}] ${f.titles.join(' › ')}`);
    for (const line of f.detail) console.log(`      ${line}`);
  }
  return 1;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  answerHelp(`npm run test:failures
  The failed node:test tests of the last npm test (reports/npm-test/*.tap), each with why. Exit 1: it runs after a
  failure.`);
  process.exit(main());
}
