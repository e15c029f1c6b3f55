import { test as base, expect, type TestInfo } from '@playwright/test';
import type fc from 'fast-check';
import { COUNTED_FAILURES } from './counted.ts';
import { HarnessError, TargetError, type Client } from './http/client.ts';
import { clientFor } from './http/client-for.ts';
import { redactExchange, type Exchange } from './http/exchange.ts';
import { PROBE_BLOCK, freshAddress, freshName, lease, reserve, shardShare, type Lease } from './identity.ts';
import { ENV, replayFor, replayToken } from './options.ts';
import { loadProfile } from './profile/load.ts';
import type { Profile } from './profile/types.ts';
import { runProperty } from './property.ts';
import { descriptorOf, isInterfaceName, type InterfaceName } from './registry.ts';
import { interfaceOfTest } from './paths.ts';
import { replayCommand } from './replay-command.ts';
import type { Secrets } from './secrets.ts';
import { specForTarget } from './spec/for-target.ts';
import type { LoadedSpec } from './spec/types.ts';
import { credentialVariables, publishedTargets, secretsFor, type Target } from './targets.ts';
import { precompile } from './validation/responses.ts';
import { ANNOTATION, Inconclusive, NotTested, RequirementViolation, type Evidence, type PropertyFailureInfo, type SeenReading, type Verdict } from './verdicts.ts';
import { WriteJournal } from './writes.ts';
import { journalFile } from './journal.ts';

export { expect };
export { deviation, reqTags, Inconclusive, NotTested, RequirementViolation } from './verdicts.ts';

/** Evidence keeps the exchanges around a failure, not a whole schedule's worth. */
const EVIDENCE_EXCHANGES = 40;

export interface PropertySpec<T> {
  /** Unique within the suite; it seeds the property and names it in replay commands. */
  id: string;
  /** The requirements this property judges; a failing case names which one it breaks (RequirementViolation). */
  requirements: string[];
  arbitrary: fc.Arbitrary<T>;
  /**
   * Checks one case; requirements in `skip` have already failed and are not judged again. `saw(id)` says the case
   * reached the condition of a requirement and the target met it: a requirement nobody saw is not tested, not passed.
   */
  check: (value: T, skip: ReadonlySet<string>, saw: Saw) => Promise<void>;
  /**
   * The requirements a case was testing, as the model names them: a case whose request got no answer (a reset, a
   * closed connection) while the target answers everything else is evidence against these, and only these.
   */
  testing: (value: T) => string[];
  /** Number of cases at the default depth. */
  runs: number;
}

/**
 * Says a case reached a requirement's condition. With `unsettled`, it reached it but could not decide it (a refusal
 * whose control the target refused too): a requirement only ever unsettled ends inconclusive, with that reason,
 * rather than passed or "not reached".
 */
export type Saw = (id: string, unsettled?: string) => void;

/**
 * Identities for checks that count or keep state, fresh per test and never reused within a run (not even by the
 * worker that replaces one that failed): a client address, or a name for a user, a configuration document, a customer.
 */
export interface Identity {
  /** A client address no other test of this run uses. */
  address(): string;
  /** A name of this kind no other test of this run uses. */
  name(kind: string): string;
  /**
   * A member of a pool the profile lists (an API key), to this test alone until it ends: waits up to `waitMs` for one
   * to come free; undefined when none did (the check is then not applicable: the pool is too small), or at once when
   * this shard of a sharded run against a live target has no member of its own (see shardShare).
   */
  lease(kind: string, members: readonly number[], waitMs?: number): Promise<Lease | undefined>;
  /** `amount` consecutive numbers of a kind no other test of this run gets: the worker's block and the first number. */
  reserve(kind: string, amount: number): { block: number; first: number };
}

type WorkerFixtures = {
  profile: Profile;
};

