import type { FullResult, Reporter, TestCase, TestResult } from '@playwright/test/reporter';
import { interfaceOfTest } from '../paths.ts';
import { ANNOTATION, type Verdict } from '../verdicts.ts';

/**
 * One line per test, without its tag list: what it decided, by verdict. The command line prints the run's last line
 * (what was counted and why) from summary.json.
 */
export default class ConsoleReporter implements Reporter {
  constructor(private readonly options: { quiet?: boolean } = {}) {}

  printsToStdio(): boolean {
    return true;
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    if (this.options.quiet || result.status === 'skipped') return;
    const verdicts = (result.annotations ?? []).filter((a) => a.type === ANNOTATION.verdict && a.description).map((a) => JSON.parse(a.description!) as Verdict);
    const count = (s: Verdict['status']) => new Set(verdicts.filter((v) => v.status === s).map((v) => v.id)).size;
    const parts = (['failed', 'inconclusive', 'passed', 'not-tested', 'not-applicable', 'flagged'] as const).filter((s) => count(s)).map((s) => `${count(s)} ${s.replace('-', ' ')}`);
    const mark = result.status === 'timedOut' ? 'TIME' : result.status !== 'passed' ? 'FAIL' : count('failed') ? 'warn' : count('inconclusive') ? '??  ' : 'ok  ';
    const project = interfaceOfTest(test.titlePath());
    const why = result.status === 'timedOut' ? ': ran out of its time limit (inconclusive)' : '';
    process.stdout.write(`${mark} ${project} › ${test.title} (${(result.duration / 1000).toFixed(1)} s)${parts.length ? `: ${parts.join(', ')}` : ''}${why}\n`);
  }

  onEnd(_result: FullResult): void {}
}
