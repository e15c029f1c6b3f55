/**
 * What the suite sends: generated events, batches and filter clauses, all inside the region where every reading of
 * the document agrees (model.ts), and the stretches of time that keep each case's events apart from every other
 * event of the run.
 *
 * Isolation: every case gets external customer ids of its own and a stretch of time no other case of the run uses
 * (`Stretches`). Lists by external customer id need nothing more; every other query is bounded to the case's stretch,
 * and statistics aggregate whole intervals, so a stretch keeps an interval's margin clear on both sides.
 */
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { ENV } from '../../harness/options.ts';
import type { Identity } from '../../harness/fixtures.ts';
import { DAY, HOUR, INVALID_KINDS, intervalStart, nextStart, type Clause, type FilterClause, type Interval, type ModelEvent, type Operator, type Scalar } from './model.ts';
import type { UsageEventsSettings } from '../../interfaces/usage-events/settings.ts';

/**
 * The event names the suite uses, after the profile's prefix; meters of the reference profile filter on them. One has
 * capitals, so that a target that changes a name's letter case shows it.
 */
export const NAMES = ['api_call', 'llm_tokens', 'storage', 'Batch.Job_7'] as const;
/** A string property of every generated event: same-length values, none inside another, so LIKE readings agree. */
export const TIERS = ['tier_a', 'tier_b', 'tier_c'] as const;
/** The number property of every generated event, and the one statistics aggregate. */
export const UNITS = 'units';

/** How many years of time one worker's block of stretches spans before the next block starts. */
const BLOCK_YEARS = 30;

/**
 * Where this run's stretches start, in whole days after the profile's time base: drawn at random per run (from its id),
 * so that a live target's events of earlier runs, which stay, seldom lie where this run ingests; the statistics check
 * still looks before it ingests. The shards of one run share it (they share the seed, and their blocks interleave).
 */
export function runOffsetDays(): number {
  const shard = process.env[ENV.shard];
  const key = shard ? `${process.env[ENV.seed]} ${shard.split('/')[1]}` : (process.env[ENV.runId] ?? 'no run id');
  return createHash('sha256').update(key).digest().readUInt32BE(0) % ((BLOCK_YEARS * 365) / 2);
}

/**
 * Stretches of time no other case of the run uses: a block per worker from the profile's time base (and the run's own
 * offset), handed out in whole hours. The counter outlives a failed worker (harness/identity.ts), so no stretch is
 * ever given twice.
 */
export class Stretches {
  private readonly base: number;
  constructor(
    private readonly identity: Identity,
    timeBase: string,
    offsetDays = 0,
  ) {
    this.base = Date.parse(timeBase) + offsetDays * DAY;
  }

  /** A stretch of `hours` hours whose start is aligned to `align` (an interval kind), with a margin of one interval. */
  take(hours: number, align: Interval = 'day'): { start: number; end: number } {
    const slack = align === 'month' ? 31 * 24 : align === 'week' ? 7 * 24 : align === 'day' ? 24 : 1;
    const { block, first } = this.identity.reserve('usage-events-stretch', hours + 2 * slack);
    const from = this.base + block * BLOCK_YEARS * 365 * DAY + first * HOUR;
    // Aligned one interval in, so that the interval before the stretch holds no event of the run either.
    const start = nextStart(intervalStart(from, align), align);
    return { start, end: start + hours * HOUR };
  }
}

/** The stretches of a test: from the profile's time base, and, against a live target, the run's own offset. */
export function stretchesFor(identity: Identity, settings: UsageEventsSettings, live: boolean): Stretches {
  return new Stretches(identity, settings.timeBase, live ? runOffsetDays() : 0);
}

export interface FreshCase {
  tag: string;
  external: string;
  start: number;
  /** The case's i-th event: named with the profile's prefix, two seconds after the one before, an hour into the day. */
  event(i: number, name: string, properties: ModelEvent['properties']): ModelEvent;
}

/** A case no other uses: its own tag, external customer and day-long stretch of time. */
export function freshCase(identity: Identity, settings: UsageEventsSettings, stretches: Stretches): FreshCase {
  const tag = caseTag(identity);
  const external = `${settings.customers.externalPrefix}${tag}`;
  const { start } = stretches.take(24);
  return { tag, external, start, event: (i, name, properties) => ({ seq: `${tag}-${i}`, name: `${settings.namePrefix}${name}`, external_customer_id: external, at: start + HOUR + i * 2000, properties }) };
}

/** Fresh names of a case: external customer ids, seq markers, idempotency keys. */
export function caseTag(identity: Identity): string {
  return identity.name('case').replace(/^conformance-case-/, '');
}

export interface Owners {
  customerIds: readonly string[];
  external: readonly string[];
}

/** The fields of a valid event but its time and owner, in the agreed region: every property present, one type each. */
export const eventBody = (prefix: string) =>
  fc.record({
    name: fc.constantFrom(...NAMES).map((n) => `${prefix}${n}`),
    tier: fc.constantFrom(...TIERS),
    units: fc.integer({ min: 1, max: 100 }),
  });

export const invalidKind = fc.constantFrom(...INVALID_KINDS);

/** The operators every reading of "the same format as meter filters" knows (D-NS-FILTER-OPERATORS). */
export const COMPARISONS: readonly Operator[] = ['eq', 'ne', 'gt', 'gte', 'lt', 'lte'];

/**
 * A generated clause over the properties every generated event carries, inside the agreed region, with the operators
 * given (the profile's, where it states them; the comparisons otherwise): eq and ne on strings, like and not_like on
 * strings (patterns with % at both ends and no other wildcard), the order operators on numbers.
 */
export function clauseArbitrary(prefix: string, operators: readonly Operator[]): fc.Arbitrary<FilterClause> {
  const known = (ops: readonly Operator[]) => ops.filter((o) => operators.includes(o));
  const equality = known(['eq', 'ne']);
  const like = known(['like', 'not_like']);
  const order = known(['eq', 'ne', 'gt', 'gte', 'lt', 'lte']);
  const kinds: Array<fc.Arbitrary<Clause>> = [];
  if (equality.length) {
    kinds.push(fc.record({ property: fc.constant('tier'), operator: fc.constantFrom(...equality), value: fc.constantFrom<Scalar>(...TIERS) }));
    kinds.push(fc.record({ property: fc.constant('name'), operator: fc.constantFrom(...equality), value: fc.constantFrom<Scalar>(...NAMES.map((n) => `${prefix}${n}`)) }));
  }
  if (like.length) kinds.push(fc.record({ property: fc.constantFrom('tier', 'name'), operator: fc.constantFrom(...like), value: fc.constantFrom<Scalar>('%a%', '%b%', '%llm%', '%api%', '%tor%') }));
  if (order.length) kinds.push(fc.record({ property: fc.constant(UNITS), operator: fc.constantFrom(...order), value: fc.integer({ min: 1, max: 100 }) as fc.Arbitrary<Scalar> }));
  return fc.record({ conjunction: fc.constantFrom<'and' | 'or'>('and', 'or'), clauses: fc.array(fc.oneof(...kinds), { minLength: 1, maxLength: 3 }) });
}

/** The customers the profile lets the harness ingest for, and fresh external ids for one case. */
export function ownersOf(settings: UsageEventsSettings, tag: string, externals = 2): Owners {
  return { customerIds: settings.customers.customerIds, external: Array.from({ length: externals }, (_, i) => `${settings.customers.externalPrefix}${tag}-${i}`) };
}
