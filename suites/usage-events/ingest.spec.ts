/**
 * Ingestion: "at most 100 per request", "the number of events ingested and an array of errors for failed events",
 * the field table (name characters, a customer id, an ISO 8601 timestamp, properties an object), and "ingested
 * events become queryable within a few seconds", with the fields as sent.
 */
import type { RequirementId } from '../../generated/usage-events.ts';
import fc from 'fast-check';
import { fitTimeout } from '../../harness/budget.ts';
import { depthFactor } from '../../harness/options.ts';
import { RequirementViolation, deviation } from '../../harness/verdicts.ts';
import { judged, mustAnswer } from '../../harness/answers.ts';
import { eventBody, invalidKind } from './events.ts';
import { HOUR, RULE_OF, judgeIngestAnswer, wire, type InvalidKind, type ModelEvent } from './model.ts';
import { QueryableWatch, caseWaitMs, fieldsDiffer, reqTags, seqOf, test, type Usage } from './usage.ts';

const RULES: RequirementId[] = ['D-INGEST-ACCEPTED', 'D-INGEST-NAME', 'D-INGEST-CUSTOMER', 'D-INGEST-TIMESTAMP', 'D-INGEST-PROPERTIES', 'D-INGEST-ERRORS-EXACT', 'D-QUERYABLE', 'D-EVENT-FIELDS'];
const INGEST_CASES = 100;
/** "At most 100 per request". */
const LIMIT = 100;

/** An event of the batch: valid, or broken in one field (`variant` picks how). */
interface Slot {
  body: { name: string; tier: string; units: number };
  second: number;
  bad?: { kind: InvalidKind; variant: number };
}

/** The field an invalid event breaks, every other field valid; each variant is wrong in every reading. */
function broken(kind: InvalidKind, variant: number, valid: Record<string, unknown>): Record<string, unknown> {
  const pick = <T>(xs: readonly T[]) => xs[variant % xs.length]!;
  switch (kind) {
    case 'name':
      return { ...valid, name: `${String(valid.name)}${pick(['-x', ' x', '/x', ':x', '@x', '+x'])}` };
    case 'customer': {
      const { customer_id: _c, external_customer_id: _e, ...rest } = valid;
      return rest;
    }
    case 'timestamp':
      return { ...valid, timestamp: pick(['yesterday', 'not a time', '2024-13-45T25:61:00Z', '', '12/31/2024 10:00']) };
    case 'properties':
      return { ...valid, properties: pick<unknown>(['units=5', 42, [1, 2], true, null]) };
  }
}

/**
 * Batches wholly valid or mixed (about one event in four invalid), two in three small, the others near the limit of 100.
 */
function batches(prefix: string): fc.Arbitrary<Slot[]> {
  const slot = (mixed: boolean) =>
    fc.record(
      {
        body: eventBody(prefix),
        second: fc.integer({ min: 0, max: 20 * 3600 }),
        bad: mixed ? fc.oneof({ weight: 3, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: fc.record({ kind: invalidKind, variant: fc.nat(9) }) }) : fc.constant(undefined),
      },
      { requiredKeys: ['body', 'second'] },
    );
  // A long batch is not shrunk: each step would ingest and wait again, for a counterexample still some 90 events long.
  const sized = (mixed: boolean) => fc.oneof({ weight: 2, arbitrary: fc.array(slot(mixed), { minLength: 1, maxLength: 12 }) }, { weight: 1, arbitrary: fc.noShrink(fc.array(slot(mixed), { minLength: 90, maxLength: 100 })) });
  return fc.oneof(sized(false), sized(true));
}

/** The batch of a case: its events on the wire, the model of the valid ones, and the kind of each invalid one. */
function batchOf(usage: Usage, slots: Slot[]) {
  const { tag, external, start } = usage.freshCase();
  const invalid = new Map<number, InvalidKind>();
  const valid: ModelEvent[] = [];
  const sent = slots.map((s, i) => {
    const e: ModelEvent = { seq: `${tag}-${i}`, name: s.body.name, external_customer_id: external, at: start + HOUR + s.second * 2000, properties: { tier: s.body.tier, units: s.body.units } };
    if (!s.bad) {
      valid.push(e);
      return wire(e);
    }
    invalid.set(i, s.bad.kind);
    return broken(s.bad.kind, s.bad.variant, wire(e));
  });
  return { tag, external, sent, valid, invalid };
}

