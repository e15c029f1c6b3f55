/**
 * The generic checks of the registry on every usage-events operation, with the bearer token through the suite's
 * authentication step. What the spec's schemas alone would get wrong comes from the suite's own conventions: an
 * ingested event is a fresh case's (its own customer and stretch of time, so no other check counts it), statistics
 * are asked for the profile's organization, and an event is read by an id the target listed.
 */
import { defineGenericChecks, specRequest, type GenericContext } from '../../harness/generic/define.ts';
import { test } from './test.ts';
import type { Operation } from '../../harness/spec/types.ts';
import { isStated } from '../../harness/profile/load.ts';
import { needAccepted } from '../../harness/answers.ts';
import { freshCase, stretchesFor } from './events.ts';
import { wire } from './model.ts';
import { itemsOf } from './paging.ts';
import { caseWaitMs } from './usage.ts';
import type { UsageEventsSettings } from '../../interfaces/usage-events/settings.ts';

defineGenericChecks(test, {
  source: (ctx: GenericContext) => {
    const settings = ctx.settings as UsageEventsSettings;
    const stretches = stretchesFor(ctx.identity, settings, !ctx.target.reference);
    const freshEvent = () => wire(freshCase(ctx.identity, settings, stretches).event(0, 'api_call', { tier: 'tier_a', units: 1 }));
    let listedId: string | undefined;
    const firstListed = async () => {
      const r = await ctx.api.send({ method: 'GET', path: `/v1/events?${new URLSearchParams({ [settings.paging.limit]: '1' })}`, authenticate: true, label: 'an event to read by its id' });
      // Only a list the API gave says there is no event to read; one refused or undecided says nothing of it.
      needAccepted(r, 'the list of events (an id to read by)');
      const items = itemsOf(r.json, { paging: settings.paging, itemsStated: isStated(ctx.profile, 'usage-events', 'paging.items') });
      const id = Array.isArray(items) ? (items[0] as Record<string, unknown> | undefined)?.[settings.eventId] : undefined;
      return typeof id === 'string' || typeof id === 'number' ? String(id) : undefined;
    };
    /**
     * An id the target gave out: the first event it lists (the reference, and a live target with events, have one).
     * An empty list is asked again for as long as the profile says an ingested event takes to become queryable: the
     * check's own valid ingest, just before, may not be listed yet (a quick worker asked within 50 ms, and read no event).
     */
    const someEventId = async () => {
      if (listedId) return listedId;
      const deadline = Date.now() + caseWaitMs(settings);
      listedId = await firstListed();
      while (listedId === undefined && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        listedId = await firstListed();
      }
      return listedId;
    };
    return {
      // What a deployment needs to know the organization is not shown (D-NS-ORGANIZATION-SCOPE): a refusal of a valid
      // read of one event may rest on it, unless the profile states what the target needs (settings.extras).
      refusalOpen: (op: Operation, reply) =>
        op.key === 'GET /v1/events/{id}' && !isStated(ctx.profile, 'usage-events', 'extras')
          ? `refused (${reply.status}), and what the target needs beside the token to know the organization is not shown (D-NS-ORGANIZATION-SCOPE): state it in settings.extras ({} for nothing more)`
          : undefined,
      valid: async (op: Operation) => {
        if (op.key === 'POST /v1/events/ingest') return { request: { method: 'POST', path: '/v1/events/ingest', json: { events: [freshEvent()] }, authenticate: true } };
        if (op.key === 'GET /v1/events/statistics') {
          // With the profile's first meter and its own aggregation, where it names one: whether a meter is required is
          // the deployment's (D-NS-REQUIRED-PARAMETERS).
          const meter = settings.meters[0];
          const prepared = specRequest(ctx.spec, op, { organization_id: settings.organizationId, ...(meter ? { aggregation: meter.aggregation.func } : {}) });
          if (!('request' in prepared) || !meter) return prepared;
          const query = new URLSearchParams({ [settings.query.meter]: meter.id, ...(meter.aggregation.property ? { [settings.query.aggregatedProperty]: meter.aggregation.property } : {}) });
          return { request: { ...prepared.request, path: `${prepared.request.path}&${query}` } };
        }
        if (op.key === 'GET /v1/events/{id}') {
          const id = await someEventId();
          return id === undefined ? { notApplicable: 'the target lists no event whose id a valid request could read' } : specRequest(ctx.spec, op, { id });
        }
        return undefined;
      },
    };
  },
});
