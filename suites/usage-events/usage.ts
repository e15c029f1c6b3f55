/**
 * The `usage` fixture: Interface D's four operations as the profile says the target spells them (member names,
 * query names, paging), waiting for events to become queryable, and reading stored events back into the model's
 * terms. The checks (the *.spec.ts files) judge; this module only sends, reads and waits.
 */
import type { RequirementId } from '../../generated/usage-events.ts';
import { reqTags as tagsOf } from '../../harness/verdicts.ts';
import { NotTested } from '../../harness/fixtures.ts';
import { test as base } from './test.ts';
import { TargetError, type Reply } from '../../harness/http/client.ts';
import { isStated } from '../../harness/profile/load.ts';
import { eventually } from '../../harness/stateful.ts';
import { Inconclusive, RequirementViolation } from '../../harness/verdicts.ts';
import { answerKind, describeAnswer, isAccepted, judged } from '../../harness/answers.ts';
import { ingestMembers, type SeenReading } from './answers.ts';
import { freshCase, stretchesFor, type FreshCase, type Stretches } from './events.ts';
import { iso, wire, type Interval, type ListQuery, type ModelEvent, type Aggregation } from './model.ts';
import { readAllPages, type PagingStyle } from './paging.ts';
import { usageScope, type UsageScope } from './scope.ts';
import type { UsageEventsSettings } from '../../interfaces/usage-events/settings.ts';

export interface IngestAnswer {
  reply: Reply;
  ok: boolean;
  inserted: unknown;
  /** The index of each error entry, as the answer gives them; undefined when there is no array of errors. */
  indexes: unknown[] | undefined;
  /** Whether the profile states the member that gives an error entry's position (settings.ingestResponse.errorIndex). */
  positionsStated: boolean;
  /** The readings of the answer's open points it showed (answers.ts), for a check to record. */
  readings: SeenReading[];
}

export interface StatsQuery {
  meter: string;
  interval: Interval;
  aggregation: Aggregation;
  property?: string;
  start: number;
  end: number;
}

/** A case of its own: a tag for its names, an external customer id no other case uses, and a day no other case uses. */
export type { FreshCase };

export interface Usage {
  settings: UsageEventsSettings;
  /** Whether the profile states a setting (a dotted path under the entry's settings) rather than leaving its default. */
  stated(setting: string): boolean;
  scope: UsageScope;
  stretches: Stretches;
  freshCase(): FreshCase;
  ingest(events: unknown[], label: string): Promise<IngestAnswer>;
  /**
   * Ingests events valid by the document that a check needs stored (to read them back): when the target refuses any
   * of them, the check cannot be judged (NotTested; whether it may refuse them is D-INGEST-ACCEPTED's concern, or the
   * place in time the profile gives its events, D-NS-TIMESTAMP-RANGE).
   */
  ingestNeeded(events: unknown[], label: string): Promise<IngestAnswer>;
  /** Whether the answer took the event at `position`. */
  took(answer: IngestAnswer, position: number): boolean;
  /** What a check that needed the events an answer refused throws: it cannot be judged (see ingestNeeded). */
  notTaken(answer: IngestAnswer): NotTested;
  /**
   * A refusal of events valid by the document counts only beside a control: the same events sent again alone. When
   * the target takes them alone, the refusal stands; when it refuses them again, what it refuses is the events
   * themselves, which the check cannot hold against it unless the profile states where in time they lie
   * (settings.timeBase, D-NS-TIMESTAMP-RANGE): then NotTested.
   */
  confirmRefusal(events: unknown[], label: string): Promise<void>;
  /** Every page of the list for a query; the items as the target gives them. */
  list(q: ListQuery, label: string): Promise<Array<Record<string, unknown>>>;
  /** The paging style the last list was read in (D-NS-LIST-PAGING), for a check to record. */
  lastPaging(): PagingStyle | undefined;
  get(id: string, label: string): Promise<Reply>;
  stats(q: StatsQuery, label: string): Promise<Reply>;
  /**
   * Lists `q` until every event whose seq is in `seqs` shows (D-QUERYABLE), within the profile's bound. When none
   * ever shows, D-QUERYABLE fails; when some never show, they were not ingested, which `missing` blames instead.
   */
  settled(q: ListQuery, seqs: ReadonlySet<string>, label: string, missing: string[]): Promise<Array<Record<string, unknown>>>;
  /** The longest wait for events to become queryable seen by this test, in ms. */
  longestWaitMs(): number;
}

