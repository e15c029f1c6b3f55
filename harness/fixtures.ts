import { test as base, expect } from '@playwright/test';
import type fc from 'fast-check';
import { Client } from './http/client.ts';
import { redactExchange, type Exchange } from './http/exchange.ts';
import { freshAddress } from './identity.ts';
import { replayFor, replayToken } from './options.ts';
import type { InterfaceName } from './paths.ts';
import { loadProfile } from './profile/load.ts';
import type { Profile } from './profile/types.ts';
import { runProperty } from './property.ts';
import { replayCommand } from './replay-command.ts';
import type { Secrets } from './secrets.ts';
import { loadSpec } from './spec/load.ts';
import type { LoadedSpec } from './spec/types.ts';
import { publishedTargets, secretsFor, type Target } from './targets.ts';
import { precompile } from './validation/responses.ts';
import { ANNOTATION, RequirementViolation, type Evidence, type PropertyFailureInfo, type Verdict } from './verdicts.ts';
import { WriteJournal } from './writes.ts';

export { expect };
export { reqTags, RequirementViolation } from './verdicts.ts';

/** Evidence keeps the exchanges around a failure, not a whole schedule's worth. */
const EVIDENCE_EXCHANGES = 40;

export interface PropertySpec<T> {
  /** Unique within the suite; it seeds the property and names it in replay commands. */
  id: string;
  /** The requirements this property judges; a failing case names which one it breaks (RequirementViolation). */
  requirements: string[];
  arbitrary: fc.Arbitrary<T>;
  /** Checks one case; requirements in `skip` have already failed and are not judged again. */
  check: (value: T, skip: ReadonlySet<string>) => Promise<void>;
  /** Number of cases at the default depth. */
  runs: number;
}

export interface Identity {
  /** A client address no other test of this run uses. */
  address(): string;
}

type WorkerFixtures = {
  interfaceName: InterfaceName;
  profile: Profile;
  spec: LoadedSpec;
  target: Target;
};

type TestFixtures = {
  secrets: Secrets;
  api: Client;
  verify: (id: string, check: () => Promise<void> | void) => Promise<boolean>;
  notApplicable: (id: string, reason: string) => void;
  /** An advisory's finding: a risk present (flagged) or absent (passed). */
  advise: (id: string, risk: string | undefined) => void;
  note: (text: string) => void;
  /** Time a check must sit out by design (rate-limit windows): the benchmark's floor is made of these. */
  plannedWait: (ms: number) => void;
  property: <T>(spec: PropertySpec<T>) => Promise<void>;
  identity: Identity;
  writes: WriteJournal;
  recorder: Recorder;
};

/** Collects one test's verdicts and evidence, and hands them to the reporter as annotations and attachments. */
class Recorder {
  readonly exchanges: Exchange[] = [];
  readonly verdicts: Verdict[] = [];
  readonly evidence: Array<{ name: string; evidence: Evidence }> = [];
  readonly notes: string[] = [];
  plannedWaitMs = 0;

  constructor(
    private readonly spec: LoadedSpec,
    private readonly tags: string[],
    private readonly secrets: Secrets,
  ) {}

  assertClaimed(id: string): void {
    if (!this.spec.requirements.some((r) => r.id === id)) throw new Error(`harness: ${id} is not a requirement of specs/${this.spec.name}.yaml`);
    if (!this.tags.includes(`@${id}`)) throw new Error(`harness: the test records a verdict for ${id} but is not tagged @${id}`);
  }

  pass(id: string): void {
    this.verdicts.push({ id, status: 'passed' });
  }

  fail(id: string, message: string, exchanges: Exchange[], extra: Partial<Evidence> = {}): void {
    const name = `evidence ${id} #${this.evidence.length + 1}`;
    // Exchanges are captured raw; evidence is where they are redacted, before anything can write them.
    const shown = exchanges.slice(-EVIDENCE_EXCHANGES).map((ex) => redactExchange(ex, this.secrets));
    this.evidence.push({ name, evidence: { requirement: id, message: this.secrets.redact(message), exchanges: shown, ...extra } });
    this.verdicts.push({ id, status: 'failed', message, evidence: name });
  }
}

