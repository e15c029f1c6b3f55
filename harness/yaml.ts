import { createRequire } from 'node:module';

let loaded: typeof import('yaml') | undefined;

/**
 * The YAML package, loaded when first needed and from its CommonJS build, the same copy for every module of a process:
 * a test worker parses no YAML at all (its profile comes from the command as JSON, specs from their kept JSON), and
 * loading the package was a measurable part of each worker's start.
 */
export function yaml(): typeof import('yaml') {
  return (loaded ??= createRequire(import.meta.url)('yaml') as typeof import('yaml'));
}
