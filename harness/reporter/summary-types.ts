/**
 * summary.json, declared once: the TypeBox schemas below are both the TypeScript types the harness builds the summary
 * with (`Static`) and what `npm run generate` publishes as schemas/summary.schema.json (harness/published-schemas.ts).
 * A field added here is in the type and in the published schema alike; neither can drift from the other.
 *
 * Built on first use, like the profile's schemas (interfaces/kit/typebox.ts): the processes that only write a summary
 * need its types, never TypeBox itself.
 */
import type { Static } from '@sinclair/typebox';
import { builtOnce } from '../../interfaces/kit/lazy.ts';
import { defRef, typeBox } from '../../interfaces/kit/typebox.ts';
import type { Exchange } from '../http/exchange.ts';
import type { Level } from '../spec/types.ts';
import { choice } from '../validation/choice.ts';
import { VERDICT_STATUSES, type Evidence, type VerdictStatus } from '../verdicts.ts';
import { writeRecordSchema } from '../writes.ts';

/** Bumped when a field of summary.json changes meaning or goes away; schemas/summary.schema.json describes it. */
export const SUMMARY_SCHEMA_VERSION = 2;

const LEVELS = ['must', 'should', 'advisory'] as const satisfies readonly Level[];
// The requirement levels are declared in harness/spec/types.ts; this fails to compile when a level is added there only.
const everyLevel: [Exclude<Level, (typeof LEVELS)[number]>] extends [never] ? true : never = true;
void everyLevel;

/** A pointer to one of the summary schema's `$defs` (see defRef). */
const ref = defRef;

