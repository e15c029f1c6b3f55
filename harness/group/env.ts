/**
 * Makes process.env exactly `to`: keys it lacks are removed. A process that serves several runs one after another (a
 * self-test batch) or several configurations side by side (a grouped run's runner and workers) switches between
 * their environments with it, since the harness reads a run's settings from the environment where it needs them.
 */
export function setEnv(to: NodeJS.ProcessEnv): void {
  for (const key of Object.keys(process.env)) if (!(key in to)) delete process.env[key];
  for (const [key, value] of Object.entries(to)) if (value !== undefined) process.env[key] = value;
}

/** Runs `work` with process.env made `env`, and puts the environment it found back after it. */
export function withEnv<T>(env: NodeJS.ProcessEnv, work: () => T): T {
  const before = { ...process.env };
  setEnv(env);
  try {
    return work();
  } finally {
    setEnv(before);
  }
}

/** As withEnv, for work that waits: nothing else may run in this process's environment meanwhile. */
export async function withEnvAsync<T>(env: NodeJS.ProcessEnv, work: () => Promise<T>): Promise<T> {
  const before = { ...process.env };
  setEnv(env);
  try {
    return await work();
  } finally {
    setEnv(before);
  }
}
