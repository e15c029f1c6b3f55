import type { FullResult, Reporter, TestCase, TestResult, TestStep } from '@playwright/test/reporter';
import { interfaceOfTest } from '../paths.ts';
import { readPlannedTests, testKey } from '../planned-tests.ts';
import { PROGRESS_STEP, WAITING_STEP } from '../progress.ts';
import { ANNOTATION, type Verdict } from '../verdicts.ts';

/** How often a long test is said to be still running (HARNESS_HEARTBEAT_MS: the harness's own tests shorten it). */
const heartbeatMs = () => Number(process.env.HARNESS_HEARTBEAT_MS) || 30_000;

interface Running {
  title: string;
  startedAt: number;
  /** The last thing its worker said it was at (harness/progress.ts). */
  at?: string;
  atSince?: number;
}

/** A test planned to take this long or longer is announced when it starts; a shorter one is heard of when it ends. */
const ANNOUNCED_FROM_MS = 10_000;

const seconds = (ms: number) => (ms < 60_000 ? `${Math.round(ms / 1000)} s` : `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`);

/**
 * One line per test, without its tag list: what it decided, by verdict. The command line prints the run's last line
 * (what was counted and why) from summary.json. A test that runs longer than the heartbeat is said to be running, with
 * what it is at (a property's case of the planned, a window it sits out) and the time left where that can be told: a
 * CI service that stops a silent job, and a person watching, both hear from it. On a terminal that is one line,
 * rewritten; in a log, plain lines.
 */
export default class ConsoleReporter implements Reporter {
  private readonly running = new Map<string, Running>();
  private timer: NodeJS.Timeout | undefined;
  private readonly tty = Boolean(process.stdout.isTTY) && !process.env.CI;
  private statusShown = false;
  /** Each test's duration in the last run of this profile and depth (harness/planned-tests.ts). */
  private readonly planned = readPlannedTests();

  constructor(private readonly options: { quiet?: boolean } = {}) {}

  printsToStdio(): boolean {
    return true;
  }

  onBegin(): void {
    this.timer = setInterval(() => this.heartbeat(), heartbeatMs());
    this.timer.unref();
  }

  onTestBegin(test: TestCase): void {
    const title = testKey(interfaceOfTest(test.titlePath()), test.title);
    this.running.set(test.id, { title, startedAt: Date.now() });
    const planned = this.planned[title];
    if (!this.options.quiet && planned !== undefined && planned >= ANNOUNCED_FROM_MS) this.write(`run  ${title}: planned about ${seconds(planned)} (its last run)`);
  }

  onStepBegin(test: TestCase, _result: TestResult, step: TestStep): void {
    const r = this.running.get(test.id);
    if (!r) return;
    if (step.title.startsWith(PROGRESS_STEP)) r.at = step.title.slice(PROGRESS_STEP.length);
    else if (step.title.startsWith(WAITING_STEP)) r.at = step.title;
    else return;
    r.atSince = Date.now();
  }

  onStepEnd(test: TestCase, _result: TestResult, step: TestStep): void {
    const r = this.running.get(test.id);
    // A wait that ended is no longer what the test is at.
    if (r && step.title.startsWith(WAITING_STEP) && r.at === step.title) r.at = undefined;
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    this.running.delete(test.id);
    if (this.options.quiet || result.status === 'skipped') return;
    const verdicts = (result.annotations ?? []).filter((a) => a.type === ANNOTATION.verdict && a.description).map((a) => JSON.parse(a.description!) as Verdict);
    const count = (s: Verdict['status']) => new Set(verdicts.filter((v) => v.status === s).map((v) => v.id)).size;
    const parts = (['failed', 'inconclusive', 'passed', 'not-tested', 'not-applicable', 'flagged'] as const).filter((s) => count(s)).map((s) => `${count(s)} ${s.replace('-', ' ')}`);
    const mark = result.status === 'timedOut' ? 'TIME' : result.status !== 'passed' ? 'FAIL' : count('failed') ? 'warn' : count('inconclusive') ? '??  ' : 'ok  ';
    const project = interfaceOfTest(test.titlePath());
    const why = result.status === 'timedOut' ? ': ran out of its time limit (inconclusive)' : '';
    this.write(`${mark} ${project} › ${test.title} (${(result.duration / 1000).toFixed(1)} s)${parts.length ? `: ${parts.join(', ')}` : ''}${why}`);
  }

  onEnd(_result: FullResult): void {
    if (this.timer) clearInterval(this.timer);
    this.clearStatus();
  }

  /** Every test running longer than the heartbeat: how long, what it is at, and the time left where a case count tells. */
  private heartbeat(): void {
    const now = Date.now();
    const long = [...this.running.values()].filter((r) => now - r.startedAt >= heartbeatMs());
    if (long.length === 0) return;
    const lines = long.map((r) => `...  ${r.title}: running ${seconds(now - r.startedAt)}${r.at ? `; ${r.at}${timeLeft(r, now)}` : ''}`);
    if (this.tty) {
      this.clearStatus();
      process.stdout.write(lines.join(' | ').slice(0, (process.stdout.columns || 120) - 1));
      this.statusShown = true;
    } else for (const line of lines) process.stdout.write(`${line}\n`);
  }

  private clearStatus(): void {
    if (!this.statusShown) return;
    process.stdout.write('\r\u001b[2K');
    this.statusShown = false;
  }

  private write(line: string): void {
    this.clearStatus();
    process.stdout.write(`${line}\n`);
  }
}

/** "case 40 of about 100" after 80 s: about 120 s left; a wait of 60 s begun 20 s ago: 40 s to go. */
function timeLeft(r: Running, now: number): string {
  const wait = /^waiting (\d+) s/.exec(r.at ?? '');
  if (wait) return ` (${seconds(Math.max(0, Number(wait[1]) * 1000 - (now - (r.atSince ?? now))))} to go)`;
  const m = /case (\d+) of about (\d+)/.exec(r.at ?? '');
  if (!m) return '';
  const [done, planned] = [Number(m[1]), Number(m[2])];
  if (done < 2 || done >= planned) return '';
  return `, about ${seconds(((now - r.startedAt) / done) * (planned - done))} left`;
}
