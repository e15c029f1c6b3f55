import { test as base, expect } from '@playwright/test';
import { COUNTED_FAILURES } from './counted.ts';
import type { Client } from './http/client.ts';
import { clientFor } from './http/client-for.ts';
import { PROBE_BLOCK, freshAddress, freshName, lease, reserve, shardShare, type Lease } from './identity.ts';
import { ENV } from './options.ts';
import { loadProfile } from './profile/load.ts';
import type { Profile } from './profile/types.ts';
import { isInterfaceName, type InterfaceName } from '../interfaces/registry.ts';
import type { Suite } from './interface.ts';
import { interfaceOfTest } from './paths.ts';
import type { Secrets } from './secrets.ts';
import { specForTarget } from './spec/for-target.ts';
import type { LoadedSpec } from './spec/types.ts';
import { credentialVariables, publishedTargets, secretsFor, type Target } from './targets.ts';
import { ANNOTATION, NotTested, RequirementViolation, idsOfTags } from './verdicts.ts';
import { WriteJournal } from './writes.ts';
import { journalFile } from './journal.ts';
import { classify, evidenceOf, redactedError } from './classify.ts';
import { Recorder, publish } from './recorder.ts';
import { namedHeaders, observe } from './diff/observation.ts';
import { BEHAVIOUR_ATTACHMENT } from './diff/recording.ts';
import { runRecordedProperty, type PropertySpec } from './property-runner.ts';
import { recordGenericResponseChecks, recordStatusConformance } from './response-checks.ts';
import { runScoped } from './run-scoped.ts';
import { setEnv } from './group/env.ts';
import { configurationOfTest, readManifest } from './group/manifest.ts';

export { expect };
export { deviation, reqTags, Inconclusive, NotTested, RequirementViolation } from './verdicts.ts';
export { Recorder } from './recorder.ts';
export type { PropertySpec, Saw } from './property-runner.ts';

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

type WorkerFixtures = {};