type TestFixtures = {
  /** The interface under test: the folder of the test's file under suites/. */
  interfaceName: InterfaceName;
  spec: LoadedSpec;
  target: Target;
  secrets: Secrets;
  api: Client;
  /**
   * Judges one requirement: a check that returns passes it, unless it names observations a pass `needs` (an update
   * accepted, a header actually sent) and did not report each with `seen(what)`: then the verdict is "not tested",
   * naming what was missing. The recorder enforces this, so that no check can pass on a condition it never saw.
   */
  verify: (id: string, check: (seen: (observation: string) => void) => Promise<void> | void, o?: { needs?: readonly string[] }) => Promise<boolean>;
  notApplicable: (id: string, reason: string) => void;
  notTested: (id: string, reason: string) => void;
  /** An advisory's finding: a risk present (flagged) or absent (passed). */
  advise: (id: string, risk: string | undefined) => void;
  note: (text: string) => void;
  /**
   * The reading of an open point the target was seen to take (one of the point's readings in the spec), or, with no
   * reading, what it did that no listed reading describes (`detail`). The report shows, per open point, the readings
   * its checks saw.
   */
  reading: (point: string, reading: string | undefined, detail?: string) => void;
  /** Time a check must sit out by design (rate-limit windows): the benchmark's floor is made of these. */
  plannedWait: (ms: number) => void;
  property: <T>(spec: PropertySpec<T>) => Promise<void>;
  identity: Identity;
  writes: WriteJournal;
  recorder: Recorder;
};

/** Collects one test's verdicts and evidence, and hands them to the reporter as annotations and attachments. */
export class Recorder {
  readonly exchanges: Exchange[] = [];
  readonly verdicts: Verdict[] = [];
  readonly evidence: Array<{ name: string; evidence: Evidence }> = [];
  readonly notes: string[] = [];
  readonly cases: Array<{ property: string; runs: number }> = [];
  readonly readings: SeenReading[] = [];
  plannedWaitMs = 0;
  /** Why a check of this test could not decide (an outage, say): what the test then did not see is inconclusive, not untested. */
  trouble?: string;

  constructor(
    private readonly spec: LoadedSpec,
    private readonly tags: string[],
    private readonly secrets: Secrets,
  ) {}

  claims(id: string): boolean {
    return this.tags.includes(`@${id}`);
  }

  assertClaimed(id: string): void {
    if (!this.spec.requirements.some((r) => r.id === id)) throw new Error(`harness: ${id} is not a requirement of specs/${this.spec.name}.yaml`);
    if (!this.claims(id)) throw new Error(`harness: the test records a verdict for ${id} but is not tagged @${id}`);
  }

  /** Records a reading of an open point once per test; an unknown point or reading is the harness's own mistake. */
  sawReading(point: string, reading: string | undefined, detail?: string): void {
    const p = this.spec.notShown.find((n) => n.id === point);
    if (!p) throw new Error(`harness: ${point} is not an open point of specs/${this.spec.name}.yaml`);
    if (reading !== undefined && !p.readings?.some((r) => r.id === reading)) throw new Error(`harness: ${point} has no reading ${reading} in specs/${this.spec.name}.yaml`);
    if (reading === undefined && !detail) throw new Error(`harness: a reading of ${point} outside the spec's list says what the target did`);
    if (this.readings.some((r) => r.point === point && r.reading === reading && r.detail === detail)) return;
    this.readings.push(reading === undefined ? { point, detail } : detail ? { point, reading, detail } : { point, reading });
  }

  /** Whether a requirement already has a verdict from this test. */
  judged(id: string): boolean {
    return this.verdicts.some((v) => v.id === id);
  }

  /**
   * `hidesOthers: false`: an inconclusive that is about this requirement alone (its control was refused), not trouble
   * that may have hidden the conditions of the test's other requirements.
   */
  record(id: string, status: Verdict['status'], message?: string, o: { hidesOthers?: boolean } = {}): void {
    if (status === 'inconclusive' && o.hidesOthers !== false) this.trouble ??= message;
    // A condition not seen after the test ran into trouble may have been hidden by it.
    if (status === 'not-tested' && this.trouble) {
      status = 'inconclusive';
      message = `${message ?? 'not seen'}; this test could not decide another check (${this.trouble.split('\n')[0]})`;
    }
    this.verdicts.push(message === undefined ? { id, status } : { id, status, message });
  }

