import { execFile, spawn } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { ROOT, interfaceOfTestFile } from './paths.ts';
import type { ListedTest } from './shard-weights.ts';

const CONFIG = path.join(ROOT, 'playwright.config.ts');
/** The config of a grouped run (harness/group/manifest.ts). */
export const GROUP_CONFIG = path.join(ROOT, 'playwright.group.config.ts');

/** The parts of Playwright Test's runner that its own command line calls (exported by the package as lib/common and lib/runner). */
interface RunnerApi {
  loadConfig(file: string, overrides: object): Promise<unknown>;
  runAll(config: unknown, options: { grep?: string; shardWeights?: number[] }): Promise<'passed' | 'failed' | 'timedout' | 'interrupted'>;
}

function runnerApi(): RunnerApi | undefined {
  try {
    const require = createRequire(import.meta.url);
    const common = require('playwright/lib/common');
    const runner = require('playwright/lib/runner');
    const loadConfigFromFile = common?.configLoader?.loadConfigFromFile;
    const runAllTestsWithConfig = runner?.testRunner?.runAllTestsWithConfig;
    if (typeof loadConfigFromFile !== 'function' || typeof runAllTestsWithConfig !== 'function') return undefined;
    return { loadConfig: loadConfigFromFile, runAll: runAllTestsWithConfig };
  } catch {
    return undefined;
  }
}

/**
 * Runs Playwright Test on the harness's config with this environment, and gives its exit code (0 passed, 1 failed,
 * 130 interrupted). In this process where Playwright's runner can be called as its command line calls it: a second
 * process would load and check again what this one has (the profile, the registry, the harness's modules), which was
 * the largest part of a run's fixed cost outside Playwright's own. As a child process, Playwright's command line,
 * where that runner is not there (another Playwright version).
 */
export async function runPlaywright(env: NodeJS.ProcessEnv, grep: string | undefined, shardWeights?: number[], configFile = CONFIG): Promise<number> {
  const api = process.env.HARNESS_PLAYWRIGHT_CHILD ? undefined : runnerApi();
  // Playwright's command line reads a shard's weights from the environment; its runner, from its options.
  if (!api) return runChild(shardWeights ? { ...env, PWTEST_SHARD_WEIGHTS: shardWeights.join(':') } : env, grep, configFile);
  Object.assign(process.env, env);
  // Playwright starts its workers with this process's options: they load the suites through its own transform, and a
  // TypeScript loader of this command's (tsx) would only put a second loader in front of every import there.
  process.execArgv = withoutLoaders(process.execArgv);
  const { file, remove } = freshConfigFile(configFile);
  const shown = hideTerminalFromHtmlReporter();
  try {
    const config = await api.loadConfig(file, { argv: process.argv });
    const status = await api.runAll(config, { ...(grep ? { grep } : {}), ...(shardWeights ? { shardWeights } : {}) });
    return status === 'passed' ? 0 : status === 'interrupted' ? 130 : 1;
  } finally {
    shown();
    remove();
  }
}

let configLoads = 0;

/**
 * The config file for this process's next run. Node evaluates a module once per process, and the config reads the
 * run's environment (its profile, interfaces, report folder) as it is evaluated: a second run in this process (the
 * self-test's batches) loads it through a file of its own, which imports it under a URL of its own, so that it is
 * evaluated again. The file sits beside the config, so that every path the config gives resolves alike; the run's
 * workers load it too, so it stays until the run ends.
 */
function freshConfigFile(config: string): { file: string; remove: () => void } {
  configLoads += 1;
  if (configLoads === 1) return { file: config, remove: () => {} };
  const file = path.join(ROOT, `.playwright.config.run-${process.pid}-${configLoads}.ts`);
  writeFileSync(file, `export { default } from './${path.basename(config)}?run=${configLoads}';\n`);
  return { file, remove: () => rmSync(file, { force: true }) };
}

/**
 * Playwright's HTML reporter ends a run at a terminal with "To open last HTML report run: npx playwright show-report
 * <folder>": its own report, while the run's last line names the conformance report, the one to read. It prints that
 * hint only when stdin is a terminal (the run reads nothing from stdin), so stdin is not one while Playwright runs.
 */
function hideTerminalFromHtmlReporter(): () => void {
  const own = Object.getOwnPropertyDescriptor(process.stdin, 'isTTY');
  if (!process.stdin.isTTY) return () => {};
  Object.defineProperty(process.stdin, 'isTTY', { value: false, configurable: true });
  return () => {
    if (own) Object.defineProperty(process.stdin, 'isTTY', own);
    else delete (process.stdin as { isTTY?: boolean }).isTTY;
  };
}

function runChild(env: NodeJS.ProcessEnv, grep: string | undefined, configFile: string): Promise<number> {
  const args = [path.join(ROOT, 'node_modules', '@playwright', 'test', 'cli.js'), 'test', '-c', configFile];
  if (grep) args.push('--grep', grep);
  return new Promise<number>((resolve) => {
    // stdin not a terminal: no "To open last HTML report" hint of Playwright's (see hideTerminalFromHtmlReporter).
    const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', 'inherit', 'inherit'] });
    child.on('exit', (c, signal) => resolve(c ?? (signal ? 130 : 2)));
    child.on('error', () => resolve(2));
  });
}

/**
 * The tests of a run in the order Playwright cuts shards from (files, then declaration order), each with its interface
 * (its file's folder): its listing, without a shard, so that every shard sees the whole run alike.
 */
export function listTests(env: NodeJS.ProcessEnv, grep: string | undefined): Promise<ListedTest[]> {
  const args = [path.join(ROOT, 'node_modules', '@playwright', 'test', 'cli.js'), 'test', '--list', '--reporter=json', '-c', CONFIG, ...(grep ? ['--grep', grep] : [])];
  type Listed = { file: string; specs?: Array<{ tests?: Array<{ expectedStatus?: string }> }>; suites?: Listed[] };
  return new Promise((resolve, reject) => {
    execFile(process.execPath, args, { cwd: ROOT, env: { ...env, HARNESS_SHARD: '' }, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error) return reject(new Error(`listing the run's tests failed: ${(stderr || error.message).split('\n')[0]}`));
      const out: ListedTest[] = [];
      const walk = (suite: Listed, file = suite.file) => {
        // A test skipped where it is declared is left out of the cuts, as Playwright leaves it out.
        for (const spec of suite.specs ?? []) for (const t of spec.tests ?? []) if (t.expectedStatus !== 'skipped') out.push({ interfaceName: interfaceOfTestFile(file) });
        for (const child of suite.suites ?? []) walk(child, file);
      };
      for (const suite of (JSON.parse(stdout) as Listed).suites ?? []) walk(suite);
      resolve(out);
    });
  });
}

/** Node options without `--import X` / `--loader X` / `--experimental-loader X` (both spellings, with = or apart). */
function withoutLoaders(execArgv: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < execArgv.length; i++) {
    const a = execArgv[i];
    if (/^--(import|loader|experimental-loader)$/.test(a)) i++;
    else if (!/^--(import|loader|experimental-loader)=/.test(a)) out.push(a);
  }
  return out;
}
