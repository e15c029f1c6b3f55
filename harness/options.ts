import { randomInt } from 'node:crypto';

/**
 * The settings of one run, passed from the command line to Playwright's runner and workers through the environment
 * (Playwright starts its workers with the runner's environment).
 */
export const ENV = {
  profile: 'HARNESS_PROFILE',
  seed: 'HARNESS_SEED',
  depth: 'HARNESS_DEPTH',
  fault: 'HARNESS_FAULT',
  strict: 'HARNESS_STRICT',
  replay: 'HARNESS_REPLAY',
  interfaces: 'HARNESS_INTERFACES',
  targets: 'HARNESS_TARGETS',
  runId: 'HARNESS_RUN_ID',
  grep: 'HARNESS_GREP',
  /** --checks: the named generic checks the run selects (harness/generic/checks.ts). */
  checks: 'HARNESS_CHECKS',
  reportDir: 'HARNESS_REPORT_DIR',
  shard: 'HARNESS_SHARD',
  /** Requirement ids the CI gate sets aside (live waivers, the baseline's failures under --fail-on new), comma-separated. */
  setAside: 'HARNESS_SET_ASIDE',
  /** Set by npm run merge-reports: the shards' run ids and the earliest start. */
  mergedFrom: 'HARNESS_MERGED_FROM',
  /** Set: each test attaches what its exchanges showed (harness/diff/observation.ts), for the behaviour diff. */
  behaviour: 'HARNESS_BEHAVIOUR',
  startedAt: 'HARNESS_STARTED_AT',
} as const;

/** "2/4": this run is the second of four shards of one run (Playwright's sharding). */
export interface Shard {
  current: number;
  total: number;
}

export function parseShard(value: string): Shard {
  const m = /^(\d+)\/(\d+)$/.exec(value.trim());
  const current = Number(m?.[1]);
  const total = Number(m?.[2]);
  if (!m || total < 1 || current < 1 || current > total) throw new Error(`shard ${JSON.stringify(value)}: give I/N with 1 <= I <= N, e.g. 2/4`);
  return { current, total };
}

/** The shard of this run, or undefined for an unsplit run. */
export function runShard(value = process.env[ENV.shard]): Shard | undefined {
  return value ? parseShard(value) : undefined;
}

export const DEPTHS = { quick: 0.25, default: 1, deep: 5 } as const;

export function depthFactor(value = process.env[ENV.depth]): number {
  if (!value) return 1;
  if (value in DEPTHS) return DEPTHS[value as keyof typeof DEPTHS];
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`depth ${JSON.stringify(value)}: use quick, default, deep or a positive factor`);
  return n;
}

/** The run's seed: fixed by --seed, else drawn once by the first process and inherited by the rest. */
export function runSeed(): number {
  let s = process.env[ENV.seed];
  if (!s) {
    s = String(randomInt(1, 2 ** 31 - 1));
    process.env[ENV.seed] = s;
  }
  const n = Number(s);
  if (!Number.isInteger(n)) throw new Error(`seed ${JSON.stringify(s)} is not an integer`);
  return n;
}

/**
 * "game-bridge:wrong-key-accepted,chat:off-by-one": which reference server carries which seeded faults (the self-test
 * gives a reference several only where they change different parts of it).
 */
export function selectedFaults(value = process.env[ENV.fault]): Array<{ interfaceName: string; fault: string }> {
  if (!value) return [];
  return value.split(',').map((one) => {
    const [interfaceName, fault] = one.split(':');
    if (!interfaceName || !fault) throw new Error(`fault ${JSON.stringify(one)}: write it as <interface>:<fault name>`);
    return { interfaceName, fault };
  });
}

/**
 * A property case to replay, from a failure's replay command: "<property id>=<fast-check path>", or
 * "<property id>!<requirement>,<requirement>=<path>" when the failure was found with earlier-failed requirements set aside.
 */
export function replayFor(propertyId: string, value = process.env[ENV.replay]): { path: string; skip: string[] } | undefined {
  if (!value) return undefined;
  const eq = value.lastIndexOf('=');
  const [id, skip] = value.slice(0, eq).split('!');
  if (id !== propertyId) return undefined;
  return { path: value.slice(eq + 1), skip: skip ? skip.split(',') : [] };
}

export function replayToken(propertyId: string, path: string, skip: Iterable<string>): string {
  const s = [...skip];
  return `${propertyId}${s.length ? '!' + s.join(',') : ''}=${path}`;
}
