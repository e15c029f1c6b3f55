/**
 * Statistics: "statistics row (returned): timestamp (ISO 8601, start of the interval) and value (number)", per
 * interval (hour, day, week, month) and aggregation (count, sum, avg, min, max) over the events of a meter, against
 * the model (model.ts `judgeRows`) over generated events in a stretch of time of the case's own.
 */
import type { RequirementId } from '../../generated/usage-events.ts';
import fc from 'fast-check';
import { fitTimeout } from '../../harness/budget.ts';
import { depthFactor } from '../../harness/options.ts';
import { NotTested, RequirementViolation } from '../../harness/verdicts.ts';
import { accepted } from '../../harness/answers.ts';
import type { Reply } from '../../harness/http/client.ts';
import { statisticsRows } from './answers.ts';
import { UNITS, caseTag, eventBody } from './events.ts';
import { AGGREGATIONS, DAY, holds, judgeRows, nextStart, wire, type Aggregation, type Interval, type ModelEvent, type StatsCase } from './model.ts';
import { caseWaitMs, reqTags, test, type StatsQuery, type Usage } from './usage.ts';

const STATS: RequirementId[] = ['D-STATS-ROWS', 'D-STATS-INTERVALS', 'D-STATS-METER', 'D-STATS-COUNT', 'D-STATS-SUM', 'D-STATS-AVG', 'D-STATS-MIN', 'D-STATS-MAX'];
// The rows' schema is held to the spec wherever an answer shows (D-GEN-SCHEMA fails on any row that breaks it); its
// pass is the generic checks' to claim: a property of hundreds of requests meets a rate-limiting deployment's 429s
// (D-NS-RATE-LIMITS), and a pass would then rest on answers it did not get.
const RULES: RequirementId[] = [...STATS, 'D-QUERYABLE'];
const STATS_CASES = 100;
/** Where an event lies in its interval, in thousandths of it. */
const POSITIONS = 1000;

interface Case {
  interval: Interval;
  aggregation: Aggregation;
  meter: number;
  /** How many intervals hold events (the series runs over them). */
  span: number;
  /** Each event: its interval (`slot`) and where in it, in thousandths of the interval (`position`). */
  events: Array<{ body: { name: string; tier: string; units: number }; slot: number; position: number }>;
}

const cases = (prefix: string): fc.Arbitrary<Case> =>
  fc.record({
    // Months and weeks use up the most time per case: drawn less often.
    interval: fc.oneof({ weight: 3, arbitrary: fc.constant<Interval>('hour') }, { weight: 3, arbitrary: fc.constant<Interval>('day') }, { weight: 2, arbitrary: fc.constant<Interval>('week') }, { weight: 1, arbitrary: fc.constant<Interval>('month') }),
    aggregation: fc.constantFrom(...AGGREGATIONS),
    // Twelve: as often each of two, three or four meters (and a shrink walks a few steps, not thirty).
    meter: fc.nat({ max: 11 }),
    span: fc.integer({ min: 1, max: 3 }),
    // An event's fields and place are not shrunk: each step of a shrink ingests and waits again (for the statistics of
    // a roll-up that lags, most of a second), and fewer events, intervals and a simpler aggregation say what matters.
    events: fc.array(fc.record({ body: fc.noShrink(eventBody(prefix)), slot: fc.nat(2), position: fc.noShrink(fc.integer({ min: 0, max: POSITIONS })) }), { minLength: 1, maxLength: 8 }),
  });

/**
 * The case's stretch and range: the series starts at an interval start; events lie inside the first `span`
 * intervals, never on a boundary; the end lies inside the last of them, after its events, so "the interval that
 * holds the end" holds events. Weeks start on a day the document does not name: their events keep a week clear of
 * both ends of the range, so that whichever day weeks start on, every week holding events lies wholly inside it.
 */
function layout(c: Case, stretchStart: number): { start: number; end: number; intervals: number[] } {
  const start = stretchStart;
  const first = c.interval === 'week' ? start + 7 * DAY : start;
  const intervals = [first];
  for (let k = 1; k < c.span; k++) intervals.push(nextStart(intervals[k - 1]!, c.interval));
  const lastEnd = nextStart(intervals.at(-1)!, c.interval);
  const end = c.interval === 'week' ? lastEnd + 7 * DAY : lastEnd - 61_000;
  return { start, end, intervals };
}