/** The seq marker of a stored event (the harness's own property). */
export const seqOf = (item: Record<string, unknown>): string | undefined => {
  const p = item.properties as Record<string, unknown> | undefined;
  return p && typeof p === 'object' && typeof p.seq === 'string' ? p.seq : undefined;
};

/**
 * What of a stored event differs from the event as sent: the name, the customer id sent, the timestamp as an
 * instant, and every property sent with its value and type (a target may add members and properties of its own).
 */
export function fieldsDiffer(stored: Record<string, unknown>, sent: ModelEvent): string | undefined {
  const problems: string[] = [];
  if (stored.name !== sent.name) problems.push(`name ${JSON.stringify(stored.name)}, sent ${JSON.stringify(sent.name)}`);
  for (const k of ['customer_id', 'external_customer_id'] as const) {
    if (sent[k] !== undefined && stored[k] !== sent[k]) problems.push(`${k} ${JSON.stringify(stored[k])}, sent ${JSON.stringify(sent[k])}`);
  }
  const at = typeof stored.timestamp === 'string' ? Date.parse(stored.timestamp) : NaN;
  if (at !== sent.at) problems.push(`timestamp ${JSON.stringify(stored.timestamp)}, sent ${iso(sent.at)}`);
  const props = stored.properties as Record<string, unknown> | undefined;
  for (const [k, v] of Object.entries(wire(sent).properties as Record<string, unknown>)) {
    if (!props || typeof props !== 'object' || !Object.is(props[k], v)) problems.push(`properties.${k} ${JSON.stringify(props?.[k])}, sent ${JSON.stringify(v)}`);
  }
  return problems.length ? problems.join('; ') : undefined;
}

/**
 * For checks that wait for their events inside another requirement's `verify`: a wait that ran out is D-QUERYABLE's
 * deviation, not theirs (their check is then not tested), and `verdict` gives it to D-QUERYABLE's own `verify`.
 */
export class QueryableWatch {
  private failure?: RequirementViolation;
  private waited = false;

  async settled<T>(wait: () => Promise<T>): Promise<T> {
    try {
      const value = await wait();
      this.waited = true;
      return value;
    } catch (e) {
      if (e instanceof RequirementViolation && e.requirements.length === 1 && e.requirement === 'D-QUERYABLE') {
        this.failure = e;
        throw new NotTested('the events it needed never became queryable (D-QUERYABLE): nothing could be read back to judge it');
      }
      throw e;
    }
  }

  verdict(): void {
    if (this.failure) throw this.failure;
    if (!this.waited) throw new NotTested('no event of this test was waited for');
  }
}

/**
 * The time a case may wait for its events in the worst case, for its test's time limit: the bound the profile gives
 * "a few seconds" (a slow pipeline is a correct deployment, not a time-out), at least the round trips of a fast one.
 */
export function caseWaitMs(settings: UsageEventsSettings): number {
  return Math.max(200, settings.queryableWithinMs);
}