type TestFixtures = {
  /**
   * In a grouped run (harness/group/manifest.ts), the test's configuration: this process's environment is made its
   * run's before anything else of the test is set up. Nothing outside a grouped run.
   */
  configuration: void;
  /** The run's profile (per run: a worker of a grouped run serves several). */
  profile: Profile;
  /**
   * What the interface's suite does with it (suites/<name>/interface.ts): how its requests are authenticated and its
   * target probed. Given by the suite's own `test` (suites/<name>/test.ts, made with suiteTest): the harness never
   * imports a suite.
   */
  suite: Suite;
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

/** Whether a failure of `id` counts in the exit code (musts; shoulds under --strict). */
function counted(spec: LoadedSpec, id: string): boolean {
  // What the gate will set aside (a live waiver, a failure the baseline has too) fails no test either, so that
  // Playwright's own outputs (its console, junit.xml) agree with the exit code the gate gives.
  if ((process.env[ENV.setAside] ?? '').split(',').includes(id)) return false;
  const level = spec.requirements.find((r) => r.id === id)?.level;
  return level === 'must' || (level === 'should' && Boolean(process.env[ENV.strict]));
}

/** Each interface's spec as the run's profile settles it (per run: a worker of a grouped self-test run serves several). */
const specs = runScoped(() => new Map<InterfaceName, LoadedSpec>());

/** The environment this worker started with, under each configuration's of a grouped run (Playwright's own variables kept). */
const WORKER_ENV = { ...process.env };
const manifest = readManifest();
const profileOfRun = runScoped(() => loadProfile());

export const test = base.extend<TestFixtures, WorkerFixtures>({
  // Declared first, so that it is set up first: every other fixture reads the run's settings from the environment.
  configuration: [
    async ({}, use, testInfo) => {
      const index = manifest ? configurationOfTest(testInfo.titlePath) : undefined;
      const configuration = index === undefined ? undefined : manifest!.configurations.find((c) => c.index === index);
      if (manifest && !configuration) throw new Error(`harness: ${testInfo.titlePath.join(' › ')} belongs to no configuration of the grouped run`);
      if (configuration) setEnv({ ...WORKER_ENV, ...configuration.env });
      await use();
    },
    { auto: true },
  ],

  profile: async ({}, use) => use(profileOfRun()),

  suite: async ({}, _use, testInfo) => {
    throw new Error(`harness: ${testInfo.titlePath[0]} takes test from harness/fixtures.ts; a suite's files take it from suites/<name>/test.ts, which gives the suite`);
  },

  interfaceName: async ({ suite }, use, testInfo) => {
    const name = interfaceOfTest(testInfo.titlePath);
    if (!isInterfaceName(name)) throw new Error(`harness: ${testInfo.titlePath[0]} is not in a folder of suites/ named after an interface`);
    if (suite.definition.name !== name) throw new Error(`harness: ${testInfo.titlePath[0]} runs with the suite of ${suite.definition.name}, not of ${name}`);
    await use(name);
  },

  // A worker runs the tests of every interface in scope: each one's spec is loaded once per worker. Its response
  // validators are compiled as responses arrive (harness/validation/responses.ts), not all ahead: a worker that runs
  // a few checks (a self-test fault run, a --grep) compiled the unified spec's hundreds of schemas for nothing.
  spec: async ({ interfaceName, profile }, use) => {
    let spec = specs().get(interfaceName);
    if (!spec) {
      spec = specForTarget(interfaceName, profile.interfaces[interfaceName]?.settings);
      specs().set(interfaceName, spec);
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
    async ({ spec, secrets, interfaceName }, use, testInfo) => {
      const recorder = new Recorder(spec, testInfo.tags, secrets);
      await use(recorder);
      publish(recorder, secrets, testInfo);
      if (process.env[ENV.behaviour]) {
        const observations = observe(recorder.exchanges, { interfaceName, test: testInfo.title, requirements: idsOfTags(testInfo.tags), headers: namedHeaders(spec) });
        await testInfo.attach(BEHAVIOUR_ATTACHMENT, { body: secrets.redact(JSON.stringify(observations)), contentType: 'application/json' });
      }
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

  api: async ({ suite, target, spec, secrets, profile, recorder, interfaceName, writes }, use, testInfo) => {
    if (!target) {
      testInfo.skip(true, `${interfaceName} is not in this run's scope`);
      return;
    }
    const entry = profile.interfaces[interfaceName];
    const credentialEnv = credentialVariables(interfaceName, entry?.credentials);
    const probe = suite.probe({ profile, settings: entry?.settings, secrets, credentialEnv, credentials: entry?.credentials, address: () => freshAddress(PROBE_BLOCK) });
    const client = clientFor({
      profile,
      interfaceName,
      baseUrl: target.baseUrl,
      spec,
      secrets,
      authenticate: suite.authenticate,
      purpose: 'checks',
      live: !target.reference,
      workers: testInfo.config.workers,
      onExchange: (ex) => recorder.exchanges.push(ex),
      onWrite: (op, ex, kind) => writes.sent(op.key, op.write ?? 'a write', ex.label, kind),
      health: { request: probe.request, ok: (reply) => probe.judge(reply) === undefined, probedToo: (probe.credentials ?? []).map((c) => c.request) },
    });
    await use(client);
    recordGenericResponseChecks(spec, recorder, testInfo.tags);
    recordStatusConformance(spec, recorder, testInfo.tags);
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

/**
 * The test of one suite: the harness's fixtures with the suite's behaviour (its authentication, its probe). Each suite
 * makes its own once, in suites/<name>/test.ts, and its files take `test` from there.
 */
export function suiteTest(suite: Suite) {
  return Object.assign(test.extend({ suite: async ({}, use) => use(suite) }), { interfaceName: suite.definition.name });
}

export type SuiteTest = ReturnType<typeof suiteTest>;