test.describe('ingesting usage events', () => {
  test('ingest, property: generated batches of valid and invalid events; errors name exactly the invalid ones, and exactly the valid ones are listed with their fields', { tag: reqTags(...RULES) }, async ({ usage, property, notApplicable, reading, profile, target }, testInfo) => {
    if (usage.scope.requirements['D-INGEST-ACCEPTED']) return RULES.forEach((id) => notApplicable(id, usage.scope.requirements[id]!));
    fitTimeout(testInfo, { requests: INGEST_CASES * depthFactor() * 4, waitMs: INGEST_CASES * depthFactor() * caseWaitMs(usage.settings) }, profile, !target.reference);
    await property({
      id: 'usage-events-ingest',
      requirements: RULES,
      runs: INGEST_CASES,
      arbitrary: batches(usage.settings.namePrefix),
      testing: (slots) => (slots.some((s) => s.bad) ? ['D-INGEST-ERRORS-EXACT', ...new Set(slots.flatMap((s) => (s.bad ? [RULE_OF[s.bad.kind]] : [])))] : ['D-INGEST-ACCEPTED']),
      check: async (slots, _skip, saw) => {
        const { tag, external, sent, valid, invalid } = batchOf(usage, slots);
        const answer = await usage.ingest(sent, `ingest ${sent.length} events, ${invalid.size} invalid`);
        answer.readings.forEach((r) => reading(r.point, r.reading));
        // A throttle or a server error says nothing of what the target makes of the batch (thrown; GEN-NO-5XX judges a 5xx).
        judged(answer.reply, `the batch of ${sent.length} events`);
        const finding = judgeIngestAnswer(sent.length, invalid, { ...answer, status: answer.reply.status });
        if (finding) {
          // Valid events refused count against the target only if it takes them alone (the control).
          const validAt = sent.map((_, i) => i).filter((i) => !invalid.has(i));
          const refused = answer.ok ? validAt.filter((i) => answer.indexes?.includes(i)) : validAt;
          if (refused.length) await usage.confirmRefusal(refused.map((i) => sent[i]), `the ${refused.length} valid events of ${tag} the answer refused`);
          throw new RequirementViolation(finding.requirements, finding.message, finding.expected, [answer.reply.exchange]);
        }
        if (invalid.size === 0) saw('D-INGEST-ACCEPTED');
        else if (valid.length > 0) saw('D-INGEST-ERRORS-EXACT');
        for (const kind of new Set(invalid.values())) saw(RULE_OF[kind]);
        if (valid.length === 0) return;

        const whole = invalid.size ? ['D-INGEST-ERRORS-EXACT'] : ['D-INGEST-ACCEPTED'];
        const items = await usage.settled({ external_customer_id: external }, new Set(valid.map((e) => e.seq)), `the batch of ${tag}`, whole);
        saw('D-QUERYABLE');
        const bySeq = new Map<string, Array<Record<string, unknown>>>();
        for (const item of items) bySeq.set(seqOf(item) ?? '(none)', [...(bySeq.get(seqOf(item) ?? '(none)') ?? []), item]);
        const twice = valid.filter((e) => (bySeq.get(e.seq)?.length ?? 0) > 1).map((e) => e.seq);
        if (twice.length) throw new RequirementViolation(whole, `events listed more than once: ${twice.slice(0, 5).join(', ')}`, 'each ingested event listed once');
        const failed = [...bySeq.keys()].filter((s) => !valid.some((e) => e.seq === s));
        if (failed.length) throw new RequirementViolation(whole, `events that failed (or are not the batch's) are listed: ${failed.slice(0, 5).join(', ')}`, 'exactly the valid events listed');
        for (const e of valid) {
          const differs = fieldsDiffer(bySeq.get(e.seq)![0]!, e);
          if (differs) throw new RequirementViolation('D-EVENT-FIELDS', `event ${e.seq}: ${differs}`, 'the fields as sent');
        }
        saw('D-EVENT-FIELDS');
      },
    });
  });

  test('a batch of 101 events is refused, or its events beyond the 100th fail; none of those is ingested', { tag: reqTags('D-INGEST-LIMIT', 'D-QUERYABLE') }, async ({ usage, verify, notApplicable, reading }) => {
    if (usage.scope.requirements['D-INGEST-LIMIT']) {
      notApplicable('D-INGEST-LIMIT', usage.scope.requirements['D-INGEST-LIMIT']);
      return notApplicable('D-QUERYABLE', usage.scope.requirements['D-QUERYABLE']!);
    }
    const { external, event: eventOf } = usage.freshCase();
    const event = (i: number) => eventOf(i, 'api_call', { tier: 'tier_a', units: 1 });
    const queryable = new QueryableWatch();
    await verify('D-INGEST-LIMIT', async () => {
      const over = await usage.ingest(Array.from({ length: 101 }, (_, i) => wire(event(i))), 'ingest 101 events (one over the limit)');
      const { refusalStatus } = usage.settings;
      // "At most 100 per request" (D-NS-OVER-LIMIT): the whole batch is refused, or it is taken as far as the 100th
      // event and the one beyond fails as an error entry of the answer. Either way the 101st is never ingested. A
      // throttle or a server error says neither (thrown).
      const beyondTaken = judged(over.reply, 'the batch of 101 events') === 'accepted' && over.indexes?.includes(LIMIT);
      if (over.ok && !beyondTaken) {
        throw deviation(`a batch of 101 events was answered ${over.reply.status} without an error entry for the event beyond the 100th: ${over.reply.text.slice(0, 200)}`, `refused whole${refusalStatus === undefined ? '' : ` (${refusalStatus}, settings.refusalStatus)`}, or an error entry for the event at ${LIMIT}`);
      }
      // Refused: with the status the profile states, if it states one. Its control is the sentinel below.
      if (!over.ok && refusalStatus !== undefined) mustAnswer(over.reply, refusalStatus, 'a batch of 101 events', { expected: `${refusalStatus} (settings.refusalStatus)` });
      reading('D-NS-OVER-LIMIT', beyondTaken ? 'excess-as-errors' : 'whole-batch-refused');
      over.readings.forEach((r) => reading(r.point, r.reading));
      // "Ingests nothing" cannot be waited for; a later event of the same customer can: once it shows, an earlier one would.
      const sentinel = event(101);
      // The sentinel is the control too: a target that refuses it may have refused the 101 for something else.
      await usage.ingestNeeded([wire(sentinel)], 'ingest one event after the batch of 101 (the sentinel)');
      const items = await queryable.settled(() => usage.settled({ external_customer_id: external }, new Set([sentinel.seq]), 'the sentinel after the batch of 101', ['D-INGEST-LIMIT']));
      const notIngested = beyondTaken ? new Set([event(LIMIT).seq]) : new Set(Array.from({ length: 101 }, (_, i) => event(i).seq));
      const leaked = items.filter((item) => notIngested.has(seqOf(item) ?? ''));
      if (leaked.length) throw deviation(`${leaked.length} events of the batch of 101 that ${beyondTaken ? 'got an error entry' : 'was refused'} were ingested`, 'none of them ingested');
    });
    await verify('D-QUERYABLE', () => queryable.verdict());
  });

  test('a property name used with two types is stored as sent or refused, never coerced', { tag: reqTags('D-INGEST-PROPERTY-TYPES', 'D-QUERYABLE') }, async ({ usage, verify, notApplicable }) => {
    if (usage.scope.requirements['D-INGEST-PROPERTY-TYPES']) {
      notApplicable('D-INGEST-PROPERTY-TYPES', usage.scope.requirements['D-INGEST-PROPERTY-TYPES']);
      return notApplicable('D-QUERYABLE', usage.scope.requirements['D-QUERYABLE']!);
    }
    const { tag, external, event } = usage.freshCase();
    // A property name of this test alone, so that no other check's events give it a type first.
    const mixed = `mixed_${tag.replace(/[^A-Za-z0-9]/g, '_')}`;
    const first = event(0, 'storage', { [mixed]: 'five' });
    const later = [5, true].map((v, i) => event(i + 1, 'storage', { [mixed]: v }));
    const queryable = new QueryableWatch();
    await verify('D-INGEST-PROPERTY-TYPES', async () => {
      await usage.ingestNeeded([wire(first)], `ingest ${mixed} as a string`);
      await queryable.settled(() => usage.settled({ external_customer_id: external }, new Set([first.seq]), 'the string-typed event', ['D-INGEST-PROPERTY-TYPES']));
      const two = await usage.ingest(later.map(wire), `ingest ${mixed} as a number and as a boolean`);
      // Refused means a 4xx. A 5xx is the target failing on the values, not refusing them: it fails D-GEN-NO-5XX
      // where it shows, and says nothing of whether the values were stored as sent (thrown, like a throttle).
      judged(two.reply, `${mixed} sent as a number and as a boolean after a string`);
      const refused = new Set(two.ok ? (two.indexes ?? []).filter((i): i is number => typeof i === 'number') : [0, 1]);
      const kept = later.filter((_, i) => !refused.has(i));
      if (kept.length === 0) return;
      const items = await queryable.settled(() => usage.settled({ external_customer_id: external }, new Set(kept.map((e) => e.seq)), 'the events of other types', ['D-INGEST-PROPERTY-TYPES']));
      for (const e of kept) {
        const stored = items.find((item) => seqOf(item) === e.seq);
        const value = (stored?.properties as Record<string, unknown> | undefined)?.[mixed];
        if (!Object.is(value, e.properties[mixed])) throw deviation(`${mixed} sent as ${JSON.stringify(e.properties[mixed])} (${typeof e.properties[mixed]}) after a string was stored as ${JSON.stringify(value)}`, 'the value as sent, or the event refused');
      }
    });
    await verify('D-QUERYABLE', () => queryable.verdict());
  });
});
