/**
 * "Header Authorization: Bearer <ACCESS_TOKEN>" on every operation: a request without the token, or with a wrong
 * one, is refused (the status is not shown: any 4xx, or the profile's refusalStatus). Each refused request is
 * otherwise one a conforming target accepts with the right token, and the ingest sends an empty batch, so that a
 * target that wrongly accepts it ingests nothing.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { deviation, NotTested } from '../../harness/verdicts.ts';
import { iso, wire } from './model.ts';
import { QueryableWatch, reqTags, seqOf, test } from './usage.ts';

test('every operation refuses a request without the bearer token or with a wrong one', { tag: reqTags('D-AUTH', 'D-QUERYABLE') }, async ({ usage, api, verify, notApplicable }) => {
  const s = usage.settings;
  const queryable = new QueryableWatch();
  await verify('D-AUTH', async () => {
    // A real event id, so that only the token can be why GET /v1/events/{id} is refused.
    let id: string | undefined;
    if (!usage.scope.requirements['D-QUERYABLE']) {
      const e = usage.freshCase().event(0, 'api_call', { tier: 'tier_a', units: 1 });
      const taken = await usage.ingest([wire(e)], 'ingest one event whose id the unauthenticated read asks for');
      // Refused (whether it may be is D-INGEST-ACCEPTED's concern): the read by id is not tried, the rest is.
      if (taken.ok && (taken.indexes?.length ?? 0) === 0) {
        const items = await queryable.settled(() => usage.settled({ external_customer_id: e.external_customer_id }, new Set([e.seq]), 'the event to read without a token', ['D-AUTH']));
        const found = items.find((i) => seqOf(i) === e.seq)?.[s.eventId];
        if (found !== undefined) id = String(found);
      }
    } else {
      const any = (await usage.list({}, 'any listed event'))[0]?.[s.eventId];
      if (any !== undefined) id = String(any);
    }
    const meter = s.meters[0]?.id;
    const now = Date.now();
    const stats = new URLSearchParams({ organization_id: s.organizationId, start_timestamp: iso(now - 86_400_000), end_timestamp: iso(now), interval: 'day', aggregation: 'count', ...(meter ? { [s.query.meter]: meter } : {}) });
    const requests = [
      { method: 'POST', path: '/v1/events/ingest', json: { events: [] } },
      { method: 'GET', path: `/v1/events?${new URLSearchParams({ external_customer_id: `${s.customers.externalPrefix}${randomUUID()}` })}` },
      ...(id !== undefined ? [{ method: 'GET', path: `/v1/events/${encodeURIComponent(id)}` }] : []),
      { method: 'GET', path: `/v1/events/statistics?${stats}` },
    ];
    const wrong = `Bearer conformance-wrong-${randomBytes(12).toString('base64url')}`;
    const accepted: string[] = [];
    for (const r of requests) {
      for (const [how, authorization] of [['without a token', undefined], ['with a wrong token', wrong]] as const) {
        const reply = await api.send({ ...r, headers: { Authorization: authorization }, label: `${r.method} ${r.path.split('?')[0]} ${how}` });
        const refused = s.refusalStatus === undefined ? reply.status >= 400 && reply.status < 500 : reply.status === s.refusalStatus;
        if (!refused) accepted.push(`${r.method} ${r.path.split('?')[0]} ${how}: ${reply.status}`);
      }
    }
    if (accepted.length) throw deviation(`not refused: ${accepted.join('; ')}`, s.refusalStatus === undefined ? 'a 4xx refusal' : `${s.refusalStatus} (settings.refusalStatus)`);
    if (id === undefined) throw new NotTested('no event id to read: GET /v1/events/{id} was not tried (the other operations refused as they must)');
  });
  if (usage.scope.requirements['D-QUERYABLE']) notApplicable('D-QUERYABLE', usage.scope.requirements['D-QUERYABLE']);
  else await verify('D-QUERYABLE', () => queryable.verdict());
});
