import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { FullConfig, FullResult, Reporter, Suite, TestCase, TestResult } from '@playwright/test/reporter';
import { ENV } from '../options.ts';
import { REPORTS_DIR, ROOT, isInterfaceName } from '../paths.ts';
import { loadProfile } from '../profile/load.ts';
import { replayCommand } from '../replay-command.ts';
import { loadSpec } from '../spec/load.ts';
import { publishedTargets, secretsFor, type Target } from '../targets.ts';
import { ANNOTATION, type Evidence, type Verdict } from '../verdicts.ts';
import { renderHtml } from './html.ts';
import { countedFailures, mergeStatus, totalsOf, type InterfaceResult, type RequirementResult, type RunSummary } from './summary.ts';

interface Collected {
  interfaceName: string;
  test: string;
  verdict: Verdict;
  evidence?: Evidence;
}

/**
 * Turns the verdicts that the suites record (annotations) and their evidence (attachments) into the conformance
 * report: HTML for people, summary.json for machines, one cassette per failed check for replays.
 */
export default class ConformanceReporter implements Reporter {
  private readonly started = new Date();
  private readonly collected: Collected[] = [];
  private readonly notes: string[] = [];
  private readonly writes: unknown[] = [];
  private readonly broken: Array<{ test: string; error: string }> = [];
  private readonly timing: RunSummary['timing'] = [];

  onBegin(_config: FullConfig, _suite: Suite): void {}

