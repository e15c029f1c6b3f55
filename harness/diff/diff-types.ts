/**
 * diff.json, declared once (issue 25): the TypeBox schemas below are both the types the behaviour diff is built with
 * and what `npm run generate` publishes as schemas/diff.schema.json (harness/published-schemas.ts), as for
 * summary.json. The waivers of differences (`differences:` in the waivers file) are declared here too.
 */
import type { Static } from '@sinclair/typebox';
import { builtOnce } from '../../interfaces/kit/lazy.ts';
import { defRef, typeBox } from '../../interfaces/kit/typebox.ts';
import { choice } from '../validation/choice.ts';

/** Bumped when a field of diff.json changes meaning or goes away. */
export const DIFF_SCHEMA_VERSION = 1;

export const DIFFERENCE_KINDS = ['status', 'refusal-status', 'members', 'headers', 'timing', 'only-one-side'] as const;
export type DifferenceKind = (typeof DIFFERENCE_KINDS)[number];

/** A pointer to one of diff.json's schema `$defs` (see defRef). */
const ref = defRef;

export const diffSchemas = builtOnce(() => {
  const Type = typeBox();
  const count = Type.Integer({ minimum: 0 });
  const strings = (options = {}) => Type.Array(Type.String(), options);

  const observation = Type.Object(
    {
      interfaceName: Type.String(),
      test: Type.String({ description: "The check's title." }),
      requirements: strings({ description: 'The requirements the check judges.' }),
      label: Type.String({ description: "The exchange's label, its numbers and ids replaced by #." }),
      ordinal: count,
      operation: Type.Optional(Type.String()),
      status: Type.Union([Type.Integer(), Type.Literal('error')], { description: 'The status, or error where no answer came.' }),
      members: Type.Optional(Type.Record(Type.String(), choice(['string', 'number', 'boolean', 'null', 'object', 'array']), { description: 'A JSON answer: member path -> type. Absent: not JSON.' })),
      headers: Type.Record(Type.String(), Type.Union([Type.String(), Type.Literal(true)]), { description: 'The headers the spec names that the answer carries (true), and its media type (content-type).' }),
      durationMs: Type.Number({ minimum: 0 }),
    },
    { additionalProperties: false, description: 'What a client relies on in one exchange: never its values.' },
  );

  const sample = Type.Object(
    {
      test: Type.String(),
      label: Type.String(),
      ordinal: count,
      detail: Type.String({ description: 'What differs, in words: "400 against 422" (baseline first).' }),
      baseline: Type.Optional(ref('observation', observation)),
      candidate: Type.Optional(ref('observation', observation)),
    },
    { additionalProperties: false },
  );

  const waiver = Type.Object(
    {
      on: Type.String({ minLength: 1, description: 'An open point id (U-NS-...), an operation ("GET /v2/status") or an interface name the accepted difference falls on.' }),
      kind: Type.Optional(choice(DIFFERENCE_KINDS)),
      target: Type.Optional(Type.String({ minLength: 1, description: 'The profile name of the candidate side it is for; absent: every target.' })),
      reason: Type.String({ minLength: 1 }),
      acceptedBy: Type.String({ minLength: 1 }),
      expires: Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'The last day (UTC, YYYY-MM-DD) the waiver holds.' }),
    },
    { additionalProperties: false, description: 'A waiver of a behaviour difference (--fail-on-diff): an accepted change, until a day.' },
  );

  const difference = Type.Object(
    {
      kind: choice(DIFFERENCE_KINDS),
      interface: Type.String(),
      operation: Type.Optional(Type.String()),
      openPoints: strings({ description: 'The open points of the spec the difference falls on; empty where it meets none (a change where the document rules).' }),
      requirements: strings({ description: 'The requirements of the checks whose cases differ.' }),
      count: count,
      waived: Type.Optional(ref('waiver', waiver)),
      samples: Type.Array(ref('sample', sample), { description: 'The first few cases, both exchanges side by side: a long comparison keeps these, not every case.' }),
    },
    { additionalProperties: false },
  );

  const noise = Type.Object(
    {
      interface: Type.String(),
      key: Type.String({ description: 'status, member:<path>, header:<name>, or case (a case one run made and the other did not: a poll, a retry).' }),
      differed: count,
      compared: count,
      rate: Type.Number({ minimum: 0, maximum: 1 }),
    },
    { additionalProperties: false, description: 'What the baseline varied between its own two answers to the same case: noise, never a difference.' },
  );

  const side = Type.Object(
    {
      folder: Type.String(),
      profile: Type.Optional(Type.String()),
      seed: Type.Optional(Type.Integer()),
    },
    { additionalProperties: false },
  );

  const gate = Type.Object(
    {
      failOnDiff: strings({ description: 'What --fail-on-diff named: all, or open point ids, operations and interfaces.' }),
      failed: Type.Boolean(),
      reason: Type.String(),
      counted: count,
      waived: count,
      expiredWaivers: Type.Array(ref('waiver', waiver)),
      unusedWaivers: Type.Array(ref('waiver', waiver)),
    },
    { additionalProperties: false },
  );

  const report = Type.Object(
    {
      schemaVersion: Type.Literal(DIFF_SCHEMA_VERSION),
      candidate: side,
      baseline: Type.Composite([side, Type.Object({ kind: choice(['target', 'recording']) })], { additionalProperties: false }),
      noiseFrom: Type.Optional(Type.Object({ folder: Type.String(), kind: choice(['baseline-again', 'secondary', 'candidate-again']) }, { additionalProperties: false })),
      cases: Type.Object(
        {
          compared: count,
          differing: count,
          unpaired: Type.Optional(
            Type.Integer({ minimum: 0, description: 'At two different seeds: the cases not compared, because they depend on what each seed generated (compared counts the classes of cases that do not).' }),
          ),
        },
        { additionalProperties: false },
      ),
      differences: Type.Array(ref('difference', difference), { description: 'Counted by kind, interface, operation and open points, most first.' }),
      noise: Type.Object(
        {
          declared: Type.Array(Type.Object({ interface: Type.String(), key: Type.String(), why: Type.String() }, { additionalProperties: false }), { description: "The spec's x-behaviour-noise: never compared." }),
          measured: Type.Array(ref('noise', noise)),
          timingToleranceMs: Type.Optional(Type.Record(Type.String(), Type.Number({ minimum: 0 }), { description: 'Per operation: how far durations may differ, from what the baseline varied.' })),
        },
        { additionalProperties: false },
      ),
      gate: Type.Optional(gate),
    },
    {
      additionalProperties: false,
      title: 'Behaviour diff (diff.json)',
      description: 'Where two deployments, or a deployment and a recording of an earlier run, behave differently on the same generated cases: never a conformance verdict.',
      $defs: { observation, sample, waiver, difference, noise },
    },
  );

  return { report, observation, sample, waiver, difference, noise, gate };
});

type Schemas = ReturnType<typeof diffSchemas>;
export type DiffReport = Static<Schemas['report']>;
export type DiffRow = Static<Schemas['difference']>;
export type DiffSample = Static<Schemas['sample']>;
export type DifferenceWaiver = Static<Schemas['waiver']>;
export type NoiseRow = Static<Schemas['noise']>;
export type DiffGate = Static<Schemas['gate']>;
