/**
 * "GET /v1/events/{id}: one event": a listed event read by its id is that event, with its fields as sent; an id the
 * target never gave out is refused.
 */
import { randomUUID } from 'node:crypto';
import { deviation, NotTested } from '../../harness/verdicts.ts';
import { mustAccept, mustBeRefused } from '../../harness/answers.ts';
import { eventOf } from './answers.ts';
import { wire } from './model.ts';
import { QueryableWatch, reqTags, seqOf, test } from './usage.ts';

test('GET /v1/events/{id}: a listed event by its id, and an unknown id refused', { tag: reqTags('D-GET-EVENT', 'D-QUERYABLE') }, async ({ usage, verify, notApplicable, reading }) => {
  const { eventId } = usage.settings;
  const queryable = new QueryableWatch();
  await verify('D-GET-EVENT', async () => {
    let listed: Record<string, unknown> | undefined;
    if (!usage.scope.requirements['D-QUERYABLE']) {
      const sent = usage.freshCase().event(0, 'api_call', { tier: 'tier_b', units: 7 });
      await usage.ingestNeeded([wire(sent)], 'ingest one event to read back');
      const items = await queryable.settled(() => usage.settled({ external_customer_id: sent.external_customer_id }, new Set([sent.seq]), 'the event to read back', ['D-GET-EVENT']));
      listed = items.find((i) => seqOf(i) === sent.seq);
    } else {
      // No writes: any event the target lists will do (reads only).
      listed = (await usage.list({}, 'any listed event to read back'))[0];
      if (!listed) throw new NotTested('the target lists no event, and the profile allows no writes to make one');
    }
    const id = listed?.[eventId];
    if (typeof id !== 'string' && typeof id !== 'number') throw deviation(`the listed event has no id in ${JSON.stringify(eventId)} (settings.eventId): ${JSON.stringify(listed).slice(0, 200)}`, 'an id to read it by');
    const one = await usage.get(String(id), 'the listed event by its id');
    mustAccept(one, `GET /v1/events/${id} of a listed event`, { expected: 'the event' });
    // The event itself, or wrapped in an envelope (D-NS-EVENT-ENVELOPE).
    const { event: got, reading: seen } = eventOf(one.json, eventId);
    if (seen) reading(seen.point, seen.reading);
    if (!got || String(got[eventId]) !== String(id) || seqOf(got) !== seqOf(listed!)) throw deviation(`GET /v1/events/${id} answered another event: ${one.text.slice(0, 300)}`, `the event listed with ${eventId} ${id}`);
    const unknown = await usage.get(`conformance-unknown-${randomUUID()}`, 'an id the target never gave out');
    // Its control is the listed event's own id, read just above: the same request with the one thing made right.
    mustBeRefused('D-GET-EVENT', unknown, 'GET /v1/events/{id} of an unknown id', { control: one });
  });
  if (usage.scope.requirements['D-QUERYABLE']) notApplicable('D-QUERYABLE', usage.scope.requirements['D-QUERYABLE']);
  else await verify('D-QUERYABLE', () => queryable.verdict());
});
