/**
 * "Header Authorization: Bearer <ACCESS_TOKEN>" on every operation: a request without the token, or with a wrong
 * one, is refused (the status is not shown: any 4xx, or the profile's refusalStatus). Each refused request is
 * otherwise one a conforming target accepts with the right token, and each counts only beside that control (the same
 * request with the token, accepted). An operation whose answers decide nothing (a throttle, a server error) leaves
 * the rule inconclusive; one whose control is refused too is not tested (the harness made no request it takes), and
 * all of them so is inconclusive. The others are still judged, and an acceptance without the token breaks the rule
 * wherever it shows.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { accepted, judged, mustBeRefused } from '../../harness/answers.ts';
import { TargetError, type Reply } from '../../harness/http/client.ts';
import { Inconclusive, NotTested, RequirementViolation } from '../../harness/verdicts.ts';
import { iso, wire } from './model.ts';
import { QueryableWatch, reqTags, seqOf, test } from './usage.ts';

test('every operation refuses a request without the bearer token or with a wrong one', { tag: reqTags('D-AUTH', 'D-QUERYABLE') }, async ({ usage, api, verify, notApplicable, profile }) => {
  const s = usage.settings;
  const queryable = new QueryableWatch();
  await verify('D-AUTH', async () => {
    // A real event id, so that only the token can be why GET /v1/events/{id} is refused. Getting one is the stage,
    // not what is judged: refused, unanswered, throttled or failing, the read by id is not tried, the rest is.
    let id: string | undefined;
    let noId = 'no event id to read';
    try {
      if (!usage.scope.requirements['D-QUERYABLE']) {
        const e = usage.freshCase().event(0, 'api_call', { tier: 'tier_a', units: 1 });
        const taken = await usage.ingest([wire(e)], 'ingest one event whose id the unauthenticated read asks for');
        if (taken.ok && (taken.indexes?.length ?? 0) === 0) {
          const items = await queryable.settled(() => usage.settled({ external_customer_id: e.external_customer_id }, new Set([e.seq]), 'the event to read without a token', ['D-AUTH']));
          const found = items.find((i) => seqOf(i) === e.seq)?.[s.eventId];
          if (found !== undefined) id = String(found);
        }
      } else {
        const any = (await usage.list({}, 'any listed event'))[0]?.[s.eventId];
        if (any !== undefined) id = String(any);
      }
    } catch (e) {
      if (!((e instanceof TargetError && e.kind !== 'given-up') || e instanceof Inconclusive)) throw e;
      noId = `no event id to read (${e.message.split('\n')[0]})`;
    }
    const meter = s.meters[0]?.id;
    const now = Date.now();
    const stats = new URLSearchParams({ organization_id: s.organizationId, start_timestamp: iso(now - 86_400_000), end_timestamp: iso(now), interval: 'day', aggregation: 'count', ...(meter ? { [s.query.meter]: meter } : {}) });
    // The ingest sent without a token is one the target takes with it: a valid event of a customer of this test
    // alone, so that a target that skips authentication shows it by taking the event. Where the profile allows no
    // writes, an empty batch (which ingests nothing, whoever takes it), and no control can be made (an authenticated
    // ingest is a write): its acceptance still breaks the rule, its refusal proves nothing, and the reads decide.
    const ingest = profile.writes ? { events: [wire(usage.freshCase().event(0, 'api_call', { tier: 'tier_a', units: 1 }))] } : { events: [] };
    const requests = [
      { method: 'POST', path: '/v1/events/ingest', json: ingest, uncontrolled: !profile.writes },
      { method: 'GET', path: `/v1/events?${new URLSearchParams({ external_customer_id: `${s.customers.externalPrefix}${randomUUID()}` })}` },
      ...(id !== undefined ? [{ method: 'GET', path: `/v1/events/${encodeURIComponent(id)}` }] : []),
      { method: 'GET', path: `/v1/events/statistics?${stats}` },
    ];
    const wrong = `Bearer conformance-wrong-${randomBytes(12).toString('base64url')}`;
    const expected = s.refusalStatus === undefined ? 'a 4xx refusal' : `${s.refusalStatus} (settings.refusalStatus)`;
    // Why an operation decided nothing (an answer throttled or failing), and the operations whose control was refused.
    const undecided: string[] = [];
    const uncontrolled: string[] = [];
    const judging = (judge: () => void) => {
      try {
        judge();
      } catch (e) {
        if (!(e instanceof Inconclusive)) throw e;
        undecided.push(e.message);
      }
    };
    for (const { uncontrolled: noControl, ...r } of requests) {
      const what = `${r.method} ${r.path.split('?')[0]}`;
      const replies: Array<[string, Reply]> = [];
      for (const [how, authorization] of [['without a token', undefined], ['with a wrong token', wrong]] as const) {
        replies.push([how, await api.send({ ...r, headers: { Authorization: authorization }, label: `${what} ${how}` })]);
      }
      // An acceptance without a valid token breaks the rule whatever the control became.
      const onlyAcceptance = () => {
        for (const [how, reply] of replies) {
          judging(() => {
            if (accepted(reply, `${what} ${how}`)) throw new RequirementViolation('D-AUTH', `${what} ${how} was accepted (${reply.status})`, expected, [reply.exchange]);
          });
        }
      };
      if (noControl) {
        onlyAcceptance();
        continue;
      }
      // The control: the same request with the token, sent after the others (a deployment that skips authentication
      // must meet this event first without one). One that decides nothing (a throttle, a server error) leaves the
      // operation undecided; one refused too means the harness made no request this target takes (what it needs
      // beyond the document, a required parameter the profile does not name): the operation is not tested.
      const control = await api.send({ ...r, authenticate: true, label: `${what} with the token (the control)` });
      let answer: 'accepted' | 'refused' | undefined;
      judging(() => void (answer = judged(control, `${what} with the token (the control)`)));
      if (answer !== 'accepted') {
        if (answer === 'refused') uncontrolled.push(`${what} (the control was refused ${control.status})`);
        onlyAcceptance();
        continue;
      }
      for (const [how, reply] of replies) judging(() => mustBeRefused('D-AUTH', reply, `${what} ${how}`, { control, status: s.refusalStatus, expected }));
    }
    if (undecided.length) throw new Inconclusive(`${undecided.join('; ')} (the other operations refused as they must)`);
    const controlled = requests.filter((r) => !r.uncontrolled).length;
    if (controlled && uncontrolled.length === controlled) throw new Inconclusive(`every operation refused the request with the token too: ${uncontrolled.join('; ')}`);
    if (uncontrolled.length) throw new NotTested(`refused with the token too, so their refusals without one prove nothing: ${uncontrolled.join('; ')} (the other operations refused as they must)`);
    if (id === undefined) throw new NotTested(`${noId}: GET /v1/events/{id} was not tried (the other operations refused as they must)`);
  });
  if (usage.scope.requirements['D-QUERYABLE']) notApplicable('D-QUERYABLE', usage.scope.requirements['D-QUERYABLE']);
  else await verify('D-QUERYABLE', () => queryable.verdict());
});
