import { randomInt } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import os from 'node:os';
import path from 'node:path';
import { ENV, runShard } from './options.ts';

/**
 * Client identities for checks that count (rate limits): each call gives an address no other test of this run uses.
 * Addresses come from 198.18.0.0/15 (reserved for benchmarking, never a real client), split into one block per
 * parallel worker; a random start per run keeps consecutive runs against one live target apart. Playwright replaces a
 * worker after a failed test: the next one goes on where it stopped (a file of the run), never reusing an address
 * whose stamps may still be in a window. The addresses only ever appear in headers: no traffic goes to them.
 */
const BLOCK = 8192;
const SPACE = 2 * 65536;
/** The parallel index whose block the start-up probe and health checks use (more workers than this share blocks). */
export const PROBE_BLOCK = 15;

const counters = new Map<string, number>();

/**
 * The identity block of a worker. Shards of one run may run at the same time against one live target, each with its
 * own workers numbered from 0: shard i of n takes every n-th block, so that no two shards count with one identity.
 */
export function blockOf(parallelIndex: number): number {
  const shard = runShard();
  return shard ? parallelIndex * shard.total + shard.current - 1 : parallelIndex;
}

function counterFile(kind: string, block: number): string | undefined {
  const run = process.env[ENV.runId];
  return run ? path.join(os.tmpdir(), `conformance-identities-${run}-${kind}-${block}`) : undefined;
}

/**
 * The next number of a kind of identity in one worker's block (`amount` consecutive ones reserved), carried over to
 * the worker that replaces it. The file holds a ceiling, not the last number: it is written once per SPARE numbers
 * (a file write for every name was a fortieth of a worker's CPU time), and a replacing worker starts at the ceiling,
 * past any number its predecessor may have given.
 */
const SPARE = 32;
/** The ceiling each counter file holds, by file (a run's own). */
const ceilings = new Map<string, number>();
function next(kind: string, block: number, start: () => number, amount = 1): number {
  // Per run: a worker of a grouped self-test run serves several runs (harness/run-scoped.ts).
  const key = `${process.env[ENV.runId] ?? ''} ${kind} ${block}`;
  const file = counterFile(kind, block);
  let n = counters.get(key);
  if (n === undefined) n = file && existsSync(file) ? Number(readFileSync(file, 'utf8')) || 0 : start();
  counters.set(key, n + amount);
  if (file && n + amount > (ceilings.get(file) ?? -1)) {
    ceilings.set(file, n + amount + SPARE);
    writeFileSync(file, String(n + amount + SPARE));
  }
  return n;
}

/**
 * `amount` consecutive numbers of a kind that no other test of this run gets: the worker's block and the first
 * number within it (the block's numbers start at 0). For identities laid out along a scale, such as spans of time.
 */
export function reserve(kind: string, parallelIndex: number, amount: number): { block: number; first: number } {
  const block = blockOf(parallelIndex);
  return { block, first: next(kind, block, () => 0, amount) };
}

export function freshAddress(parallelIndex: number): string {
  const block = blockOf(parallelIndex) % (SPACE / BLOCK);
  const n = (block * BLOCK + (next('address', block, () => randomInt(0, BLOCK)) % BLOCK)) % SPACE;
  return `198.${18 + (n >> 16)}.${(n >> 8) & 255}.${n & 255}`;
}

/**
 * A name no other test of this run uses, for identities that are names: a user, a configuration document, a customer
 * id ("conformance-customer-3f2a-1-7"). The run's id keeps consecutive runs against one live target apart.
 */
export function freshName(kind: string, parallelIndex: number): string {
  const run = (process.env[ENV.runId] ?? 'norun').slice(0, 8);
  const block = blockOf(parallelIndex);
  return `conformance-${kind}-${run}-${block}-${next(kind, block, () => 0)}`;
}

/**
 * Identities a live target hands out and the profile lists (API keys, users): a pool the run cannot add to. A check
 * that counts with one (nonces) needs it to itself, so it leases a member for the test: a file created exclusively
 * marks it taken, whichever worker process asks. `lease` waits for a member to come free, up to `waitMs`, and gives
 * undefined when none does; the lease ends with `release`, which the test's fixture calls whatever the outcome.
 */
export interface Lease {
  kind: string;
  /** The pool member's index. */
  index: number;
  release(): void;
}

/**
 * The members of a pool on a live target that this process may lease. Shards of one run on other machines cannot see
 * this machine's lease files, so shard i of n takes every n-th member only (none, when the pool has fewer members than
 * i: the checks that need one are then left to the shards that have one).
 */
export function shardShare<T>(members: readonly T[]): T[] {
  const shard = runShard();
  return shard && shard.total > 1 ? members.filter((_, i) => i % shard.total === shard.current - 1) : [...members];
}

export async function lease(kind: string, members: readonly number[], waitMs: number): Promise<Lease | undefined> {
  const run = process.env[ENV.runId] ?? `process-${process.pid}`;
  const deadline = Date.now() + waitMs;
  for (;;) {
    for (const index of members) {
      const file = path.join(os.tmpdir(), `conformance-identities-${run}-lease-${kind}-${index}`);
      try {
        writeFileSync(file, String(process.pid), { flag: 'wx' });
        return { kind, index, release: () => rmSync(file, { force: true }) };
      } catch {
        // taken: try the next member
      }
    }
    if (Date.now() >= deadline) return undefined;
    await sleep(Math.min(250, Math.max(1, deadline - Date.now())));
  }
}

/** Removes this run's counters (the runner calls it when the run ends). */
export function forgetIdentities(run = process.env[ENV.runId]): void {
  if (!run) return;
  for (const f of readdirSync(os.tmpdir())) if (f.startsWith(`conformance-identities-${run}-`)) rmSync(path.join(os.tmpdir(), f), { force: true });
}
