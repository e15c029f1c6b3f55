import type { FullConfig, FullResult, Reporter, Suite, TestCase, TestError, TestResult, TestStep } from '@playwright/test/reporter';
import BehaviourReporter from '../reporter/behaviour.ts';
import ConformanceReporter from '../reporter/conformance-reporter.ts';
import ConsoleReporter from '../reporter/console.ts';
import { withEnv, withEnvAsync } from './env.ts';
import { configurationOfTest, readManifest, type GroupConfiguration } from './manifest.ts';

/**
 * The reporter of a grouped run (harness/group/manifest.ts): each configuration gets the harness's own reporters of a
 * run of its own (console, conformance report, behaviour recording: harness/reporter/reporters.ts, without Playwright's
 * own HTML and JUnit files, which the self-test skips or never reads), fed only its own tests and called in its own
 * environment, so that its report folder holds what its own run would have written.
 */
export default class GroupReporter implements Reporter {
  private readonly base = { ...process.env };
  private readonly byIndex = new Map<number, { configuration: GroupConfiguration; reporters: Reporter[] }>();
  private begun?: { config: FullConfig; suite: Suite };

  printsToStdio(): boolean {
    return true;
  }

  onBegin(config: FullConfig, suite: Suite): void {
    this.begun = { config, suite };
    for (const c of readManifest()?.configurations ?? []) this.make(c);
  }

  onTestBegin(test: TestCase, result: TestResult): void {
    this.forTest(test, (r) => r.onTestBegin?.(test, result));
  }

  // Steps come by the hundred per test and only the console's progress line reads them, which needs no environment:
  // they go to the test's configuration without switching to it.
  onStepBegin(test: TestCase, result: TestResult, step: TestStep): void {
    for (const r of this.entryOf(test)?.reporters ?? []) r.onStepBegin?.(test, result, step);
  }

  onStepEnd(test: TestCase, result: TestResult, step: TestStep): void {
    for (const r of this.entryOf(test)?.reporters ?? []) r.onStepEnd?.(test, result, step);
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    this.forTest(test, (r) => r.onTestEnd?.(test, result));
  }

  /** An error outside any test (a file that does not load, the set-up): every configuration's run met it. */
  onError(error: TestError): void {
    for (const index of this.byIndex.keys()) this.call(index, (r) => r.onError?.(error));
  }

  async onEnd(result: FullResult): Promise<void> {
    // The set-up has written each configuration's targets into the manifest since the reporters were made.
    const latest = new Map((readManifest()?.configurations ?? []).map((c) => [c.index, c]));
    for (const [index, entry] of this.byIndex) {
      entry.configuration = latest.get(index) ?? entry.configuration;
      await withEnvAsync(this.envOf(entry.configuration), async () => {
        for (const r of entry.reporters) await r.onEnd?.(result);
      });
    }
  }

  private readonly envs = new WeakMap<GroupConfiguration, NodeJS.ProcessEnv>();

  /** A configuration's environment, made once per manifest entry (it is switched to at every test event). */
  private envOf(c: GroupConfiguration): NodeJS.ProcessEnv {
    let env = this.envs.get(c);
    if (!env) this.envs.set(c, (env = { ...this.base, ...c.env }));
    return env;
  }

  /** A configuration's own reporters, made in its environment (onBegin makes every configuration's). */
  private make(configuration: GroupConfiguration): void {
    const reporters = withEnv(this.envOf(configuration), () => {
      const made: Reporter[] = [new ConsoleReporter({ quiet: Boolean(process.env.HARNESS_QUIET) }), new ConformanceReporter(), new BehaviourReporter()];
      if (this.begun) for (const r of made) r.onBegin?.(this.begun.config, this.begun.suite);
      return made;
    });
    this.byIndex.set(configuration.index, { configuration, reporters });
  }

  private entryOf(test: TestCase): { configuration: GroupConfiguration; reporters: Reporter[] } | undefined {
    const index = configurationOfTest(test.titlePath());
    return index === undefined ? undefined : this.byIndex.get(index);
  }

  private forTest(test: TestCase, call: (r: Reporter) => void): void {
    const index = configurationOfTest(test.titlePath());
    if (index !== undefined) this.call(index, call);
  }

  private call(index: number, call: (r: Reporter) => void): void {
    const entry = this.byIndex.get(index);
    if (!entry) return;
    withEnv(this.envOf(entry.configuration), () => {
      for (const r of entry.reporters) call(r);
    });
  }
}