/** The rows an answer holds (the answer itself, or where the profile or the answer's shape puts them: D-NS-STATS-SHAPE). */
const rowsOf = (usage: Usage, reply: Reply) => statisticsRows(reply.json, usage.settings.statisticsRows, usage.stated('statisticsRows'));

/**
 * Asks for a case's statistics until its rows are right, a finding names only requirements set aside already (waiting
 * could not change its verdict), or `deadline` (performance.now()) has passed; the last answer is the one judged.
 * `seen`: what that answer showed of each requirement (an early answer may not count every event yet).
 */
async function judgedOnceCaughtUp(usage: Usage, q: StatsQuery, label: string, model: StatsCase, skip: ReadonlySet<string>, deadline: number) {
  let pause = 25;
  for (let attempts = 1; ; attempts++) {
    const reply = await usage.stats(q, `${label}${attempts > 1 ? ` (again, ${attempts})` : ''}`);
    // A throttle or a server error is thrown (the statistics cannot be read); a refusal is the profile's to settle.
    if (!accepted(reply, label)) {
      // What the request needs beyond the document is the profile's to state (D-NS-QUERY-NAMES, D-NS-REQUIRED-PARAMETERS).
      throw new NotTested(`the statistics request was refused (${reply.status} ${reply.text.slice(0, 200)}): check the query names of settings.query (meter ${JSON.stringify(usage.settings.query.meter)}, property ${JSON.stringify(usage.settings.query.aggregatedProperty)}) and settings.organizationId`);
    }
    const { rows, reading: shape } = rowsOf(usage, reply);
    const seen: string[] = [];
    const { finding, readings } = judgeRows(rows, model, (id) => seen.push(id));
    const judged = { finding, seen, readings: [...readings, ...(shape ? [shape] : [])] };
    const setAside = finding?.requirements.every((id) => skip.has(id)) ?? false;
    if (!finding || setAside || performance.now() + pause > deadline) return { reply, judged, attempts };
    await new Promise((resolve) => setTimeout(resolve, pause));
    pause = Math.min(250, pause * 1.5);
  }
}

/**
 * The statistics may count an event later than the list shows it (D-NS-READ-CONSISTENCY: a roll-up refreshed behind
 * the events), within the bound of "a few seconds" from its ingestion: a case asks again until its rows are right or
 * the bound has passed, and is judged by its last answer. Once a case's rows stayed wrong for the whole bound, later
 * cases of the test wait no longer than twice the longest lag seen in a case whose rows counted events and came right
 * (a wrong aggregation is not a late one; shrinking its counterexample would sit out the bound at every step); until
 * such a case, the lag is unknown and the whole bound is waited.
 */
class StatisticsLag {
  private longest: number | undefined;
  private gaveUp = false;

  /** Until when a case whose events were ingested at `ingestedAt` and listed at `listedAt` may wait (performance.now()). */
  deadline(ingestedAt: number, listedAt: number, boundMs: number): number {
    if (!this.gaveUp || this.longest === undefined) return ingestedAt + boundMs;
    return listedAt + Math.min(boundMs, 2 * this.longest + 250);
  }

  settled(lagMs: number): void {
    this.longest = Math.max(this.longest ?? 0, lagMs);
  }

  stayedWrong(): void {
    this.gaveUp = true;
  }
}

const hoursOf = (c: Case) => ({ hour: c.span + 2, day: 24 * (c.span + 2), week: 24 * 7 * (c.span + 3), month: 24 * 31 * (c.span + 2) })[c.interval];

