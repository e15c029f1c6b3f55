import { createRequire } from 'node:module';

/** A value built by `build` the first time it is asked for, and kept. */
export function builtOnce<T>(build: () => T): () => T {
  let value: T | undefined;
  return () => (value ??= build());
}

const load = createRequire(import.meta.url);

/**
 * A package loaded the first time it is used, from its CommonJS build. Each process of a run loads only what it uses:
 * the command's process (also Playwright's runner) lists the tests and never sends a request, and test workers check
 * no profile and parse no YAML, so the packages for those stay unloaded there.
 */
export function loadedOnFirstUse<T>(name: string): () => T {
  return builtOnce(() => load(name) as T);
}
