import { fileURLToPath } from 'node:url';
import path from 'node:path';

/** The repository root, whatever the working directory of the process that imports this. */
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const SPECS_DIR = path.join(ROOT, 'specs');
export const TARGETS_DIR = path.join(ROOT, 'targets');
/**
 * Where this run's reports go (HARNESS_REPORT_DIR). Asked when needed, not fixed when this module loads: the conformance
 * command settles the folder after its modules have loaded, and Playwright's runner shares them in its process.
 */
export function reportsDir(): string {
  return process.env.HARNESS_REPORT_DIR ? path.resolve(process.env.HARNESS_REPORT_DIR) : path.join(ROOT, 'reports');
}
export const SUITES_DIR = path.join(ROOT, 'suites');

/**
 * The interface a test belongs to: the folder of its spec file under suites/. All suites run in one Playwright project
 * (a project per interface would cost a new worker process at every change of interface), so the file says it.
 */
export function interfaceOfTestFile(file: string): string {
  const rel = path.relative(SUITES_DIR, path.resolve(SUITES_DIR, file));
  if (rel.startsWith('..') || path.isAbsolute(rel)) return '';
  const parts = rel.split(path.sep);
  // A grouped run's stand-in for a spec file (harness/group/wrappers.ts): <configuration folder>/suites/<interface>/<file>.
  if (parts.length === 4 && CONFIGURATION_FOLDER.test(parts[0]) && parts[1] === 'suites') return parts[2];
  return parts[0];
}

/** The folder of one configuration's stand-ins in a grouped run: config-<index>. */
export const CONFIGURATION_FOLDER = /^config-(\d+)$/;

/**
 * The interface of a test from its title path, whose first spec-file entry is the file that declares it (relative to
 * suites/). Not the test's own location: shared checks (harness/generic) are declared by code outside suites/.
 */
export function interfaceOfTest(titlePath: readonly string[]): string {
  const file = titlePath.find((t) => /\.spec\.ts$/.test(t));
  return file ? interfaceOfTestFile(file) : '';
}

/**
 * The node arguments that run one of scripts/*.ts as npm run does: TypeScript through tsx's loader in the same
 * process (tsx's own command line would start a second node process for every run). Its ES-module loader only
 * (tsx/esm): the harness is ES modules throughout, and tsx's CommonJS hook slowed every require of the command's
 * process, Playwright's runner included (a whole run's fixed cost 3.9-4.1 s against 4.2-4.6 s, alternated).
 */
export function scriptArgs(name: string, args: readonly string[] = []): string[] {
  return ['--import', 'tsx/esm', path.join(ROOT, 'scripts', `${name}.ts`), ...args];
}
