import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { FullConfig, FullResult, Reporter, Suite, TestCase, TestError, TestResult } from '@playwright/test/reporter';
import { COUNTED_FAILURES } from '../counted.ts';
import { ENV } from '../options.ts';
import { ROOT, interfaceOfTest, reportsDir } from '../paths.ts';
import { isStated, loadProfile } from '../profile/load.ts';
import type { Profile } from '../profile/types.ts';
import { isInterfaceName } from '../../interfaces/registry.ts';
import { replayCassetteCommand, replayCommand } from '../replay-command.ts';
import { loadSpec } from '../spec/load.ts';
import type { LoadedSpec, OpenPoint } from '../spec/types.ts';
import { credentialVariables, publishedTargets, secretsFor, type Target } from '../targets.ts';
import { curlOf } from '../http/curl.ts';
import { operationCoverage } from './coverage.ts';
import { toHar } from './har.ts';
import { ANNOTATION, idsOfTags, type Evidence, type SeenReading, type Verdict } from '../verdicts.ts';
import type { WriteRecord } from '../writes.ts';
import { CASSETTE_SCHEMA_VERSION, type Cassette } from './cassette.ts';
import { writeSummaryReports } from './html.ts';
import { RUN_START, SUMMARY_SCHEMA_VERSION, countedFailures, countedInconclusive, exitCodeOf, isCounted, mergeStatus, totalsOf, type Cause, type InterfaceResult, type OpenPointResult, type OperationCoverage, type RequirementResult, type RunSummary } from './summary.ts';

interface Collected {
  interfaceName: string;
  test: string;
  verdict: Verdict;
  evidence?: Evidence;
}

