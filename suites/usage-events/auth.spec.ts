/**
 * "Header Authorization: Bearer <ACCESS_TOKEN>" on every operation: a request without the token, or with a wrong
 * one, is refused (the status is not shown: any 4xx, or the profile's refusalStatus). Each refused request is
 * otherwise one a conforming target accepts with the right token, and each counts only beside that control (the same
 * request with the token, accepted).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { isAccepted, isRefused, describeAnswer, mustBeRefused, type Control } from '../../harness/answers.ts';
import type { Reply } from '../../harness/http/client.ts';
import { Inconclusive, NotTested } from '../../harness/verdicts.ts';
import { iso, wire } from './model.ts';
import { QueryableWatch, reqTags, seqOf, test } from './usage.ts';

test('every operation refuses a request without the bearer token or with a wrong one', { tag: reqTags('D-AUTH', 'D-QUERYABLE') }, async ({ usage, api, verify, notApplicable, profile }) => {
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
    // The ingest sent without a token is one the target takes with it: a valid event of a customer of this test
    // alone, so that a target that skips authentication shows it by taking the event. Where the profile allows no
    // writes, an empty batch (which ingests nothing, whoever takes it), and no control (an authenticated ingest is a
    // write): its acceptance still fails the rule, its refusal proves nothing, and the reads decide.
    const ingest = profile.writes ? { events: [wire(usage.freshCase().event(0, 'api_call', { tier: 'tier_a', units: 1 }))] } : { events: [] };
    const requests = [
      { method: 'POST', path: '/v1/events/ingest', json: ingest, uncontrolled: !profile.writes },
      { method: 'GET', path: `/v1/events?${new URLSearchParams({ external_customer_id: `${s.customers.externalPrefix}${randomUUID()}` })}` },
      ...(id !== undefined ? [{ method: 'GET', path: `/v1/events/${encodeURIComponent(id)}` }] : []),
      { method: 'GET', path: `/v1/events/statistics?${stats}` },
    ];
    const wrong = `Bearer conformance-wrong-${randomBytes(12).toString('base64url')}`;
    const uncontrolled: string[] = [];
    for (const { uncontrolled: noControl, ...r } of requests) {
      const what = `${r.method} ${r.path.split('?')[0]}`;
      const replies: Array<[string, Reply]> = [];
      for (const [how, authorization] of [['without a token', undefined], ['with a wrong token', wrong]] as const) {
        replies.push([how, await api.send({ ...r, headers: { Authorization: authorization }, label: `${what} ${how}` })]);
      }
      // The control: the same request with the token, sent after the others (a deployment that skips authentication
      // must meet this event first without one). A target that refuses it too refused for another reason (an empty
      // batch, say): its refusals say nothing of authentication, though an acceptance or a 5xx still does.
      const control: Control = noControl ? { none: 'the profile allows no writes, and an authenticated ingest would be one' } : await api.send({ ...r, authenticate: true, label: `${what} with the token (the control)` });
      const controlled = !('status' in control) || isAccepted(control);
      if (!controlled) uncontrolled.push(`${what} (the control was answered ${describeAnswer(control)})`);
      for (const [how, reply] of replies) {
        if (!controlled && isRefused(reply)) continue;
        mustBeRefused('D-AUTH', reply, `${what} ${how}`, { control, status: s.refusalStatus, expected: s.refusalStatus === undefined ? 'a 4xx refusal' : `${s.refusalStatus} (settings.refusalStatus)` });
      }
    }
    if (uncontrolled.length === requests.filter((r) => !r.uncontrolled).length) throw new Inconclusive(`every operation refused the request with the token too: ${uncontrolled.join('; ')}`);
    if (uncontrolled.length) throw new NotTested(`refused with the token too, so their refusals without one prove nothing: ${uncontrolled.join('; ')} (the other operations refused as they must)`);
    if (id === undefined) throw new NotTested('no event id to read: GET /v1/events/{id} was not tried (the other operations refused as they must)');
  });
  if (usage.scope.requirements['D-QUERYABLE']) notApplicable('D-QUERYABLE', usage.scope.requirements['D-QUERYABLE']);
  else await verify('D-QUERYABLE', () => queryable.verdict());
});