export const test = base.extend<{ usage: Usage }>({
  usage: async ({ api, profile, target, identity, note }, use) => {
    const stated = (setting: string) => isStated(profile, 'usage-events', setting);
    const entry = profile.interfaces['usage-events'];
    if (!entry) throw new Error('harness: usage-events is not in the profile');
    const settings = entry.settings as UsageEventsSettings;
    const scope = usageScope(settings, { writes: profile.writes, live: !target.reference });
    const send = (r: { method: string; path: string; json?: unknown; label: string }) => api.send({ ...r, authenticate: true });
    const query = (params: Record<string, string | undefined>) => {
      const search = new URLSearchParams();
      for (const [k, v] of Object.entries(params)) if (v !== undefined) search.set(k, v);
      const text = search.toString();
      return text ? `?${text}` : '';
    };
    const listParams = (q: ListQuery) => ({
      customer_id: q.customer_id,
      external_customer_id: q.external_customer_id,
      start_timestamp: q.start === undefined ? undefined : iso(q.start),
      end_timestamp: q.end === undefined ? undefined : iso(q.end),
      [settings.query.filter]: q.clause ? JSON.stringify(q.clause) : undefined,
      [settings.query.meter]: q.meter?.id,
    });
    let longest = 0;
    // The exchanges of the last list read: the evidence when events never show; and whether it surely ended.
    let lastList: Reply[] = [];
    let lastComplete = true;
    let lastStyle: PagingStyle | undefined;
    const pagingRules = {
      paging: settings.paging,
      style: stated('paging.style') ? settings.paging.style : undefined,
      itemsStated: stated('paging.items'),
      totalStated: stated('paging.total'),
      sizeStated: stated('paging.size'),
      eventId: settings.eventId,
    };
    const ingestNames = { names: settings.ingestResponse, indexStated: stated('ingestResponse.errorIndex') };
    /** Why valid events were refused, as far as the harness can tell: what the profile would have to state. */
    const refusedValid = (reply: Reply) =>
      `the target refused events valid by the document (${reply.status} ${reply.text.slice(0, 160)}); whether it may is D-INGEST-ACCEPTED's concern${
        stated('timeBase') ? '' : `, or rests on where in time they lie (settings.timeBase, default ${settings.timeBase}, is not stated; D-NS-TIMESTAMP-RANGE)`
      }`;
    // Once events failed to show within the bound, later waits of the test look once: the verdict is already given,
    // and each wait would sit out the whole bound again (shrinking included). Once some events of a batch never
    // showed while others did, later waits end a while after the slowest wait seen so far.
    let gaveUp = false;
    let lost = false;
    // The embedded reference starts empty for each run; a live target keeps every earlier run's events.
    const stretches = stretchesFor(identity, settings, !target.reference);
    const usage: Usage = {
      settings,
      stated,
      scope,
      stretches,
      freshCase: () => freshCase(identity, settings, stretches),
      ingest: async (events, label) => {
        const reply = await send({ method: 'POST', path: '/v1/events/ingest', json: { events }, label });
        const members = ingestMembers(reply.json, events.length, ingestNames);
        return { reply, ok: isAccepted(reply), ...members, positionsStated: ingestNames.indexStated };
      },
      ingestNeeded: async (events, label) => {
        // Events a check needs are its stage, not what it judges: an ingest that got no answer leaves the check
        // undecided (an outage, the target given up, stays what it is).
        let answer: IngestAnswer;
        try {
          answer = await usage.ingest(events, label);
        } catch (e) {
          if (e instanceof TargetError && e.kind !== 'given-up') throw new Inconclusive(`events this check needs got no answer (${label}): ${e.message}`);
          throw e;
        }
        if (events.some((_, i) => !usage.took(answer, i))) throw usage.notTaken(answer);
        return answer;
      },
      took: (answer, position) => answer.ok && !(answer.indexes ?? []).includes(position),
      // A refusal is the target's choice, which the check cannot hold against it here; a 5xx or a 429 is trouble that
      // leaves the check undecided, never a failure of what it judges.
      notTaken: (answer) =>
        answerKind(answer.reply) === 'refused' || answer.ok
          ? new NotTested(`${refusedValid(answer.reply)}: this check needs them stored to judge anything`)
          : new Inconclusive(`events this check needs were answered ${describeAnswer(answer.reply)}: it cannot judge anything without them`),
      confirmRefusal: async (events, label) => {
        const again = await usage.ingest(events, `${label} (the control: the refused valid events alone)`);
        // A control that decides nothing (a throttle, a server error) leaves the refusal undecided (thrown).
        judged(again.reply, `${label} (the control)`);
        if (again.ok && (again.indexes?.length ?? 0) === 0) return;
        if (!stated('timeBase')) throw new NotTested(`${refusedValid(again.reply)}, alone as in their batch: they may lie where the target takes no events`);
      },
      list: async (q, label) => {
        lastList = [];
        const read = await readAllPages(
          async (paging, n) => {
            const r = await send({ method: 'GET', path: `/v1/events${query({ ...listParams(q), ...paging })}`, label: `${label} (page ${n})` });
            lastList.push(r);
            return r;
          },
          pagingRules,
        );
        lastComplete = read.complete;
        lastStyle = read.style;
        return read.items;
      },
      lastPaging: () => lastStyle,
      get: (id, label) => send({ method: 'GET', path: `/v1/events/${encodeURIComponent(id)}`, label }),
      stats: (q, label) =>
        send({
          method: 'GET',
          path: `/v1/events/statistics${query({
            organization_id: settings.organizationId,
            start_timestamp: iso(q.start),
            end_timestamp: iso(q.end),
            interval: q.interval,
            aggregation: q.aggregation,
            [settings.query.meter]: q.meter,
            [settings.query.aggregatedProperty]: q.property,
          })}`,
          label,
        }),
      settled: async (q, seqs, label, missing) => {
        let items: Array<Record<string, unknown>> = [];
        const have = () => new Set(items.map(seqOf).filter((s) => s !== undefined && seqs.has(s)));
        try {
          const r = await eventually({
            requirement: 'D-QUERYABLE',
            what: `the ${seqs.size} events ingested for ${label} are listed`,
            probe: async () => (items = await usage.list(q, `${label}: are the events listed yet?`)),
            accept: () => have().size === seqs.size,
            withinMs: gaveUp ? 0 : lost ? Math.min(settings.queryableWithinMs, Math.max(500, 4 * longest)) : settings.queryableWithinMs,
            firstPauseMs: 25,
            describe: () => `${have().size} of ${seqs.size} listed`,
          });
          longest = Math.max(longest, r.waitedMs);
          return r.value;
        } catch (e) {
          if (!(e instanceof RequirementViolation)) throw e;
          const shown = have();
          const evidence = lastList.map((r) => r.exchange);
          if (shown.size === 0) gaveUp = true;
          else lost = true;
          // A list the reader could not follow to its end proves nothing about the events it did not show.
          if (!lastComplete) throw new NotTested(`the list for ${label} could not be read to its end (a full page was followed by one that brought nothing new): state the target's paging in settings.paging (style, and where the answer gives a total or a next cursor)`);
          if (shown.size === 0) throw new RequirementViolation('D-QUERYABLE', e.message.replace(/^D-QUERYABLE: /, ''), e.expected, evidence);
          const gone = [...seqs].filter((s) => !shown.has(s));
          throw new RequirementViolation(missing, `${gone.length} of the ${seqs.size} events ingested for ${label} never showed within ${settings.queryableWithinMs} ms while the others did (not ingested): ${gone.slice(0, 5).join(', ')}`, 'every event the answer counted as ingested is listed', evidence);
        }
      },
      longestWaitMs: () => longest,
    };
    await use(usage);
    if (longest > 0) note(`usage-events: the longest wait for ingested events to become queryable in this test was ${longest} ms (bound: ${settings.queryableWithinMs} ms)`);
  },
});

export { expect, NotTested, Inconclusive } from '../../harness/fixtures.ts';
/** The tags of the requirements a test claims, typed by the spec's ids (generated/usage-events.ts): a misspelt id does not compile. */
export const reqTags = (...ids: RequirementId[]): string[] => tagsOf(...ids);
export { wire };
