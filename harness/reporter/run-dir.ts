import { mkdirSync, readdirSync, rmSync, symlinkSync, lstatSync, unlinkSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from '../paths.ts';

/** Where runs write when no folder is given: one folder per run, the newest linked as reports/latest. */
export const RUNS_DIR = path.join(ROOT, 'reports', 'runs');
export const LATEST = path.join(ROOT, 'reports', 'latest');
/** Older runs beyond this many are removed, so that nightly runs do not fill the disk. */
const KEEP = 20;

export function freshRunDir(runId: string): string {
  const stamp = new Date().toISOString().replace(/[:.]/g, '-').replace(/Z$/, '');
  const dir = path.join(RUNS_DIR, `${stamp}-${runId.slice(0, 8)}`);
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** Points reports/latest at a finished run, and keeps the newest runs only. */
export function linkLatest(dir: string): void {
  try {
    if (lstatSync(LATEST, { throwIfNoEntry: false })) unlinkSync(LATEST);
    symlinkSync(path.relative(path.dirname(LATEST), dir), LATEST, 'dir');
  } catch {
    /* a file system without symbolic links: the run's own folder is printed anyway */
  }
  const runs = readdirSync(RUNS_DIR).sort();
  for (const old of runs.slice(0, Math.max(0, runs.length - KEEP))) rmSync(path.join(RUNS_DIR, old), { recursive: true, force: true });
}
