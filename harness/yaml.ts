import { loadedOnFirstUse } from '../interfaces/kit/lazy.ts';

/**
 * The YAML package, one copy for every module of a process: a test worker parses no YAML at all (its profile comes from
 * the command as JSON, specs from their kept JSON), and loading the package was a measurable part of each worker's start.
 */
export const yaml = loadedOnFirstUse<typeof import('yaml')>('yaml');