  /**
   * Fails `ids` with one piece of evidence: the first is the requirement the request was testing, the others are what
   * the same exchange breaks too. The report shows the evidence once, as the cause, and lists the requirements it touches.
   */
  fail(ids: string[], message: string, exchanges: Exchange[], extra: Partial<Evidence> & { knockOnOf?: string[] } = {}): void {
    const name = `evidence ${ids[0]} #${this.evidence.length + 1}`;
    const { knockOnOf, ...rest } = extra;
    // Exchanges are captured raw; evidence is where they are redacted, before anything can write them.
    const shown = exchanges.slice(-EVIDENCE_EXCHANGES).map((ex) => redactExchange(ex, this.secrets));
    this.evidence.push({ name, evidence: { requirement: ids[0], message: this.secrets.redact(message), exchanges: shown, touches: ids, ...rest } });
    for (const id of ids) this.verdicts.push({ id, status: 'failed', message, evidence: name, ...(knockOnOf?.length ? { knockOnOf } : {}) });
  }
}

/** An error as Playwright may show it: its message and stack, redacted, and nothing else of the original. */
function redactedError(e: unknown, secrets: Secrets): Error {
  const out = new Error(secrets.redact(messageOf(e)));
  out.stack = secrets.redact(e instanceof Error && e.stack ? e.stack.replace(/\u001b\[[0-9;]*m/g, '') : out.message);
  return out;
}

/** A counterexample as text: its own description where it has one (a command sequence), else its JSON. */
function shown(value: unknown): string {
  // Objects that describe themselves (command sequences) say what they are; data (arrays, and fast-check's records,
  // which have no prototype and so no toString to call) is shown as JSON.
  if (value && typeof value === 'object' && !Array.isArray(value) && typeof value.toString === 'function' && value.toString !== Object.prototype.toString) return String(value);
  return JSON.stringify(value) ?? String(value);
}

function messageOf(e: unknown): string {
  // expect() messages carry terminal colours; evidence is read in a browser.
  return (e instanceof Error ? e.message : String(e)).replace(/\u001b\[[0-9;]*m/g, '');
}

/** The exchanges a deviation shows: those it names, the one that got no answer, or else what the check sent. */
function evidenceOf(e: unknown, sent: Exchange[]): Exchange[] {
  if (e instanceof RequirementViolation && e.exchanges?.length) return e.exchanges;
  return e instanceof TargetError ? [e.exchange] : sent;
}

/**
 * An assertion of Playwright's expect: it carries its matcher's result, or (a value of the wrong type for the matcher,
 * a count that is a string) says so in a message that starts with the expect call.
 */
const isExpectError = (e: unknown) => e instanceof Error && ('matcherResult' in e || /^expect\(/.test(messageOf(e)));

/**
 * What an error thrown by a check says: a deviation of the target (with its evidence), or the harness's or the
 * environment's trouble. A request that got no answer is a deviation only while the target answers others normally.
 */
async function classify(e: unknown, api: Client | undefined): Promise<{ kind: 'deviation' | 'no-answer' | 'not-tested' | 'inconclusive'; message: string }> {
  const message = messageOf(e);
  if (e instanceof NotTested) return { kind: 'not-tested', message };
  if (e instanceof RequirementViolation || isExpectError(e)) return { kind: 'deviation', message };
  if (e instanceof TargetError) {
    if (e.kind === 'given-up') return { kind: 'inconclusive', message: `outage: ${message}` };
    if (api && !(await api.stillAnswers())) return { kind: 'inconclusive', message: `outage: ${message}; the target no longer answers a harmless documented request either` };
    return { kind: 'no-answer', message: `${message}, while the target answers other requests normally` };
  }
  if (e instanceof Inconclusive) return { kind: 'inconclusive', message };
  if (e instanceof HarnessError) return { kind: 'inconclusive', message: message.startsWith('harness') ? message : `harness error (not a verdict on the target): ${message}` };
  return { kind: 'inconclusive', message: `the check broke (a harness error, not a verdict on the target): ${message}` };
}

/** Whether a failure of `id` counts in the exit code (musts; shoulds under --strict). */
function counted(spec: LoadedSpec, id: string): boolean {
  const level = spec.requirements.find((r) => r.id === id)?.level;
  return level === 'must' || (level === 'should' && Boolean(process.env[ENV.strict]));
}

const specs = new Map<InterfaceName, LoadedSpec>();

export const test = base.extend<TestFixtures, WorkerFixtures>({
  profile: [async ({}, use) => use(loadProfile()), { scope: 'worker' }],

  interfaceName: async ({}, use, testInfo) => {
    const name = interfaceOfTest(testInfo.titlePath);
    if (!isInterfaceName(name)) throw new Error(`harness: ${testInfo.titlePath[0]} is not in a folder of suites/ named after an interface`);
    await use(name);
  },

  // A worker runs the tests of every interface in scope: each one's spec is loaded and compiled once per worker.
  spec: async ({ interfaceName, profile }, use) => {
    let spec = specs.get(interfaceName);
    if (!spec) {
      spec = specForTarget(interfaceName, profile.interfaces[interfaceName]?.settings);
      precompile(spec);
      specs.set(interfaceName, spec);
    }
    await use(spec);
  },

  target: async ({ interfaceName }, use) => {
    await use(publishedTargets().find((x) => x.interfaceName === interfaceName) as Target);
  },

  secrets: async ({ profile, interfaceName, spec }, use) => {
    const secrets = secretsFor(profile, interfaceName);
    for (const s of spec.securitySchemes) if (s.headerName) secrets.markSensitiveHeader(s.headerName);
    await use(secrets);
  },

  recorder: [
    async ({ spec, secrets }, use, testInfo) => {
      const recorder = new Recorder(spec, testInfo.tags, secrets);
      await use(recorder);
      publish(recorder, secrets, testInfo);
      // What the test threw outside a step (a fixture's error, a crash) is in Playwright's own report as thrown: the
      // test's end is reported after this teardown, so its errors are redacted here.
      for (const err of testInfo.errors) {
        for (const k of ['message', 'stack', 'value'] as const) if (typeof err[k] === 'string') err[k] = secrets.redact(err[k]);
      }
      for (const { name, evidence } of recorder.evidence) {
        // Evidence was redacted when recorded; this second pass guards whatever was added to it since.
        await testInfo.attach(name, { body: secrets.redact(JSON.stringify(evidence, null, 2)), contentType: 'application/json' });
      }
      // Playwright's own verdict (console, its HTML report, its JUnit) agrees with the exit code: a test fails when a
      // requirement that counts failed; a failed should of a non-strict run and an inconclusive check do not fail it.
      const failed = recorder.verdicts.filter((v) => v.status === 'failed' && counted(spec, v.id));
      // The self-test judges from the conformance report alone; there a failed test would only cost a new worker process.
      if (failed.length > 0 && !process.env.HARNESS_SELFTEST) {
        throw new Error(`${COUNTED_FAILURES}\n${failed.map((v) => secrets.redact(`${v.id} failed: ${v.message}`)).join('\n')}`);
      }
    },
    { auto: true },
  ],

  api: async ({ target, spec, secrets, profile, recorder, interfaceName, writes }, use, testInfo) => {
    if (!target) {
      testInfo.skip(true, `${interfaceName} is not in this run's scope`);
      return;
    }
    const entry = profile.interfaces[interfaceName];
    const credentialEnv = credentialVariables(interfaceName, entry?.credentials);
    const descriptor = descriptorOf(interfaceName);
    const probe = descriptor.probe({ profile, settings: entry?.settings, secrets, credentialEnv, credentials: entry?.credentials, address: () => freshAddress(PROBE_BLOCK) });
    const client = clientFor({
      profile,
      interfaceName,
      baseUrl: target.baseUrl,
      spec,
      secrets,
      purpose: 'checks',
      live: !target.reference,
      workers: testInfo.config.workers,
      onExchange: (ex) => recorder.exchanges.push(ex),
      onWrite: (op, ex, kind) => writes.sent(op.key, op.write ?? 'a write', ex.label, kind),
      health: { request: probe.request, ok: (reply) => probe.judge(reply) === undefined },
    });
    await use(client);
    recordGenericResponseChecks(spec, recorder, testInfo.tags);
  },

  verify: async ({ recorder, api, spec, secrets }, use) => {
    await use(async (id, check, o = {}) => {
      recorder.assertClaimed(id);
      const start = recorder.exchanges.length;
      const observed = new Set<string>();
      const seen = (observation: string) => {
        if (!o.needs?.includes(observation)) throw new Error(`harness: the check of ${id} reports "${observation}", which it does not list in needs`);
        observed.add(observation);
      };
      const req = spec.requirements.find((r) => r.id === id);
      let caught: unknown;
      let done = false;
      // One step per requirement: Playwright's report and trace show the requirement and, for a deviation, the line
      // that found it (the step fails there; the test goes on to its other requirements).
      await base
        .step(`${id} (${req?.level}): ${req?.text ?? ''}`, async () => {
          try {
            await check(seen);
            done = true;
          } catch (e) {
            caught = e;
            // Playwright keeps a step's error as thrown, in its HTML report: it gets the redacted text alone.
            if (!(e instanceof NotTested)) throw redactedError(e, secrets);
          }
        })
        .catch(() => {});
      const missing = (o.needs ?? []).filter((n) => !observed.has(n));
      if (done && missing.length) {
        recorder.record(id, 'not-tested', `the check ended without seeing what a pass needs: ${missing.join('; ')}`);
        return false;
      }
      if (done) {
        recorder.record(id, 'passed');
        return true;
      }
      const e = caught;
      const c = await classify(e, api);
      if (c.kind === 'not-tested') recorder.record(id, 'not-tested', c.message);
      else if (c.kind === 'inconclusive') recorder.record(id, 'inconclusive', c.message);
      else {
        const v = e instanceof RequirementViolation ? e : undefined;
        const exchanges = evidenceOf(e, recorder.exchanges.slice(start));
        const also = (v?.requirements ?? []).filter((r) => r !== id && recorder.claims(r) && !recorder.judged(r));
        recorder.fail([id, ...also], c.message, exchanges, { expected: v?.expected, knockOnOf: v?.knockOnOf });
      }
      return false;
    });
  },

  notApplicable: async ({ recorder }, use) => {
    await use((id, reason) => {
      recorder.assertClaimed(id);
      recorder.record(id, 'not-applicable', reason);
    });
  },

  notTested: async ({ recorder }, use) => {
    await use((id, reason) => {
      recorder.assertClaimed(id);
      recorder.record(id, 'not-tested', reason);
    });
  },

  advise: async ({ recorder }, use) => {
    await use((id, risk) => {
      recorder.assertClaimed(id);
      recorder.record(id, risk ? 'flagged' : 'passed', risk);
    });
  },

  note: async ({ recorder }, use) => {
    await use((text) => recorder.notes.push(text));
  },

  reading: async ({ recorder, secrets }, use) => {
    await use((point, reading, detail) => recorder.sawReading(point, reading, detail === undefined ? undefined : secrets.redact(detail)));
  },

  plannedWait: async ({ recorder }, use) => {
    await use((ms) => {
      recorder.plannedWaitMs += ms;
    });
  },

  property: async ({ recorder, secrets, interfaceName, api }, use, testInfo) => {
    await use((p) => runRecordedProperty(p, { recorder, secrets, interfaceName, api, testInfo }));
  },

  identity: async ({ target }, use, testInfo) => {
    const leases: Lease[] = [];
    await use({
      address: () => freshAddress(testInfo.parallelIndex),
      name: (kind) => freshName(kind, testInfo.parallelIndex),
      reserve: (kind, amount) => reserve(kind, testInfo.parallelIndex, amount),
      lease: async (kind, members, waitMs = 30_000) => {
        // A live target is shared by the shards of a run; each embedded reference belongs to one shard alone.
        const mine = target && !target.reference ? shardShare(members) : members;
        if (mine.length === 0) return undefined;
        const l = await lease(kind, mine, waitMs);
        if (l) leases.push(l);
        return l;
      },
    });
    for (const l of leases) l.release();
  },

  // Depends on identity so that leased keys are released only after the undo steps that may need them.
  writes: async ({ profile, interfaceName, identity: _leasesOutliveUndo, target, secrets }, use, testInfo) => {
    // Against a live target, writes announced with `intend` are recorded on disk first: `npm run restore` undoes what
    // an interrupted run left behind.
    const file = target && !target.reference ? { path: journalFile(profile.name), run: process.env[ENV.runId] ?? 'unknown', baseUrl: target.baseUrl, redact: (t: string) => secrets.redact(t) } : undefined;
    const journal = new WriteJournal(Boolean(profile.writes), interfaceName, file);
    await use(journal);
    await journal.undoAll();
    for (const w of journal.records) testInfo.annotations.push({ type: ANNOTATION.write, description: JSON.stringify(w) });
  },
});

/** Annotations end up in every report: their messages are redacted like the evidence. */
function publish(recorder: Recorder, secrets: Secrets, testInfo: TestInfo): void {
  for (const v of recorder.verdicts) testInfo.annotations.push({ type: ANNOTATION.verdict, description: secrets.redact(JSON.stringify(v)) });
  for (const n of recorder.notes) testInfo.annotations.push({ type: ANNOTATION.note, description: secrets.redact(n) });
  for (const c of recorder.cases) testInfo.annotations.push({ type: ANNOTATION.cases, description: JSON.stringify(c) });
  for (const r of recorder.readings) testInfo.annotations.push({ type: ANNOTATION.reading, description: secrets.redact(JSON.stringify(r)) });
  if (recorder.plannedWaitMs > 0) testInfo.annotations.push({ type: ANNOTATION.plannedWait, description: String(Math.round(recorder.plannedWaitMs)) });
}

interface PropertyContext {
  recorder: Recorder;
  secrets: Secrets;
  interfaceName: string;
  api: Client;
  testInfo: TestInfo;
}

/**
 * Runs a property until every requirement it claims has a verdict: after a counterexample, the requirements it breaks
 * are set aside and the property runs again, so each failed requirement gets its own shrunk counterexample and a
 * second deviation is not hidden behind the first. A request that got no answer blames the requirements its case was
 * testing, as long as the target answers others; an outage or a harness error leaves the rest inconclusive.
 */
async function runRecordedProperty<T>(p: PropertySpec<T>, ctx: PropertyContext): Promise<void> {
  const { recorder, secrets, api, testInfo } = ctx;
  p.requirements.forEach((id) => recorder.assertClaimed(id));
  const replay = replayFor(p.id);
  const skip = new Set<string>(replay?.skip ?? []);
  const seen = new Set<string>();
  const unsettled = new Map<string, string>();
  const saw: Saw = (id, why) => void (why === undefined ? seen.add(id) : unsettled.has(id) || unsettled.set(id, why));
  let outage: string | undefined;
  let inconclusive: string | undefined;
  let untested: string | undefined;
  let cases = 0;
  for (;;) {
    const run = await runProperty(
      p.id,
      p.arbitrary,
      async (v) => {
        try {
          await p.check(v, skip, saw);
        } catch (e) {
          // Once the target is given up, nothing a case shows is about the case: no counterexample, no shrinking on it.
          if (e instanceof TargetError && e.kind === 'given-up') {
            outage ??= `outage: ${messageOf(e)}`;
            return;
          }
          // No answer to a case whose requirements have all failed already: set aside, like an answer judged for them.
          if (e instanceof TargetError && p.testing(v).every((id) => skip.has(id))) return;
          // A deviation of requirements already set aside ends the case without a verdict: what follows it in the case
          // (an order without an id to look up, a book the model no longer predicts) cannot be judged.
          if (e instanceof RequirementViolation && e.requirements.every((id) => skip.has(id))) return;
          throw e;
        }
      },
      p.runs,
      replay?.path,
    );
    cases += run.numRuns;
    if (outage || !run.failed) break;
    const err = run.error;
    const c = await classify(err, api);
    // A case that says it cannot be judged (what it needs, the profile does not state) ends the property untested:
    // not the environment's trouble, and never the target's.
    if (c.kind === 'not-tested') {
      untested = c.message;
      break;
    }
    if (c.kind === 'inconclusive') {
      if (c.message.startsWith('outage')) outage = c.message;
      else inconclusive = c.message;
      break;
    }
    let broken: string[];
    if (c.kind === 'no-answer') broken = run.counterexample === undefined ? [] : p.testing(run.counterexample);
    else broken = err instanceof RequirementViolation ? err.requirements : [];
    broken = broken.filter((id) => p.requirements.includes(id) && !skip.has(id));
    if (broken.length === 0) {
      inconclusive = `the property failed without naming a requirement it judges: ${c.message}`;
      break;
    }
    const start = recorder.exchanges.length;
    let reproduced = false;
    if (run.counterexample !== undefined) {
      try {
        await p.check(run.counterexample, skip, () => {});
      } catch (again) {
        reproduced = again instanceof TargetError ? c.kind === 'no-answer' : again instanceof RequirementViolation && again.requirement === broken[0];
      }
    }
    const info: PropertyFailureInfo = {
      property: p.id,
      seed: run.seed,
      path: run.path ?? '',
      numRuns: run.numRuns,
      numShrinks: run.numShrinks,
      counterexample: secrets.redact(shown(run.counterexample)),
      replay: replayCommand({ interfaceName: ctx.interfaceName, testTitle: testInfo.title, replay: replayToken(p.id, run.path ?? '', skip) }),
      reproduced,
    };
    const v = err instanceof RequirementViolation ? err : undefined;
    const exchanges = evidenceOf(err, recorder.exchanges.slice(start));
    const message = `${c.message}\ncounterexample: ${info.counterexample}\nseed ${info.seed}, path ${info.path}${info.reproduced ? '' : ' (did not fail again when re-run: timing-sensitive?)'}\nreplay: ${info.replay}`;
    recorder.fail(broken, message, exchanges, { expected: v?.expected, property: info, knockOnOf: v?.knockOnOf });
    broken.forEach((id) => skip.add(id));
    if (replay) break;
  }
  recorder.cases.push({ property: p.id, runs: cases });
  for (const id of p.requirements) {
    if (recorder.judged(id) || (replay && skip.has(id))) continue;
    if (outage) recorder.record(id, 'inconclusive', outage);
    else if (inconclusive) recorder.record(id, 'inconclusive', inconclusive);
    else if (seen.has(id)) recorder.record(id, 'passed');
    else if (unsettled.has(id)) recorder.record(id, 'inconclusive', unsettled.get(id), { hidesOthers: false });
    else if (untested) recorder.record(id, 'not-tested', untested);
    else recorder.record(id, 'not-tested', `none of the ${cases} generated cases reached the condition this requirement is about`);
  }
}

/**
 * Every response was validated against the spec when it arrived. A problem fails the generic requirement it belongs
 * to wherever it shows; a test tagged with a generic requirement records its pass only when a response it sent could
 * be held to that check (a documented status with a schema, a media type, headers).
 */
function recordGenericResponseChecks(spec: LoadedSpec, recorder: Recorder, tags: string[]): void {
  const kinds = [
    ['SCHEMA', 'schema'],
    ['CONTENT-TYPE', 'contentType'],
    ['HEADERS', 'headers'],
  ] as const;
  for (const [suffix, key] of kinds) {
    const id = `${spec.prefix}-GEN-${suffix}`;
    if (!spec.requirements.some((r) => r.id === id)) continue;
    const bad = recorder.exchanges.filter((ex) => ex.problems?.[key].length);
    if (bad.length > 0) {
      recorder.fail([id], bad.flatMap((ex) => ex.problems![key]).slice(0, 5).join('\n'), bad);
    } else if (tags.includes(`@${id}`) && !recorder.judged(id)) {
      if (recorder.exchanges.some((ex) => ex.checked?.[key])) recorder.record(id, 'passed');
      else recorder.record(id, 'not-tested', `no response of this test had a documented status whose ${key === 'contentType' ? 'media type' : key} the spec gives`);
    }
  }
}
