import { ENV } from './options.ts';

/**
 * State a module keeps for one run, made afresh for each run a process serves. A Playwright worker of a grouped
 * self-test run (harness/group/) runs the tests of several configurations, each a run of its own with its own run id
 * and reference: a cache of logins, a nonce, a counter kept for one would be wrong, or merely different, for another.
 * Kept per run id, each configuration sees what a worker of its own would.
 */
export function runScoped<T>(make: () => T): () => T {
  const byRun = new Map<string, T>();
  return () => {
    const run = process.env[ENV.runId] ?? '';
    let state = byRun.get(run);
    if (state === undefined) {
      state = make();
      byRun.set(run, state);
    }
    return state;
  };
}