const stripColours = (s: string) => s.replace(/\u001b\[[0-9;]*m/g, '');

/**
 * Turns the verdicts that the suites record (annotations) and their evidence (attachments) into the conformance
 * report: HTML for people, summary.json and a JUnit file with one test case per requirement for machines, one
 * cassette per failure for replays.
 */
export default class ConformanceReporter implements Reporter {
  // A merge of shards reports the run as it was: from the first shard's start.
  private readonly started = process.env[ENV.startedAt] ? new Date(process.env[ENV.startedAt]!) : new Date();
  private readonly reports = reportsDir();
  private readonly collected: Collected[] = [];
  private readonly notes: string[] = [];
  private readonly writes: WriteRecord[] = [];
  /** Per test, the operations its requests reached and the statuses they got. */
  private readonly reached: Array<{ interfaceName: string; test: string; operations: Record<string, number[]> }> = [];
  private readonly properties: RunSummary['properties'] = [];
  private readonly broken: Array<{ test: string; error: string }> = [];
  private readonly timing: RunSummary['timing'] = [];
  private readonly readings: Array<SeenReading & { interfaceName: string; test: string }> = [];

  /** Errors outside any test: a suite file that does not load, a global set-up that threw. */
  private readonly startErrors: TestError[] = [];

  onBegin(_config: FullConfig, _suite: Suite): void {}

  onError(error: TestError): void {
    // Playwright's word for a --grep that selects nothing: the exit reason says so in the run's own terms.
    if (/^(Error: )?No tests found/.test(stripColours(error.message ?? ''))) return;
    this.startErrors.push(error);
  }

  printsToStdio(): boolean {
    return false;
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    const interfaceName = interfaceOfTest(test.titlePath());
    if (!isInterfaceName(interfaceName)) return;
    const title = test.title;
    const annotations = result.annotations?.length ? result.annotations : test.annotations;
    const verdicts: Verdict[] = [];
    for (const a of annotations) {
      if (!a.description) continue;
      if (a.type === ANNOTATION.verdict) verdicts.push(JSON.parse(a.description) as Verdict);
      if (a.type === ANNOTATION.note) this.notes.push(`${interfaceName}: ${a.description}`);
      if (a.type === ANNOTATION.write) this.writes.push(JSON.parse(a.description) as WriteRecord);
      if (a.type === ANNOTATION.reading) this.readings.push({ interfaceName, test: title, ...(JSON.parse(a.description) as SeenReading) });
      if (a.type === ANNOTATION.operations) this.reached.push({ interfaceName, test: title, operations: JSON.parse(a.description) as Record<string, number[]> });
      if (a.type === ANNOTATION.cases) this.properties.push({ interfaceName, test: title, ...(JSON.parse(a.description) as { property: string; runs: number }) });
    }
    const attachments = new Map(result.attachments.filter((a) => a.body).map((a) => [a.name, a.body!.toString('utf8')]));
    for (const v of verdicts) {
      const raw = v.evidence ? attachments.get(v.evidence) : undefined;
      this.collected.push({ interfaceName, test: title, verdict: v, evidence: raw ? (JSON.parse(raw) as Evidence) : undefined });
    }
    // A test that broke, ran out of time or was interrupted before judging what it claims: those requirements are
    // inconclusive (the harness's or the environment's trouble), never failed.
    if (result.status === 'failed' || result.status === 'timedOut' || result.status === 'interrupted') {
      const cause =
        result.status === 'timedOut'
          ? `the test ran out of its time limit (${Math.round(test.timeout / 1000)} s) before deciding`
          : result.status === 'interrupted'
            ? 'the run was interrupted before the test decided'
            : `the check broke: ${stripColours(result.errors.map((e) => e.message ?? '').filter((m) => !m.includes(COUNTED_FAILURES)).join('\n')).slice(0, 2000)}`;
      // The test's own end for counted failures is not trouble; any other error is.
      const troubled = result.status !== 'failed' || result.errors.some((e) => !stripColours(e.message ?? '').includes(COUNTED_FAILURES));
      if (troubled) {
        const undecided = idsOfTags(test.tags).filter((id) => !verdicts.some((v) => v.id === id));
        this.broken.push({ test: `${interfaceName} › ${title}`, error: cause });
        for (const id of undecided) this.collected.push({ interfaceName, test: title, verdict: { id, status: 'inconclusive', message: cause } });
      }
    }
    const planned = annotations.find((a) => a.type === ANNOTATION.plannedWait)?.description;
    this.timing.push({ interfaceName, test: title, startMs: result.startTime.getTime(), durationMs: result.duration, plannedWaitMs: Number(planned ?? 0), workerIndex: result.workerIndex });
  }

  async onEnd(result: FullResult): Promise<void> {
    const finished = new Date();
    let profile: Profile;
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
    const interfaces = targets.map((t) => this.interfaceResult(t, profile, strict));
    this.recordStartErrors(profile);
    const exit = exitCodeOf(interfaces, strict, { interrupted: result.status === 'interrupted', broken: this.broken, grep: process.env[ENV.grep] || undefined });
    const summary: RunSummary = {
      schemaVersion: SUMMARY_SCHEMA_VERSION,
      runId: process.env[ENV.runId] ?? '',
      harness: harnessVersion(),
      startedAt: this.started.toISOString(),
      finishedAt: finished.toISOString(),
      durationMs: finished.getTime() - this.started.getTime(),
      profile: { name: profile.name, file: path.relative(ROOT, profile.file), writes: Boolean(profile.writes) },
      seed: Number(process.env[ENV.seed]),
      depth: process.env[ENV.depth] || 'default',
      strict,
      fault: process.env[ENV.fault] || undefined,
      grep: process.env[ENV.grep] || undefined,
      shard: process.env[ENV.shard] || undefined,
      mergedFrom: process.env[ENV.mergedFrom] ? (JSON.parse(process.env[ENV.mergedFrom]!) as string[]) : undefined,
      interfaces,
      notes: [...new Set(this.notes)],
      writes: this.writes,
      properties: this.properties,
      failedCounted: countedFailures(interfaces, strict),
      inconclusiveCounted: countedInconclusive(interfaces, strict),
      exitCode: exit.code,
      exitReason: exit.reason,
      verdict: exit.code === 0 ? 'passed' : exit.code === 1 ? 'failed' : 'inconclusive',
      brokenTests: this.broken,
      timing: this.timing,
    };
    writeSummaryReports(this.reports, summary);
  }

  /**
   * Errors that kept the run from starting are listed first among the broken tests, with where they arose, and
   * printed (the console shows nothing else of them; --quiet runs have no other reporter): exit 2, the cause named.
   */
  private recordStartErrors(profile: Profile): void {
    if (this.startErrors.length === 0) return;
    const redact = (text: string) => Object.keys(profile.interfaces).reduce((t, name) => (isInterfaceName(name) ? secretsFor(profile, name).redact(t) : t), text);
    const entries = this.startErrors.map((e) => {
      const where = e.location ? `${path.relative(ROOT, e.location.file)}:${e.location.line}:${e.location.column}` : undefined;
      const text = stripColours([e.message ?? e.value ?? 'unknown error', where && `at ${where}`, e.snippet].filter(Boolean).join('\n'));
      return { test: RUN_START, error: redact(text).slice(0, 4000) };
    });
    this.broken.unshift(...entries);
    for (const e of entries) process.stderr.write(`conformance: the run could not start:\n${e.error}\n`);
  }

  private interfaceResult(target: Target, profile: Profile, strict: boolean): InterfaceResult {
    const spec = loadSpec(target.interfaceName);
    const secrets = secretsFor(profile, target.interfaceName);
    const variables = credentialVariables(target.interfaceName, profile.interfaces[target.interfaceName]?.credentials);
    const mine = this.collected.filter((c) => c.interfaceName === target.interfaceName);
    const causes = new Map<string, Cause>();
    const failedIds = new Set(mine.filter((c) => c.verdict.status === 'failed').map((c) => c.verdict.id));

    // One cause per piece of evidence: the same exchanges (or counterexample) failing several requirements are shown once.
    const causeOf = (e: Collected): Cause => {
      const key = evidenceKey(e);
      let cause = causes.get(key);
      if (!cause) {
        const replay = e.evidence?.property?.replay ?? replayCommand({ interfaceName: target.interfaceName, testTitle: e.test });
        cause = {
          id: `${target.interfaceName}-cause-${causes.size + 1}`,
          requirement: e.evidence?.requirement ?? e.verdict.id,
          touches: [],
          test: e.test,
          message: secrets.redact(e.evidence?.message ?? e.verdict.message ?? ''),
          expected: e.evidence?.expected,
          exchanges: e.evidence?.exchanges ?? [],
          replay,
        };
        // The last exchange of the evidence is the one that broke the rule (the others led up to it).
        const broke = cause.exchanges[cause.exchanges.length - 1];
        if (broke?.request) cause.curl = curlOf(broke, variables);
        causes.set(key, cause);
      }
      if (!cause.touches.includes(e.verdict.id)) cause.touches.push(e.verdict.id);
      return cause;
    };

    const requirements: RequirementResult[] = spec.requirements.map((req) => {
      const entries = mine.filter((c) => c.verdict.id === req.id);
      const status = req.observable === false && entries.length === 0 ? 'not-tested' : mergeStatus(entries.map((e) => e.verdict));
      const failures = entries
        .filter((e) => e.verdict.status === 'failed')
        .map((e) => {
          const cause = causeOf(e);
          return { test: e.test, message: secrets.redact(e.verdict.message ?? ''), evidence: e.evidence, replay: cause.replay, cassette: cause.cassette, cause: cause.id };
        });
      // A knock-on only when every failure of it is explained by another failure of the run: one failure of its own
      // makes it a deviation in its own right.
      const failedEntries = entries.filter((e) => e.verdict.status === 'failed');
      const explains = (e: Collected) => (e.verdict.knockOnOf ?? []).filter((id) => failedIds.has(id) && id !== req.id);
      const knockOnOf = failedEntries.every((e) => explains(e).length > 0) ? [...new Set(failedEntries.flatMap(explains))] : [];
      const first = entries.find((e) => e.verdict.status === status && e.verdict.message);
      const message =
        first?.verdict.message ??
        (req.observable === false ? `not observable over HTTP: ${req.why ?? ''}` : entries.length === 0 ? 'no test of this run checks it' : undefined);
      return {
        id: req.id,
        level: req.level,
        text: req.text,
        source: req.source,
        generic: Boolean(req.generic),
        observable: req.observable !== false,
        status,
        // A knock-on is shown beside its cause and never decides the exit code: the cause does.
        counted: isCounted(req.level, strict) && !(status === 'failed' && knockOnOf.length > 0),
        message: message === undefined ? undefined : secrets.redact(message),
        tests: [...new Set(entries.map((e) => e.test))],
        causes: [...new Set(failures.map((f) => f.cause))],
        ...(status === 'failed' && knockOnOf.length ? { knockOnOf } : {}),
        failures,
      };
    });
    // Written once every requirement a cause touches is known; the failures name their cause's cassette.
    for (const cause of causes.values()) {
      if (!cause.exchanges.length) continue;
      cause.cassette = this.writeCassette(cause, target, profile, secrets.redact.bind(secrets));
      // From the repository's root, where npm runs: relative when the reports are under it, else absolute.
      const file = path.join(this.reports, cause.cassette);
      const shown = path.relative(ROOT, file).startsWith('..') ? file : path.relative(ROOT, file);
      cause.isItFixed = replayCassetteCommand(shown);
    }
    const byId = new Map([...causes.values()].map((c) => [c.id, c]));
    for (const r of requirements) for (const f of r.failures) f.cassette = byId.get(f.cause)?.cassette;
    // The headline share counts the generic requirements too: a run that never tried them has not covered the interface.
    const documentReqs = requirements.filter((r) => r.observable && r.status !== 'not-applicable');
    const judged = documentReqs.filter((r) => r.status === 'passed' || r.status === 'failed' || r.status === 'flagged').length;
    return {
      name: target.interfaceName,
      title: spec.title,
      spec: { file: spec.file, sha256: spec.sha256, document: spec.document, section: spec.section },
      target: { baseUrl: target.baseUrl, reference: target.reference, fault: target.fault, ...(target.readings ? { readings: target.readings } : {}) },
      requirements,
      causes: [...causes.values()],
      notShown: spec.notShown.map((p) => this.openPointResult(p, target.interfaceName, profile)),
      totals: totalsOf(requirements),
      exercised: { applicable: documentReqs.length, judged, share: documentReqs.length ? judged / documentReqs.length : 0 },
      operations: this.operationCoverage(spec.operations, target.interfaceName),
    };
  }

  /** Every operation of the spec: whether the run's requests reached it, the statuses they got, and those never seen. */
  private operationCoverage(operations: LoadedSpec['operations'], interfaceName: string): OperationCoverage[] {
    return operationCoverage(operations, this.reached.filter((r) => r.interfaceName === interfaceName));
  }

  /** An open point as the spec lists it, whether the profile states its reading, and the readings the checks saw. */
  private openPointResult(p: OpenPoint, interfaceName: string, profile: Profile): OpenPointResult {
    const seen = new Map<string, { reading?: string; detail?: string; tests: string[] }>();
    for (const r of this.readings.filter((x) => x.interfaceName === interfaceName && x.point === p.id)) {
      const key = JSON.stringify([r.reading, r.detail]);
      const entry = seen.get(key) ?? { ...(r.reading ? { reading: r.reading } : {}), ...(r.detail ? { detail: r.detail } : {}), tests: [] };
      if (!entry.tests.includes(r.test)) entry.tests.push(r.test);
      seen.set(key, entry);
    }
    return { ...p, ...(p.setting ? { stated: isStated(profile, interfaceName, p.setting) } : {}), ...(seen.size ? { seen: [...seen.values()] } : {}) };
  }

  private cassettes = 0;
  private harness: RunSummary['harness'] | undefined;

  /** The exchanges of one cause, with the target and the command that judges it again (never a secret). */
  private writeCassette(cause: Cause, target: Target, profile: Profile, redact: (s: string) => string): string {
    const file = path.join('cassettes', target.interfaceName, `${cause.requirement}-${++this.cassettes}.json`);
    const body: Cassette = {
      schemaVersion: CASSETTE_SCHEMA_VERSION,
      interface: target.interfaceName,
      requirement: cause.requirement,
      touches: cause.touches,
      test: cause.test,
      target: { profile: profile.name, profileFile: path.relative(ROOT, profile.file), baseUrl: target.baseUrl, reference: target.reference, fault: target.fault },
      seed: Number(process.env[ENV.seed]),
      depth: process.env[ENV.depth] || 'default',
      replay: cause.replay,
      exchanges: cause.exchanges,
    };
    mkdirSync(path.dirname(path.join(this.reports, file)), { recursive: true });
    writeFileSync(path.join(this.reports, file), redact(JSON.stringify(body, null, 2)));
    // The same exchanges for the vendor's own tools (devtools, Postman, Insomnia): cassettes/<interface>/<id>-N.har.
    const { name, version } = (this.harness ??= harnessVersion());
    const har = toHar(cause.exchanges, { name, version }, `${cause.requirement}: ${cause.test}`);
    writeFileSync(path.join(this.reports, file.replace(/\.json$/, '.har')), redact(JSON.stringify(har, null, 2)));
    return file;
  }
}

/** Evidence is one cause when it holds the same exchanges (a counterexample is identified by its property case). */
function evidenceKey(e: Collected): string {
  const ev = e.evidence;
  if (!ev) return `${e.test} ${e.verdict.id} ${e.verdict.message ?? ''}`;
  if (ev.exchanges.length === 0) return `${e.test} ${ev.message}`;
  return ev.exchanges.map((x) => `${x.request.method} ${x.request.url} ${x.startedAt}`).join('|');
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
