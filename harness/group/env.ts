/**
 * Makes process.env exactly `to`: keys it lacks are removed. A process that serves several runs one after another (a
 * self-test batch) or several configurations side by side (a grouped run's runner and workers) switches between
 * their environments with it, since the harness reads a run's settings from the environment where it needs them.
 */
export function setEnv(to: NodeJS.ProcessEnv): void {
  switchEnv(to);
}

/**
 * Makes process.env `to` and gives back what it changed (each key's value before: undefined where it was not set).
 * Only what differs is written: process.env is no plain object (every write reaches the C library's environment), and a
 * grouped run's reporter switches between its configurations at every test event, where copying and writing the
 * whole environment each time cost a second of CPU in a group of four runs.
 */
function switchEnv(to: NodeJS.ProcessEnv): Map<string, string | undefined> {
  const before = new Map<string, string | undefined>();
  for (const key of Object.keys(process.env)) {
    if (to[key] !== undefined) continue;
    before.set(key, process.env[key]);
    delete process.env[key];
  }
  for (const [key, value] of Object.entries(to)) {
    if (value === undefined) continue;
    const now = process.env[key];
    if (now === value) continue;
    before.set(key, now);
    process.env[key] = value;
  }
  return before;
}

function restoreEnv(before: Map<string, string | undefined>): void {
  for (const [key, value] of before) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
}

/** Runs `work` with process.env made `env`, and puts back what it changed after it. */
export function withEnv<T>(env: NodeJS.ProcessEnv, work: () => T): T {
  const before = switchEnv(env);
  try {
    return work();
  } finally {
    restoreEnv(before);
  }
}

/** As withEnv, for work that waits: nothing else may run in this process's environment meanwhile. */
export async function withEnvAsync<T>(env: NodeJS.ProcessEnv, work: () => Promise<T>): Promise<T> {
  const before = switchEnv(env);
  try {
    return await work();
  } finally {
    restoreEnv(before);
  }
}
