/**
 * The list's filters: "customer id, external customer id, events matching a meter's filter, a JSON filter clause in
 * the same format as meter filters, events after a start time and before an end time", alone and together, against
 * the model (model.ts `selects`) over generated events. Each query but the external customer id's is bounded to the
 * case's own stretch of time, so that only the case's events can answer it.
 */
import type { RequirementId } from '../../generated/usage-events.ts';
import fc from 'fast-check';
import { fitTimeout } from '../../harness/budget.ts';
import { depthFactor } from '../../harness/options.ts';
import { RequirementViolation } from '../../harness/verdicts.ts';
import { COMPARISONS, caseTag, clauseArbitrary, eventBody, ownersOf } from './events.ts';
import { HOUR, selects, wire, type FilterClause, type ListQuery, type ModelEvent, type Operator } from './model.ts';
import { caseWaitMs, reqTags, seqOf, test, type Usage } from './usage.ts';

const FILTERS: RequirementId[] = ['D-FILTER-CUSTOMER', 'D-FILTER-EXTERNAL', 'D-FILTER-TIME', 'D-FILTER-CLAUSE', 'D-FILTER-METER', 'D-FILTER-COMBINED'];
const RULES: RequirementId[] = [...FILTERS, 'D-QUERYABLE'];
const FILTER_CASES = 100;

interface Case {
  events: Array<{ body: { name: string; tier: string; units: number }; owner: number; second: number }>;
  customer: number;
  external: number;
  window: [number, number];
  clause: FilterClause;
  meter: number;
  /** Which filters the combined query joins (at least two). */
  combine: { owner: boolean; time: boolean; clause: boolean; meter: boolean };
}

function cases(prefix: string, owners: number, operators: readonly Operator[]): fc.Arbitrary<Case> {
  return fc.record({
    events: fc.array(fc.record({ body: eventBody(prefix), owner: fc.nat(owners - 1), second: fc.integer({ min: 0, max: 10 * 3600 }) }), { minLength: 3, maxLength: 10 }),
    // Picks taken modulo a count (customers, meters: a few; the case's events: up to ten) are bounded by a multiple of
    // every such count, so that each is as likely as another and a shrink walks a few steps, not thirty: every step
    // of a shrink ingests and waits again.
    customer: fc.nat({ max: 11 }),
    external: fc.nat(1),
    window: fc.tuple(fc.nat({ max: 2519 }), fc.nat({ max: 2519 })),
    clause: clauseArbitrary(prefix, operators),
    meter: fc.nat({ max: 11 }),
    combine: fc.record({ owner: fc.boolean(), time: fc.boolean(), clause: fc.boolean(), meter: fc.boolean() }).filter((c) => Object.values(c).filter(Boolean).length >= 2),
  });
}

/** The reading of D-NS-LIST-PAGING a list was read in, where the style tells it (page paging comes in many shapes). */
const PAGING_READINGS: Record<string, string | undefined> = { cursor: 'cursor', offset: 'offset-limit', none: 'bare-array' };

const usesLike = (f: FilterClause): boolean => f.clauses.some((c) => ('conjunction' in c ? usesLike(c) : c.operator === 'like' || c.operator === 'not_like'));

/** One query of a case and the requirement whose filter it tries; `base` is what the query selects without that filter. */
interface Probe {
  id: string;
  query: ListQuery;
  base: ListQuery;
}

function probes(usage: Usage, c: Case, owners: { customerIds: readonly string[]; external: readonly string[] }, events: ModelEvent[], stretch: { start: number; end: number }): Probe[] {
  const bounds = { start: stretch.start, end: stretch.end };
  const sorted = [...events].sort((a, b) => a.at - b.at);
  const [i, j] = [c.window[0] % sorted.length, c.window[1] % sorted.length].sort((a, b) => a - b);
  // Odd seconds: events sit on even ones, so none is ever on a bound.
  const window = { start: sorted[i]!.at - 1000, end: sorted[j]!.at + 1000 };
  const customer = owners.customerIds.length ? owners.customerIds[c.customer % owners.customerIds.length] : undefined;
  const meters = usage.settings.meters;
  const meter = meters.length ? meters[c.meter % meters.length]! : undefined;
  const external = owners.external[c.external]!;
  const out: Probe[] = [
    { id: 'D-FILTER-EXTERNAL', query: { external_customer_id: external }, base: {} },
    { id: 'D-FILTER-TIME', query: window, base: bounds },
    { id: 'D-FILTER-CLAUSE', query: { ...bounds, clause: c.clause }, base: bounds },
  ];
  if (customer !== undefined) out.push({ id: 'D-FILTER-CUSTOMER', query: { ...bounds, customer_id: customer }, base: bounds });
  if (meter) out.push({ id: 'D-FILTER-METER', query: { ...bounds, meter }, base: bounds });
  const combined: ListQuery = { ...(c.combine.time ? window : bounds) };
  if (c.combine.owner) Object.assign(combined, customer !== undefined && c.external === 0 ? { customer_id: customer } : { external_customer_id: external });
  if (c.combine.clause) combined.clause = c.clause;
  if (c.combine.meter && meter) combined.meter = meter;
  out.push({ id: 'D-FILTER-COMBINED', query: combined, base: bounds });
  return out;
}

