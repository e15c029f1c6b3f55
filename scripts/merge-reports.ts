/**
 * npm run merge-reports -- <shard report folders...> [--out DIR] [--target FILE] [gate, record, history options]
 * Makes the reports of a sharded run (npm run conformance -- --shard I/N) as if it had not been split: Playwright's
 * merge-reports replays the shards' blob reports through the run's own reporters, then the gate, the record and the
 * trend apply as after a run. Exit codes as npm run conformance: 0 passed, 1 a counted requirement failed, 2 the run
 * could not decide (or the shards cannot be merged: one missing, or shards of different runs).
 */
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { AFTER_RUN_HELP, AFTER_RUN_OPTIONS, failureBlocks, finalLine, finishRun, prepareAfterRun } from '../harness/after-run.ts';
import { ENV, parseShard } from '../harness/options.ts';
import { ROOT } from '../harness/paths.ts';
import { loadProfile } from '../harness/profile/load.ts';
import type { Profile } from '../harness/profile/types.ts';
import { freshRunDir, linkLatest } from '../harness/reporter/run-dir.ts';
import type { RunSummary } from '../harness/reporter/summary.ts';
import type { Target } from '../harness/targets.ts';

const HELP = `npm run merge-reports -- <shard report folder>... [options]

Merges the shards of one run (npm run conformance -- --shard I/N --seed S --out <folder>) into the reports of the
whole run: conformance report, summary.json, JUnit and Playwright's report, as if the run had not been split.

Options:
  --out DIR              write the merged reports into DIR (default reports/runs/<time>-<run id>, linked as reports/latest)
  --target FILE          the profile of the run (default: the one the shards name)
${AFTER_RUN_HELP}
  --help                 this text`;

function cannotMerge(reason: string): never {
  console.error(`merge-reports: cannot merge: ${reason}`);
  process.exit(2);
}

let parsed: ReturnType<typeof parse>;
function parse() {
  return parseArgs({ options: { out: { type: 'string' }, target: { type: 'string' }, help: { type: 'boolean', short: 'h' }, ...AFTER_RUN_OPTIONS }, allowPositionals: true });
}
try {
  parsed = parse();
} catch (e) {
  cannotMerge(`${(e as Error).message} (--help lists the options)`);
}
const args = parsed.values;
if (args.help) {
  console.log(HELP);
  process.exit(0);
}
if (parsed.positionals.length === 0) cannotMerge('name the report folders of the shards (--help)');

interface ShardRun {
  dir: string;
  summary: RunSummary;
  blobs: string[];
}
const shards: ShardRun[] = parsed.positionals.map((dir) => {
  const file = path.join(dir, 'summary.json');
  if (!existsSync(file)) cannotMerge(`${dir}: no summary.json (is it the report folder of a shard?)`);
  let summary: RunSummary;
  try {
    summary = JSON.parse(readFileSync(file, 'utf8')) as RunSummary;
  } catch (e) {
    cannotMerge(`${file}: ${(e as Error).message.split('\n')[0]}`);
  }
  if (!summary.shard) cannotMerge(`${dir}: not a shard (its run had no --shard)`);
  const blobDir = path.join(dir, 'blob');
  const blobs = existsSync(blobDir) ? readdirSync(blobDir).filter((f) => f.endsWith('.zip')).map((f) => path.join(blobDir, f)) : [];
  if (blobs.length === 0) cannotMerge(`${dir}: no blob report in ${blobDir}`);
  return { dir, summary, blobs };
});

