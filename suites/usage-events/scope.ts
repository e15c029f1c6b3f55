/**
 * What a usage-events profile lets the suite judge, and why the rest is not applicable. Both the checks and `--list`
 * (interface.ts) decide from here, so the two never disagree.
 */
import type { UsageEventsSettings } from '../../interfaces/usage-events/settings.ts';

export interface UsageScope {
  operations: Record<string, string>;
  requirements: Record<string, string>;
}

/** Requirements that can only be judged over events the harness ingested itself. */
const OWN_EVENTS = [
  'D-INGEST-ACCEPTED', 'D-INGEST-LIMIT', 'D-INGEST-NAME', 'D-INGEST-CUSTOMER', 'D-INGEST-TIMESTAMP', 'D-INGEST-PROPERTIES',
  'D-INGEST-ERRORS-EXACT', 'D-INGEST-PROPERTY-TYPES', 'D-IDEMPOTENCY', 'D-QUERYABLE', 'D-EVENT-FIELDS',
  'D-FILTER-CUSTOMER', 'D-FILTER-EXTERNAL', 'D-FILTER-TIME', 'D-FILTER-CLAUSE', 'D-FILTER-METER', 'D-FILTER-COMBINED',
  'D-STATS-ROWS', 'D-STATS-INTERVALS', 'D-STATS-METER', 'D-STATS-COUNT', 'D-STATS-SUM', 'D-STATS-AVG', 'D-STATS-MIN', 'D-STATS-MAX',
];
const METERED = ['D-FILTER-METER', 'D-STATS-ROWS', 'D-STATS-INTERVALS', 'D-STATS-METER', 'D-STATS-COUNT', 'D-STATS-SUM', 'D-STATS-AVG', 'D-STATS-MIN', 'D-STATS-MAX'];

export function usageScope(s: UsageEventsSettings, o: { writes: boolean; live: boolean }): UsageScope {
  const operations: Record<string, string> = {};
  const requirements: Record<string, string> = {};
  const na = (ids: string[], why: string) => ids.forEach((id) => (requirements[id] ??= why));
  if (!o.writes) {
    const why = 'the profile does not allow writes: no usage event is ingested (ingesting bills customers), and these checks need events of their own';
    operations['POST /v1/events/ingest'] = `${why}; only requests that must be refused are sent (no token, a wrong token, with an empty batch)`;
    na(OWN_EVENTS, why);
  }
  if (s.meters.length === 0) {
    na(METERED, `the profile defines no meter (settings.meters)${o.live ? ': name existing meters of the target and their filters' : ''}`);
  }
  return { operations, requirements };
}