  printsToStdio(): boolean {
    return false;
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    const interfaceName = test.parent.project()?.name ?? '';
    if (!isInterfaceName(interfaceName)) return;
    const title = test.title;
    const annotations = result.annotations?.length ? result.annotations : test.annotations;
    const verdicts: Verdict[] = [];
    for (const a of annotations) {
      if (a.type === ANNOTATION.verdict && a.description) verdicts.push(JSON.parse(a.description) as Verdict);
      if (a.type === ANNOTATION.note && a.description) this.notes.push(`${interfaceName}: ${a.description}`);
      if (a.type === ANNOTATION.write && a.description) this.writes.push(JSON.parse(a.description));
    }
    const attachments = new Map(result.attachments.filter((a) => a.body).map((a) => [a.name, a.body!.toString('utf8')]));
    for (const v of verdicts) {
      const raw = v.evidence ? attachments.get(v.evidence) : undefined;
      this.collected.push({ interfaceName, test: title, verdict: v, evidence: raw ? (JSON.parse(raw) as Evidence) : undefined });
    }
    const failedWithoutVerdict = (result.status === 'failed' || result.status === 'timedOut' || result.status === 'interrupted') && !verdicts.some((v) => v.status === 'failed');
    if (failedWithoutVerdict) {
      // A check that broke before it could judge must not read as a pass: its claimed requirements fail with the error.
      const error = (result.errors.map((e) => e.message ?? '').join('\n') || result.status).replace(/\u001b\[[0-9;]*m/g, '').slice(0, 2000);
      this.broken.push({ test: `${interfaceName} › ${title}`, error });
      for (const tag of test.tags) {
        const id = tag.replace(/^@/, '');
        this.collected.push({ interfaceName, test: title, verdict: { id, status: 'failed', message: `the check broke: ${error}` } });
      }
    }
    const planned = annotations.find((a) => a.type === ANNOTATION.plannedWait)?.description;
    this.timing.push({ interfaceName, test: title, startMs: result.startTime.getTime(), durationMs: result.duration, plannedWaitMs: Number(planned ?? 0), workerIndex: result.workerIndex });
  }

  async onEnd(result: FullResult): Promise<void> {
    const finished = new Date();
    let profile: ReturnType<typeof loadProfile>;
    try {
      profile = loadProfile();
    } catch {
      return; // the command line reports a bad profile itself
    }
    let targets: Target[] = [];
    try {
      targets = publishedTargets();
    } catch {
      /* global setup did not run: no target was started */
    }
    const strict = Boolean(process.env[ENV.strict]);
    rmSync(path.join(REPORTS_DIR, 'cassettes'), { recursive: true, force: true });
    const interfaces: InterfaceResult[] = [];
    for (const target of targets) {
      interfaces.push(this.interfaceResult(target, profile));
    }
    const failedCounted = countedFailures(interfaces, strict);
    const summary: RunSummary = {
      harness: harnessVersion(),
      startedAt: this.started.toISOString(),
      finishedAt: finished.toISOString(),
      durationMs: finished.getTime() - this.started.getTime(),
      profile: { name: profile.name, file: path.relative(ROOT, profile.file), writes: Boolean(profile.writes) },
      seed: Number(process.env[ENV.seed]),
      depth: process.env[ENV.depth] || 'default',
      strict,
      fault: process.env[ENV.fault] || undefined,
      interfaces,
      notes: [...new Set(this.notes)],
      writes: this.writes,
      failedCounted,
      verdict: failedCounted.length > 0 || this.broken.length > 0 || result.status === 'interrupted' ? 'failed' : 'passed',
      brokenTests: this.broken,
      timing: this.timing,
    };
    mkdirSync(path.join(REPORTS_DIR, 'conformance'), { recursive: true });
    writeFileSync(path.join(REPORTS_DIR, 'summary.json'), JSON.stringify(summary, null, 2));
    writeFileSync(path.join(REPORTS_DIR, 'conformance', 'index.html'), renderHtml(summary));
  }

  private interfaceResult(target: Target, profile: ReturnType<typeof loadProfile>): InterfaceResult {
    const spec = loadSpec(target.interfaceName);
    const secrets = secretsFor(profile, target.interfaceName);
    const mine = this.collected.filter((c) => c.interfaceName === target.interfaceName);
    let cassetteNo = 0;
    const requirements: RequirementResult[] = spec.requirements.map((req) => {
      const entries = mine.filter((c) => c.verdict.id === req.id);
      const status = mergeStatus(entries.map((e) => e.verdict));
      const failures = entries
        .filter((e) => e.verdict.status === 'failed')
        .map((e) => {
          const replay = e.evidence?.property?.replay ?? replayCommand({ interfaceName: target.interfaceName, testTitle: e.test });
          let cassette: string | undefined;
          if (e.evidence?.exchanges.length) {
            cassette = path.join('cassettes', target.interfaceName, `${req.id}-${++cassetteNo}.json`);
            mkdirSync(path.dirname(path.join(REPORTS_DIR, cassette)), { recursive: true });
            const body = { interface: target.interfaceName, requirement: req.id, test: e.test, fault: target.fault, replay, exchanges: e.evidence.exchanges };
            writeFileSync(path.join(REPORTS_DIR, cassette), secrets.redact(JSON.stringify(body, null, 2)));
          }
          return { test: e.test, message: secrets.redact(e.verdict.message ?? ''), evidence: e.evidence, replay, cassette };
        });
      const first = entries.find((e) => e.verdict.status === status && e.verdict.message);
      return {
        id: req.id,
        level: req.level,
        text: req.text,
        source: req.source,
        generic: Boolean(req.generic),
        observable: req.observable !== false,
        status,
        message: first?.verdict.message ?? (req.observable === false ? `not observable over HTTP: ${req.why ?? ''}` : undefined),
        tests: [...new Set(entries.map((e) => e.test))],
        failures,
      };
    });
    const documentReqs = requirements.filter((r) => !r.generic);
    const exercised = documentReqs.filter((r) => r.status !== 'not-tested').length;
    return {
      name: target.interfaceName,
      title: spec.title,
      spec: { file: spec.file, sha256: spec.sha256, document: spec.document, section: spec.section },
      target: { baseUrl: target.baseUrl, reference: target.reference, fault: target.fault },
      requirements,
      notShown: spec.notShown,
      totals: totalsOf(requirements),
      exercised: { documentRequirements: documentReqs.length, exercised, share: documentReqs.length ? exercised / documentReqs.length : 0 },
    };
  }
}

function harnessVersion(): RunSummary['harness'] {
  const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { name: string; version: string };
  let commit: string | undefined;
  try {
    commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'ignore'] }).toString().trim();
  } catch {
    /* not a git checkout */
  }
  return { name: pkg.name, version: pkg.version, commit };
}