// One run, every part of it once: a missing shard would leave its requirements "not tested" in a report that looks whole.
const first = shards[0].summary;
const total = parseShard(first.shard!).total;
for (const s of shards) {
  const differs: string[] = (['seed', 'depth', 'strict', 'fault', 'grep'] as const).filter((k) => s.summary[k] !== first[k]);
  if (s.summary.profile.name !== first.profile.name) differs.push('profile');
  if (parseShard(s.summary.shard!).total !== total) differs.push('shard count');
  if (differs.length) cannotMerge(`${s.dir} and ${shards[0].dir} are shards of different runs (${differs.join(', ')} differ)`);
}
const have = shards.map((s) => parseShard(s.summary.shard!).current);
const twice = have.filter((n, i) => have.indexOf(n) !== i);
if (twice.length) cannotMerge(`shard ${twice[0]}/${total} is given twice`);
const missing = Array.from({ length: total }, (_, i) => i + 1).filter((n) => !have.includes(n));
if (missing.length) cannotMerge(`shards ${missing.map((n) => `${n}/${total}`).join(', ')} are missing: their requirements would show as not tested`);

const profileFile = path.resolve(ROOT, args.target ?? first.profile.file);
let profile: Profile;
try {
  profile = loadProfile(profileFile);
} catch (e) {
  cannotMerge((e as Error).message);
}
const afterRun = await prepareAfterRun(args, profile, profileFile, cannotMerge);

// The targets as the shards knew them (each shard started its own reference, on a port of its own: the first shard's is shown).
const targets = new Map<string, Target>();
for (const s of shards) {
  for (const i of s.summary.interfaces) {
    if (!targets.has(i.name) && i.target) targets.set(i.name, { interfaceName: i.name as Target['interfaceName'], baseUrl: i.target.baseUrl, reference: i.target.reference, ...(i.target.fault ? { fault: i.target.fault } : {}) });
  }
}

const runIds = shards.map((s) => s.summary.runId);
const runDir = args.out ? path.resolve(args.out) : freshRunDir(`merged-${runIds[0]}`);
rmSync(path.join(runDir, 'summary.json'), { force: true });
const blobDir = mkdtempSync(path.join(os.tmpdir(), 'conformance-merge-'));
for (const s of shards) for (const b of s.blobs) copyFileSync(b, path.join(blobDir, path.basename(b)));

const env: NodeJS.ProcessEnv = {
  ...process.env,
  [ENV.profile]: profileFile,
  [ENV.seed]: String(first.seed),
  [ENV.depth]: first.depth === 'default' ? '' : first.depth,
  [ENV.strict]: first.strict ? '1' : '',
  [ENV.fault]: first.fault ?? '',
  [ENV.grep]: first.grep ?? '',
  [ENV.targets]: JSON.stringify([...targets.values()]),
  [ENV.runId]: runIds[0],
  [ENV.reportDir]: runDir,
  [ENV.mergedFrom]: JSON.stringify(runIds),
  [ENV.startedAt]: shards.map((s) => s.summary.startedAt).sort()[0],
  [ENV.shard]: '',
};
const code = await new Promise<number>((resolve) => {
  const cli = path.join(ROOT, 'node_modules', '@playwright', 'test', 'cli.js');
  const child = spawn(process.execPath, [cli, 'merge-reports', '--config', path.join(ROOT, 'playwright.merge.config.ts'), blobDir], { cwd: ROOT, env, stdio: 'inherit' });
  child.on('exit', (c, signal) => resolve(c ?? (signal ? 130 : 2)));
  child.on('error', () => resolve(2));
});
rmSync(blobDir, { recursive: true, force: true });
const summaryFile = path.join(runDir, 'summary.json');
if (!existsSync(summaryFile)) cannotMerge(`Playwright's merge-reports ended (exit ${code}) without writing ${path.relative(process.cwd(), summaryFile)}`);
if (!args.out) linkLatest(runDir);
let summary = JSON.parse(readFileSync(summaryFile, 'utf8')) as RunSummary;
summary = finishRun(runDir, summary, afterRun);
for (const block of failureBlocks(summary)) console.log(block);
console.log(finalLine(summary, runDir).replace(/^conformance:/, `merge-reports: ${shards.length} shards:`));
process.exit(summary.exitCode);