test.describe('statistics', () => {
  test('statistics, property: one row per interval start, and each aggregation of the meter\'s events', { tag: reqTags(...RULES) }, async ({ usage, property, notApplicable, identity, profile, target, note, reading }, testInfo) => {
    if (usage.scope.requirements['D-STATS-ROWS']) {
      for (const id of RULES) notApplicable(id, usage.scope.requirements[id] ?? usage.scope.requirements['D-STATS-ROWS']!);
      return;
    }
    fitTimeout(testInfo, { requests: STATS_CASES * depthFactor() * 4, waitMs: STATS_CASES * depthFactor() * caseWaitMs(usage.settings) }, profile, !target.reference);
    const meters = usage.settings.meters;
    let crowded = 0;
    let stepped = 0;
    const lag = new StatisticsLag();
    /** Whether the meter counts no event in the case's range yet: no row, or rows of 0 or null (readings agree). */
    const meterIsEmpty = async (meterId: string, interval: Interval, range: { start: number; end: number }) => {
      const reply = await usage.stats({ meter: meterId, interval, aggregation: 'count', start: range.start, end: range.end }, `before ingesting: does meter ${meterId} count events from ${new Date(range.start).toISOString()} to ${new Date(range.end).toISOString()} already?`);
      const { rows } = rowsOf(usage, reply);
      if (!accepted(reply, 'the statistics of an unused stretch of time') || !rows) {
        throw new NotTested(`the statistics of an unused stretch of time could not be read (${reply.status} ${reply.text.slice(0, 200)}): check the query names of settings.query, settings.organizationId and settings.statisticsRows`);
      }
      return (rows as Array<{ value?: unknown }>).every((row) => row?.value === 0 || row?.value === null || row?.value === undefined);
    };
    await property({
      id: 'usage-events-statistics',
      requirements: RULES,
      runs: STATS_CASES,
      arbitrary: cases(usage.settings.namePrefix),
      testing: () => STATS,
      check: async (c, skip, saw) => {
        const tag = caseTag(identity);
        const meter = meters[c.meter % meters.length]!;
        // A live target keeps the events of earlier runs, and a row aggregates every event of its meter: the case
        // looks before it ingests, and moves on past a stretch where the meter already counts events.
        let stretch = usage.stretches.take(hoursOf(c), c.interval);
        for (let tries = 1; !target.reference && !(await meterIsEmpty(meter.id, c.interval, layout(c, stretch.start))); tries++) {
          stepped++;
          if (tries === 5) {
            crowded++;
            return;
          }
          stretch = usage.stretches.take(hoursOf(c), c.interval);
        }
        const { start, end, intervals } = layout(c, stretch.start);
        const external = `${usage.settings.customers.externalPrefix}${tag}`;
        const events: ModelEvent[] = c.events.map((e, i) => {
          const from = intervals[e.slot % intervals.length]!;
          const length = nextStart(from, c.interval) - from;
          // A whole even second at least a minute inside the interval and two before its end (and the range's end).
          const offset = 60_000 + Math.floor((e.position * (length - 180_000)) / POSITIONS / 2000) * 2000;
          return { seq: `${tag}-${i}`, name: e.body.name, external_customer_id: external, at: from + offset, properties: { tier: e.body.tier, [UNITS]: e.body.units } };
        });
        await usage.ingestNeeded(events.map(wire), `ingest the ${events.length} events of ${tag}`);
        const ingestedAt = performance.now();
        await usage.settled({ external_customer_id: external }, new Set(events.map((e) => e.seq)), `the events of ${tag}`, ['D-QUERYABLE']);
        const listedAt = performance.now();
        saw('D-QUERYABLE');
        const q = { meter: meter.id, interval: c.interval, aggregation: c.aggregation, property: c.aggregation === 'count' ? undefined : UNITS, start, end };
        const model: StatsCase = { interval: c.interval, aggregation: c.aggregation, property: UNITS, start, end, meter, events };
        const label = `statistics of meter ${meter.id}: ${c.aggregation}${q.property ? ` of ${UNITS}` : ''} per ${c.interval} from ${new Date(start).toISOString()} to ${new Date(end).toISOString()}`;
        const { reply, judged, attempts } = await judgedOnceCaughtUp(usage, q, label, model, skip, lag.deadline(ingestedAt, listedAt, usage.settings.queryableWithinMs));
        judged.seen.forEach((id) => saw(id));
        if (judged.finding) {
          if (!judged.finding.requirements.every((id) => skip.has(id))) lag.stayedWrong();
          throw new RequirementViolation(judged.finding.requirements, judged.finding.message, judged.finding.expected, [reply.exchange]);
        }
        // Only rows that count events tell how late the statistics are: empty ones are right from the start.
        if (events.some((e) => holds(e, meter.filter))) lag.settled(performance.now() - listedAt);
        judged.readings.forEach((r) => reading(r.point, r.reading));
        if (attempts > 1) reading('D-NS-READ-CONSISTENCY', 'statistics-later');
      },
    });
    if (stepped) note(`statistics: ${stepped} stretches of time already held events of the case's meter (earlier runs'), and the cases moved past them${crowded ? `; ${crowded} cases found no free stretch in 5 tries and were skipped` : ''}`);
  });
});