export const summarySchemas = builtOnce(() => {
  const Type = typeBox();
  const strings = (options = {}) => Type.Array(Type.String(), options);
  const count = Type.Integer({ minimum: 0 });

  const status = choice(VERDICT_STATUSES);

  /*
   * Exchanges and evidence are published, as they always were, as objects and nothing more: their shape
   * (harness/http/exchange.ts, harness/verdicts.ts) is the harness's working record, declared there once; spelling
   * it out here would make the published schema stricter, a change of its own.
   */
  const exchange = Type.Unsafe<Exchange>({ type: 'object' });
  const evidence = Type.Unsafe<Evidence>({ type: 'object' });

  const requirement = Type.Object(
    {
      id: Type.String({ pattern: '^[A-Z]+-[A-Z0-9-]+$' }),
      level: choice(LEVELS),
      text: Type.String(),
      source: Type.String(),
      generic: Type.Boolean(),
      observable: Type.Boolean(),
      status: ref('status', status),
      counted: Type.Boolean({ description: "Whether this requirement's outcome decides the exit code (musts; shoulds under --strict)." }),
      message: Type.Optional(Type.String({ description: "Why not applicable, not tested or inconclusive, or the first failure's message." })),
      tests: strings(),
      causes: strings({ description: "The causes (by id, see the interface's causes) whose evidence fails this requirement." }),
      knockOnOf: Type.Optional(strings({ minItems: 1, description: 'Failed requirements of this run whose failure explains this one: it is their knock-on, not a deviation of its own.' })),
      setAside: Type.Optional(choice(['waived', 'in-baseline'], { description: 'why the CI gate set this failure aside: a waiver covers it, or the baseline failed it too' })),
      failures: Type.Array(
        Type.Object(
          {
            test: Type.String(),
            message: Type.String(),
            evidence: Type.Optional(evidence),
            replay: Type.String(),
            cassette: Type.Optional(Type.String()),
            cause: Type.String(),
          },
          { additionalProperties: false },
        ),
      ),
    },
    { additionalProperties: false },
  );

  const cause = Type.Object(
    {
      id: Type.String(),
      requirement: Type.String({ description: 'The requirement the request was testing.' }),
      touches: strings({ minItems: 1 }),
      test: Type.String(),
      message: Type.String(),
      expected: Type.Optional(Type.String()),
      exchanges: Type.Array(exchange),
      replay: Type.String(),
      cassette: Type.Optional(Type.String()),
      isItFixed: Type.Optional(Type.String({ description: 'The command that judges the requirement again against the recorded target: npm run replay -- <cassette>.' })),
      curl: Type.Optional(
        Type.Object(
          { line: Type.String(), signed: Type.Boolean() },
          {
            additionalProperties: false,
            description:
              'a curl command sending the exchange that broke the requirement again, credentials as the environment variables that hold them; signed: it carries a value derived from a secret (a signature, a session token), so npm run replay -- --resend is the way to send it again',
          },
        ),
      ),
    },
    { additionalProperties: false, description: 'One exchange (or one counterexample) shown once, with every requirement its evidence fails.' },
  );

  // Specmatic's API coverage is the model.
  const operation = Type.Object(
    {
      operation: Type.String(),
      exercised: Type.Boolean({ description: 'Whether the API answered a request of it (accepted or refused): a throttle, a 5xx, a redirect or no answer reaches nothing.' }),
      statuses: Type.Array(Type.Integer(), { description: 'The statuses its requests got (0: no answer), ascending.' }),
      unseen: strings({ description: 'Statuses the spec documents for it (or "default") that no request of the run got.' }),
      tests: strings({ description: 'The tests whose requests reached it.' }),
    },
    { additionalProperties: false, description: "One operation of the spec, as the run's requests exercised it." },
  );

  const openPoint = Type.Object(
    {
      id: Type.String(),
      text: Type.String(),
      source: Type.String(),
      readings: Type.Optional(Type.Array(Type.Object({ id: Type.String(), text: Type.String() }, { additionalProperties: false }))),
      requirements: Type.Optional(strings()),
      setting: Type.Optional(Type.String()),
      observable: Type.Optional(Type.Boolean()),
      why: Type.Optional(Type.String()),
      stated: Type.Optional(Type.Boolean({ description: 'whether the profile states the reading the target takes' })),
      seen: Type.Optional(
        Type.Array(
          Type.Object({ reading: Type.Optional(Type.String()), detail: Type.Optional(Type.String()), tests: strings() }, { additionalProperties: false }),
          { description: 'The readings the checks saw the target take, each with the tests that saw it.' },
        ),
      ),
    },
    { additionalProperties: false, description: 'One open point of the spec and what the run saw of it.' },
  );

  // One count per status, every status named: the object's properties come from the one list of statuses.
  const totals = Type.Object(Object.fromEntries(VERDICT_STATUSES.map((s) => [s, count])) as { [S in VerdictStatus]: typeof count }, { additionalProperties: false });

  const iface = Type.Object(
    {
      name: Type.String(),
      title: Type.String(),
      spec: Type.Object(
        { file: Type.String(), sha256: Type.String({ pattern: '^[0-9a-f]{64}$' }), document: Type.String(), section: Type.String() },
        { additionalProperties: false },
      ),
      target: Type.Optional(
        Type.Object(
          {
            baseUrl: Type.String(),
            reference: Type.Boolean(),
            fault: Type.Optional(Type.String()),
            readings: Type.Optional(
              Type.Record(Type.String(), Type.String(), { description: 'the readings of open points the embedded reference was started with (point -> reading)' }),
            ),
          },
          { additionalProperties: false },
        ),
      ),
      requirements: Type.Array(ref('requirement', requirement)),
      causes: Type.Array(ref('cause', cause)),
      notShown: Type.Array(openPoint, { description: "the spec's open points, with the readings the run's checks saw the target take" }),
      totals,
      exercised: Type.Object(
        { applicable: count, judged: count, share: Type.Number({ minimum: 0, maximum: 1 }) },
        {
          additionalProperties: false,
          description:
            'The requirements (the generic ones derived from the spec included) the run judged (passed, failed, flagged), out of those the profile leaves applicable and HTTP can observe.',
        },
      ),
      operations: Type.Optional(
        Type.Array(ref('operation', operation), {
          description:
            'Operation coverage: per operation of the spec, whether a request of the run reached it, the statuses it got (0: no answer), the documented statuses never seen, and the tests that reached it.',
        }),
      ),
    },
    { additionalProperties: false },
  );

  // The waivers file's entries (harness/gate.ts) and the gate's view of them in the summary are one schema.
  const waiver = Type.Object(
    {
      requirement: Type.String({ pattern: '^[A-Z]+(-[A-Z0-9]+)+$', description: 'The id of the requirement whose failure is accepted, as its spec writes it.' }),
      target: Type.Optional(Type.String({ minLength: 1, description: 'The profile name the waiver is for; absent: every target.' })),
      reason: Type.String({ minLength: 1, description: 'Why the failure is accepted (a vendor ticket, say).' }),
      acceptedBy: Type.String({ minLength: 1, description: 'Who accepted it.' }),
      expires: Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'The last day (UTC, YYYY-MM-DD) the waiver holds.' }),
    },
    { additionalProperties: false, description: 'A waiver of the CI gate (--waivers): a known failure of one requirement, accepted until a day.' },
  );

  const gate = Type.Object(
    {
      failOn: choice(['any', 'new']),
      baseline: Type.Optional(Type.String()),
      newFailures: strings({ description: 'interface:id of requirements failing now and not in the baseline (new to the spec ones included).' }),
      fixed: strings(),
      stillFailing: strings(),
      newRequirements: strings(),
      waived: Type.Array(Type.Composite([waiver, Type.Object({ interface: Type.String() })], { additionalProperties: false })),
      expiredWaivers: Type.Array(waiver),
      unusedWaivers: Type.Array(waiver),
    },
    { additionalProperties: false, description: "The CI gate's view, when the run was given a baseline (--baseline) or waivers (--waivers)." },
  );

  const write = writeRecordSchema();

  const summary = Type.Object(
    {
      schemaVersion: Type.Literal(SUMMARY_SCHEMA_VERSION),
      runId: Type.String({ minLength: 1 }),
      harness: Type.Object({ name: Type.String(), version: Type.String(), commit: Type.Optional(Type.String()) }, { additionalProperties: false }),
      startedAt: Type.String({ format: 'date-time' }),
      finishedAt: Type.String({ format: 'date-time' }),
      durationMs: count,
      profile: Type.Object({ name: Type.String(), file: Type.String(), writes: Type.Boolean() }, { additionalProperties: false }),
      seed: Type.Integer(),
      depth: Type.String(),
      strict: Type.Boolean(),
      fault: Type.Optional(Type.String()),
      grep: Type.Optional(Type.String()),
      shard: Type.Optional(Type.String({ pattern: '^[0-9]+/[0-9]+$', description: "this summary is one part of a sharded run (I/N); npm run merge-reports makes the whole run's" })),
      mergedFrom: Type.Optional(strings({ description: "the shards' run ids, for a summary made by npm run merge-reports" })),
      interfaces: Type.Array(ref('interface', iface)),
      notes: strings(),
      writes: Type.Array(ref('write', write)),
      properties: Type.Array(
        Type.Object({ interfaceName: Type.String(), test: Type.String(), property: Type.String(), runs: count }, { additionalProperties: false }),
        { description: 'Generated cases each property ran, its reruns after a failure included.' },
      ),
      failedCounted: strings({ description: 'Failed requirements that decide the exit code: musts, and shoulds too under --strict.' }),
      inconclusiveCounted: strings({ description: 'Counted requirements the run could not decide.' }),
      exitCode: choice([0, 1, 2]),
      exitReason: Type.String({ minLength: 1 }),
      verdict: choice(['passed', 'failed', 'inconclusive']),
      brokenTests: Type.Array(Type.Object({ test: Type.String(), error: Type.String() }, { additionalProperties: false }), {
        description: 'Tests that broke without deciding what they claim: a harness defect, a time-out, an outage.',
      }),
      gate: Type.Optional(gate),
      timing: Type.Array(
        Type.Object(
          {
            interfaceName: Type.String(),
            test: Type.String(),
            startMs: Type.Number(),
            durationMs: Type.Number({ minimum: 0 }),
            plannedWaitMs: Type.Number({ minimum: 0 }),
            workerIndex: Type.Integer(),
          },
          { additionalProperties: false },
        ),
        { description: "Per test: when it ran and how long it must sit out by design (for the benchmark's window floor)." },
      ),
    },
    {
      additionalProperties: false,
      title: 'Conformance run summary (summary.json)',
      description: 'What one conformance run decided, for machines: CI gates, dashboards. schemaVersion changes when a field changes meaning or goes away.',
      // The parts the summary points at by `ref`, so that the schema is whole on its own: Ajv compiles it as it is.
      $defs: { status, interface: iface, requirement, cause, write, operation },
    },
  );

  return { summary, interface: iface, requirement, cause, operation, openPoint, waiver, gate };
});

type Schemas = ReturnType<typeof summarySchemas>;

export type RequirementStatus = VerdictStatus;
export type RunSummary = Static<Schemas['summary']>;
export type InterfaceResult = Static<Schemas['interface']>;
export type RequirementResult = Static<Schemas['requirement']>;
export type Cause = Static<Schemas['cause']>;
export type OperationCoverage = Static<Schemas['operation']>;
export type OpenPointResult = Static<Schemas['openPoint']>;
export type Waiver = Static<Schemas['waiver']>;
export type GateResult = Static<Schemas['gate']>;
