/**
 * Several conformance runs against embedded references made by one Playwright invocation (harness/group/manifest.ts):
 * the self-test's fault runs, dozens of them, each judged alone. Each run is prepared as its own command prepares it
 * (its options, profile, report folder, seed, credentials), its references are started side by side by the group's
 * set-up, its tests run in workers shared by the group, its reporters write its own report folder, and its exit code
 * is worked out from its own summary, as its own command's would be.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { setEnv, withEnv } from '../harness/group/env.ts';
import { GROUP_ENV, groupGrep, writeManifest, writeStandIns, type GroupConfiguration } from '../harness/group/manifest.ts';
import { ROOT } from '../harness/paths.ts';
import { GROUP_CONFIG, runPlaywright } from '../harness/playwright-run.ts';
import { loadProfile } from '../harness/profile/load.ts';
import { settleRun } from '../harness/targets.ts';
import { cannotRunCode, prepare, type PreparedRun } from './conformance-run.ts';

export interface GroupedRun {
  args: string[];
  /** Its environment on top of the process's. */
  env: Record<string, string>;
}

/**
 * What a caller does around each part of the group: the self-test keeps each run's console output apart (`part` is the
 * run's index; the shared Playwright run is `undefined`).
 */
export type Around = <T>(part: number | undefined, work: () => Promise<T>) => Promise<T>;

const direct: Around = (_part, work) => work();

/** Makes the runs as one group on `workers` workers, and gives each run's exit code, in order. */
export async function conformanceGroup(runs: GroupedRun[], workers: number, around: Around = direct): Promise<number[]> {
  const starting = { ...process.env };
  const codes: number[] = runs.map(() => 2);
  const prepared = new Map<number, PreparedRun>();
  try {
    for (const [i, run] of runs.entries()) {
      setEnv({ ...starting, ...run.env });
      const ready = await around(i, () => prepareGrouped(run.args));
      if (typeof ready === 'number') codes[i] = ready;
      else prepared.set(i, ready);
    }
    setEnv(starting);
    if (prepared.size === 0) return codes;

    const id = randomUUID().slice(0, 8);
    const dir = path.join(ROOT, '.tmp', 'groups', id);
    mkdirSync(dir, { recursive: true });
    const configurations: GroupConfiguration[] = [...prepared].map(([index, p]) => ({ index, env: p.env as Record<string, string>, interfaces: p.scope, ...(p.grep ? { grep: p.grep } : {}) }));
    const manifest = { dir, workers, configurations };
    const manifestFile = path.join(dir, 'manifest.json');
    writeManifest(manifestFile, manifest);
    writeStandIns(manifest, id);
    const grep = groupGrep(manifest);
    let playwright: number;
    try {
      playwright = await around(undefined, () => runPlaywright({ ...starting, [GROUP_ENV]: manifestFile }, grep, undefined, GROUP_CONFIG));
    } finally {
      setEnv(starting);
      rmSync(dir, { recursive: true, force: true });
    }
    // Playwright's exit code is the group's: each run's own comes from its summary (finish), as a run of its own's
    // does; a run whose summary is missing ends with its cause, exit 2.
    for (const [i, p] of prepared) {
      setEnv({ ...starting, ...p.env });
      codes[i] = await around(i, async () => {
        try {
          return p.finish(playwright);
        } catch (e) {
          return cannotRunCode(e);
        }
      });
    }
    return codes;
  } finally {
    setEnv(starting);
  }
}

/**
 * A run prepared as its command prepares it, with what a run's Playwright config settles as it loads (the seed, the
 * references' drawn credentials, the run id) settled in its environment, since the group's config is not its own.
 */
async function prepareGrouped(args: string[]): Promise<PreparedRun | number> {
  let ready: PreparedRun | number;
  try {
    ready = await prepare(args);
  } catch (e) {
    return cannotRunCode(e);
  }
  if (typeof ready === 'number') return ready;
  if (!ready.groupable) {
    console.error('conformance: cannot run: a sharded, replayed or --checks run cannot share a group');
    return 2;
  }
  const { scope } = ready;
  ready.env = withEnv(ready.env, () => {
    settleRun(loadProfile(), scope);
    return { ...process.env };
  });
  return ready;
}
