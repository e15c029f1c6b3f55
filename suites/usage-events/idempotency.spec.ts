/**
 * "idempotency_key: optional; prevents duplicate ingestion": a key repeated within a batch, in a later batch, or in
 * two batches sent at the same moment never gives a second event.
 */
import type { RequirementId } from '../../generated/usage-events.ts';
import fc from 'fast-check';
import { fitTimeout } from '../../harness/budget.ts';
import { depthFactor } from '../../harness/options.ts';
import { RequirementViolation } from '../../harness/verdicts.ts';
import { eventBody } from './events.ts';
import { HOUR, wire, type ModelEvent } from './model.ts';
import { caseWaitMs, reqTags, seqOf, test } from './usage.ts';

const RULES: RequirementId[] = ['D-IDEMPOTENCY', 'D-QUERYABLE'];
const IDEMPOTENCY_CASES = 100;

/** One send: a batch, or the same batch twice at the same moment. Each event names a key of the case, or none. */
interface Send {
  twice: boolean;
  keys: Array<number | undefined>;
}

const sends = fc.array(
  fc.record({ twice: fc.boolean(), keys: fc.array(fc.option(fc.integer({ min: 0, max: 3 }), { freq: 4, nil: undefined }), { minLength: 1, maxLength: 6 }) }),
  { minLength: 1, maxLength: 4 },
);

/** How a key was repeated in the case, if it was: the condition D-IDEMPOTENCY is about. */
function repeats(plan: Send[]): boolean {
  const count = new Map<number, number>();
  for (const s of plan) for (const k of s.keys) if (k !== undefined) count.set(k, (count.get(k) ?? 0) + (s.twice ? 2 : 1));
  return [...count.values()].some((n) => n > 1);
}

test.describe('idempotency keys', () => {
  test('idempotency, property: keys repeated within a batch, across batches and in batches sent at once never give a second event', { tag: reqTags(...RULES) }, async ({ usage, property, notApplicable, profile, target }, testInfo) => {
    if (usage.scope.requirements['D-IDEMPOTENCY']) return RULES.forEach((id) => notApplicable(id, usage.scope.requirements[id]!));
    fitTimeout(testInfo, { requests: IDEMPOTENCY_CASES * depthFactor() * 8, waitMs: IDEMPOTENCY_CASES * depthFactor() * caseWaitMs(usage.settings) }, profile, !target.reference);
    const body = eventBody(usage.settings.namePrefix);
    await property({
      id: 'usage-events-idempotency',
      requirements: RULES,
      runs: IDEMPOTENCY_CASES,
      arbitrary: fc.record({ plan: sends, body }),
      testing: () => RULES,
      check: async ({ plan, body: b }, _skip, saw) => {
        const { tag, external, start } = usage.freshCase();
        // Events with one key are the same event (the repeat a client's retry sends); events without a key are each new.
        let n = 0;
        const eventOf = (key: number | undefined): ModelEvent => {
          const seq = key === undefined ? `${tag}-n${n++}` : `${tag}-k${key}`;
          const at = start + HOUR + (key === undefined ? 100 + n : key) * 2000;
          return { seq, name: b.name, external_customer_id: external, at, properties: { tier: b.tier, units: b.units }, ...(key === undefined ? {} : { idempotency_key: `${tag}-key-${key}` }) };
        };
        const expected = new Set<string>();
        const sentKeys = new Set<number>();
        for (const [i, s] of plan.entries()) {
          const copies = s.twice ? 2 : 1;
          const batches = Array.from({ length: copies }, () => s.keys.map(eventOf));
          batches.flat().forEach((e) => expected.add(e.seq));
          const answers = await Promise.all(batches.map((events, c) => usage.ingest(events.map(wire), `send ${i + 1}${s.twice ? `, copy ${c + 1} of 2 sent at once` : ''}: keys ${s.keys.map((k) => k ?? '-').join(' ')}`)));
          // What must be taken: every event without a key, and a new key's first event by one of the copies (a repeat
          // may be skipped, and may show as an error entry, D-NS-DUPLICATES). Otherwise nothing here can be judged.
          const refused = s.keys.some((k, at) =>
            k === undefined ? answers.some((a) => !usage.took(a, at)) : !sentKeys.has(k) && s.keys.indexOf(k) === at && answers.every((a) => !usage.took(a, at)),
          );
          if (refused) throw usage.notTaken(answers.find((a) => !a.ok || (a.indexes?.length ?? 0) > 0)!);
          s.keys.forEach((k) => k !== undefined && sentKeys.add(k));
        }
        const items = await usage.settled({ external_customer_id: external }, expected, `the events of ${tag}`, ['D-IDEMPOTENCY']);
        saw('D-QUERYABLE');
        const count = new Map<string, number>();
        for (const item of items) count.set(seqOf(item) ?? '', (count.get(seqOf(item) ?? '') ?? 0) + 1);
        const twice = [...count].filter(([seq, c]) => seq.startsWith(`${tag}-k`) && c > 1);
        if (twice.length) {
          throw new RequirementViolation('D-IDEMPOTENCY', `events ingested more than once under one idempotency key: ${twice.map(([seq, c]) => `key ${seq.slice(tag.length + 2)} ${c} times`).join(', ')}`, 'one event per idempotency key');
        }
        if (repeats(plan)) saw('D-IDEMPOTENCY');
      },
    });
  });
});