/** The exchanges a violation names as its evidence, if it names any. */
function shownBy(e: unknown): Exchange[] | undefined {
  return e instanceof RequirementViolation && e.exchanges?.length ? e.exchanges : undefined;
}

function messageOf(e: unknown): string {
  // expect() messages carry terminal colours; evidence is read in a browser.
  return (e instanceof Error ? e.message : String(e)).replace(/\u001b\[[0-9;]*m/g, '');
}

export const test = base.extend<TestFixtures, WorkerFixtures>({
  interfaceName: ['game-bridge', { option: true, scope: 'worker' }],

  profile: [async ({}, use) => use(loadProfile()), { scope: 'worker' }],

  spec: [
    async ({ interfaceName }, use) => {
      const spec = loadSpec(interfaceName);
      precompile(spec);
      await use(spec);
    },
    { scope: 'worker' },
  ],

  target: [
    async ({ interfaceName }, use) => {
      const t = publishedTargets().find((x) => x.interfaceName === interfaceName);
      await use(t as Target);
    },
    { scope: 'worker' },
  ],

  secrets: async ({ profile, interfaceName, spec }, use) => {
    const secrets = secretsFor(profile, interfaceName);
    for (const s of spec.securitySchemes) if (s.headerName) secrets.markSensitiveHeader(s.headerName);
    await use(secrets);
  },

  recorder: [
    async ({ spec, secrets }, use, testInfo) => {
      const recorder = new Recorder(spec, testInfo.tags, secrets);
      await use(recorder);
      // Annotations end up in every report: their messages are redacted like the evidence.
      for (const v of recorder.verdicts) testInfo.annotations.push({ type: ANNOTATION.verdict, description: secrets.redact(JSON.stringify(v)) });
      for (const n of recorder.notes) testInfo.annotations.push({ type: ANNOTATION.note, description: secrets.redact(n) });
      if (recorder.plannedWaitMs > 0) testInfo.annotations.push({ type: ANNOTATION.plannedWait, description: String(Math.round(recorder.plannedWaitMs)) });
      for (const { name, evidence } of recorder.evidence) {
        // Evidence was redacted when recorded; this second pass guards whatever was added to it since.
        await testInfo.attach(name, { body: secrets.redact(JSON.stringify(evidence, null, 2)), contentType: 'application/json' });
      }
      const failed = recorder.verdicts.filter((v) => v.status === 'failed');
      if (failed.length > 0) {
        throw new Error(failed.map((v) => secrets.redact(`${v.id} failed: ${v.message}`)).join('\n'));
      }
    },
    { auto: true },
  ],

  api: async ({ target, spec, secrets, profile, recorder, interfaceName }, use, testInfo) => {
    if (!target) {
      testInfo.skip(true, `${interfaceName} is not in this run's scope`);
      return;
    }
    const client = new Client({
      interfaceName,
      baseUrl: target.baseUrl,
      spec,
      secrets,
      timeoutMs: profile.requestTimeoutMs ?? 5000,
      live: !target.reference,
      requestsPerSecond: profile.requestsPerSecond ?? 0,
      rateShare: 1 / Math.max(1, testInfo.config.workers),
      onExchange: (ex) => recorder.exchanges.push(ex),
    });
    await use(client);
    recordGenericResponseChecks(spec, recorder, testInfo.tags);
  },

  verify: async ({ recorder }, use) => {
    await use(async (id, check) => {
      recorder.assertClaimed(id);
      const start = recorder.exchanges.length;
      try {
        await check();
        recorder.pass(id);
        return true;
      } catch (e) {
        const expected = e instanceof RequirementViolation ? e.expected : undefined;
        recorder.fail(id, messageOf(e), shownBy(e) ?? recorder.exchanges.slice(start), { expected });
        return false;
      }
    });
  },

  notApplicable: async ({ recorder }, use) => {
    await use((id, reason) => {
      recorder.assertClaimed(id);
      recorder.verdicts.push({ id, status: 'not-applicable', message: reason });
    });
  },

  advise: async ({ recorder }, use) => {
    await use((id, risk) => {
      recorder.assertClaimed(id);
      recorder.verdicts.push(risk ? { id, status: 'flagged', message: risk } : { id, status: 'passed' });
    });
  },

  note: async ({ recorder }, use) => {
    await use((text) => recorder.notes.push(text));
  },

  plannedWait: async ({ recorder }, use) => {
    await use((ms) => {
      recorder.plannedWaitMs += ms;
    });
  },

  property: async ({ recorder, secrets, interfaceName }, use, testInfo) => {
    await use(async <T>(p: PropertySpec<T>) => {
      p.requirements.forEach((id) => recorder.assertClaimed(id));
      const replay = replayFor(p.id);
      const skip = new Set<string>(replay?.skip ?? []);
      const failures = new Map<string, { message: string; expected?: string; exchanges: Exchange[]; info: PropertyFailureInfo }>();
      // After a failure, the property runs again with that requirement set aside, so each requirement gets a verdict.
      for (;;) {
        const run = await runProperty(p.id, p.arbitrary, (v) => p.check(v, skip), p.runs, replay?.path);
        if (!run.failed) break;
        const err = run.error;
        const broken = err instanceof RequirementViolation && p.requirements.includes(err.requirement) && !skip.has(err.requirement) ? err.requirement : undefined;
        const start = recorder.exchanges.length;
        let reproduced = false;
        if (run.counterexample !== undefined) {
          try {
            await p.check(run.counterexample, skip);
          } catch (again) {
            reproduced = !broken || (again instanceof RequirementViolation && again.requirement === broken);
          }
        }
        const info: PropertyFailureInfo = {
          property: p.id,
          seed: run.seed,
          path: run.path ?? '',
          numRuns: run.numRuns,
          numShrinks: run.numShrinks,
          counterexample: secrets.redact(JSON.stringify(run.counterexample)),
          replay: replayCommand({ interfaceName, testTitle: testInfo.title, replay: replayToken(p.id, run.path ?? '', skip) }),
          reproduced,
        };
        const failure = { message: messageOf(err), expected: err instanceof RequirementViolation ? err.expected : undefined, exchanges: shownBy(err) ?? recorder.exchanges.slice(start), info };
        if (broken) {
          failures.set(broken, failure);
          skip.add(broken);
          if (replay) break;
          continue;
        }
        // Not a deviation of one requirement (the target stopped answering, the harness broke): all remaining fail.
        for (const id of p.requirements) if (!skip.has(id) && !failures.has(id)) failures.set(id, failure);
        break;
      }
      for (const id of p.requirements) {
        const f = failures.get(id);
        if (!f) {
          if (!replay || !skip.has(id)) recorder.pass(id);
          continue;
        }
        recorder.fail(id, `${f.message}\ncounterexample: ${f.info.counterexample}\nseed ${f.info.seed}, path ${f.info.path}${f.info.reproduced ? '' : ' (did not fail again when re-run: timing-sensitive?)'}\nreplay: ${f.info.replay}`, f.exchanges, {
          expected: f.expected,
          property: f.info,
        });
      }
    });
  },

  identity: async ({}, use, testInfo) => {
    await use({ address: () => freshAddress(testInfo.parallelIndex) });
  },

  writes: async ({ profile, interfaceName }, use, testInfo) => {
    const journal = new WriteJournal(Boolean(profile.writes), interfaceName);
    await use(journal);
    await journal.undoAll();
    for (const w of journal.records) testInfo.annotations.push({ type: ANNOTATION.write, description: JSON.stringify(w) });
  },
});

/**
 * Every response was validated against the spec when it arrived. A problem fails the generic requirement it belongs
 * to wherever it shows; a test tagged with a generic requirement also records its pass.
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
      recorder.fail(id, bad.flatMap((ex) => ex.problems![key]).slice(0, 5).join('\n'), bad);
    } else if (tags.includes(`@${id}`) && recorder.exchanges.some((ex) => ex.response)) {
      recorder.pass(id);
    }
  }
}
