/**
 * A grouped run: several configurations of the embedded references (a seeded fault, a reading of the open points), each
 * a conformance run of its own, made by one Playwright invocation, as a mutation tester switches mutants in one test
 * runner instead of starting one per mutant. Playwright's runner, its loader and its workers start once for the group;
 * a worker runs the tests of every configuration, switching to a test's configuration as it starts (harness/fixtures.ts).
 *
 * Each configuration keeps what makes it a run: its own references (own listeners, own state), its run id, report
 * folder, grep and environment, and its own reporters, fed only its own tests. Its tests are declared by a stand-in
 * spec file per interface in a folder of its own (config-<index>/suites/<interface>/<interface>.spec.ts), importing
 * the interface's real spec files under URLs of their own, so that Playwright declares the suite's tests once per
 * configuration in one project. Each stand-in is one file to Playwright: its tests run one after another on one
 * worker, in the order of a run of its own on one worker (the runs grouped are such runs: a check that holds an
 * account, or a limited rate, for long would otherwise meet its own run's other checks in parallel).
 *
 * The manifest is the one description of the group: written by the command that makes the group, completed by the
 * group's global set-up (each configuration's published targets), read by the workers and the group's reporter.
 */
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { CONFIGURATION_FOLDER, SUITES_DIR } from '../paths.ts';

/** The variable that names the manifest file of the grouped run this process belongs to. */
export const GROUP_ENV = 'HARNESS_GROUP';

export interface GroupConfiguration {
  /** Its folder's index: the stand-ins of configuration i are under config-i/. */
  index: number;
  /** The whole environment of its run, as the conformance command settled it (its references' targets added by the set-up). */
  env: Record<string, string>;
  /** The interfaces its run judges: their spec files get stand-ins. */
  interfaces: string[];
  /** Its run's --grep, if any. */
  grep?: string;
}

export interface GroupManifest {
  /** The folder of the stand-ins: Playwright's test folder for the group. */
  dir: string;
  workers: number;
  configurations: GroupConfiguration[];
}

export function readManifest(file = process.env[GROUP_ENV]): GroupManifest | undefined {
  return file ? (JSON.parse(readFileSync(file, 'utf8')) as GroupManifest) : undefined;
}

export function writeManifest(file: string, manifest: GroupManifest): void {
  writeFileSync(file, JSON.stringify(manifest));
}

/**
 * Writes the stand-in spec file of every configuration and interface. It imports the interface's spec files, in the
 * order Playwright runs them, each under a URL of its own (the group and the configuration in its query), which Node's
 * module loader evaluates afresh: the suite's tests are declared again, into the stand-in's file suite. The modules the
 * specs import are shared, as in one worker of a single run.
 */
export function writeStandIns(manifest: GroupManifest, groupId: string): void {
  for (const c of manifest.configurations) {
    for (const name of c.interfaces) {
      const dir = path.join(manifest.dir, `config-${c.index}`, 'suites', name);
      mkdirSync(dir, { recursive: true });
      const specs = readdirSync(path.join(SUITES_DIR, name))
        .filter((f) => f.endsWith('.spec.ts'))
        .sort();
      const imports = specs.map((file) => `import '${path.relative(dir, path.join(SUITES_DIR, name, file)).split(path.sep).join('/')}?group=${groupId}&configuration=${c.index}';\n`);
      writeFileSync(path.join(dir, `${name}.spec.ts`), imports.join(''));
    }
  }
}

/**
 * The one --grep of the group: a configuration's tests are those under its folder, and, where its run had a grep,
 * those of them the grep selects. Playwright matches a test's title path (its file's path relative to the test folder
 * among it) joined by spaces, and its tags; the configuration's own grep is matched after its folder, as its own run
 * matched it after the file. Undefined when no configuration narrows its run.
 */
export function groupGrep(manifest: GroupManifest): string | undefined {
  if (!manifest.configurations.some((c) => c.grep)) return undefined;
  const alternatives = manifest.configurations.map((c) => `config-${c.index}/suites/${c.grep ? `.*(?:${c.grep})` : ''}`);
  return `(?:^| )(?:${alternatives.join('|')})`;
}

/** The index of the configuration a test belongs to, from its title path (its stand-in file's folder). */
export function configurationOfTest(titlePath: readonly string[]): number | undefined {
  const parts = titlePath.find((t) => /\.spec\.ts$/.test(t))?.split(/[\\/]/) ?? [];
  const m = parts.length === 4 && parts[1] === 'suites' ? CONFIGURATION_FOLDER.exec(parts[0]) : null;
  return m ? Number(m[1]) : undefined;
}