const describe = (q: ListQuery) =>
  [
    q.customer_id && `customer_id ${q.customer_id}`,
    q.external_customer_id && `external_customer_id ${q.external_customer_id}`,
    q.start !== undefined && `after ${new Date(q.start).toISOString()}`,
    q.end !== undefined && `before ${new Date(q.end).toISOString()}`,
    q.clause && `clause ${JSON.stringify(q.clause)}`,
    q.meter && `meter ${q.meter.id}`,
  ]
    .filter(Boolean)
    .join(', ');

test.describe('list filters', () => {
  test('list filters, property: customer, external customer, time, JSON clause and meter, alone and together, select exactly the model\'s events', { tag: reqTags(...RULES) }, async ({ usage, property, notApplicable, identity, profile, target, reading }, testInfo) => {
    if (usage.scope.requirements['D-FILTER-TIME']) return RULES.forEach((id) => notApplicable(id, usage.scope.requirements[id]!));
    if (usage.scope.requirements['D-FILTER-METER']) notApplicable('D-FILTER-METER', usage.scope.requirements['D-FILTER-METER']);
    fitTimeout(testInfo, { requests: FILTER_CASES * depthFactor() * 9, waitMs: FILTER_CASES * depthFactor() * caseWaitMs(usage.settings) }, profile, !target.reference);
    const ownerCount = usage.settings.customers.customerIds.length + 2;
    // A clause's operators beyond the comparisons only where the profile states that the target knows them
    // (D-NS-FILTER-OPERATORS): like and not_like are refused by a deployment that knows comparisons alone.
    const operators = usage.stated('filterOperators') ? usage.settings.filterOperators : COMPARISONS;
    await property({
      id: 'usage-events-filters',
      requirements: RULES.filter((id) => !usage.scope.requirements[id]),
      runs: FILTER_CASES,
      arbitrary: cases(usage.settings.namePrefix, ownerCount, operators),
      testing: () => RULES,
      check: async (c, skip, saw) => {
        const tag = caseTag(identity);
        const owners = ownersOf(usage.settings, tag);
        const stretch = usage.stretches.take(24);
        const all = [...owners.customerIds.map((id) => ({ customer_id: id })), ...owners.external.map((id) => ({ external_customer_id: id }))];
        const events: ModelEvent[] = c.events.map((e, i) => ({ seq: `${tag}-${i}`, name: e.body.name, ...all[e.owner % all.length]!, at: stretch.start + HOUR + e.second * 2000, properties: { tier: e.body.tier, units: e.body.units } }));
        await usage.ingestNeeded(events.map(wire), `ingest the ${events.length} events of ${tag}`);
        const bounds = { start: stretch.start, end: stretch.end };
        await usage.settled(bounds, new Set(events.map((e) => e.seq)), `the events of ${tag}`, ['D-QUERYABLE']);
        saw('D-QUERYABLE');
        const mine = new Set(events.map((e) => e.seq));
        for (const p of probes(usage, c, owners, events, stretch)) {
          if (skip.has(p.id)) continue;
          const want = events.filter((e) => selects(p.query, e)).map((e) => e.seq);
          const base = events.filter((e) => selects(p.base, e)).length;
          const items = await usage.list(p.query, `${p.id}: ${describe(p.query)}`);
          // Only the case's own events are judged: nothing else of the run shares its stretch or its external ids.
          const got = items.map(seqOf).filter((s): s is string => s !== undefined && mine.has(s));
          const extra = got.filter((s) => !want.includes(s));
          const missing = want.filter((s) => !got.includes(s));
          const twice = got.filter((s, k) => got.indexOf(s) !== k);
          if (extra.length || missing.length || twice.length) {
            const shown = (seqs: string[]) => seqs.map((s) => { const e = events.find((x) => x.seq === s)!; return `${s} (${e.name}, ${e.customer_id ?? e.external_customer_id}, ${new Date(e.at).toISOString()}, ${JSON.stringify(e.properties)})`; }).join('; ');
            throw new RequirementViolation(
              p.id,
              `${describe(p.query)}: ${extra.length ? `listed although the filters exclude them: ${shown(extra)}. ` : ''}${missing.length ? `not listed although they match: ${shown(missing)}. ` : ''}${twice.length ? `listed twice: ${twice.join(', ')}` : ''}`,
              `exactly ${want.length} of the case's ${events.length} events: ${want.join(', ') || 'none'}`,
            );
          }
          // Seen only where the filter left out some of what the query selects without it: an ignored filter would show.
          if (want.length < base) saw(p.id);
          if (p.query.clause && usesLike(p.query.clause)) reading('D-NS-FILTER-OPERATORS', 'eight-operators');
          const paging = PAGING_READINGS[usage.lastPaging() ?? 'page'];
          if (paging) reading('D-NS-LIST-PAGING', paging);
        }
      },
    });
  });
});
