/**
 * "request rate | broker operations | 20 requests per second per UID". How a second is counted is open
 * (U-NS-BROKER-RATE-WINDOW: whole seconds, or a sliding second), so the check asserts what both agree on: once a
 * request of the broker key is throttled, the requests accepted after it before the next throttle are at most 20
 * where they all fall within one second (they lie in one window of either kind, which a throttle had filled).
 */
import { fitTimeout } from '../../harness/budget.ts';
import { isAccepted } from '../../harness/answers.ts';
import { deviation } from '../../harness/verdicts.ts';
import { test } from './test.ts';
import { reqTags } from './tags.ts';
import { hasRole } from './auth.ts';
import { withQuery } from './requests.ts';
import { takeBrokerRate } from './patient.ts';
import type { Reply } from '../../harness/http/client.ts';

const LIMIT = 20;
/** How long the burst lasts at most, and how many requests it sends at most. */
const BURST_MS = 2600;
const BURST_MAX = 400;

test('broker requests beyond 20 in a second are throttled', { tag: reqTags('U-LIMIT-BROKER-RATE') }, async ({ api, spec, profile, target, secrets, identity, verify, notApplicable }, testInfo) => {
  if (!hasRole(secrets, 'broker')) return notApplicable('U-LIMIT-BROKER-RATE', 'the profile names no key of a broker master account (credentials.broker)');
  fitTimeout(testInfo, { requests: BURST_MAX, waitMs: BURST_MS + 1100 }, profile, !target.reference);
  const op = spec.operations.find((o) => o.operationId === 'listBrokerSubAccounts');
  const path = withQuery(op?.path ?? '/api/v3/broker/sub-list', { limit: 1 });
  // No other check sends the broker key's requests meanwhile, nor until the last throttled second has passed.
  const release = await takeBrokerRate(identity, 'the broker burst');
  try {
  await verify('U-LIMIT-BROKER-RATE', async (seen) => {
    // Sent one after another as fast as answered; after a refusal a short pause, so that a throttled second costs few requests.
    const sent: Array<{ at: number; ok: boolean; exchange: Reply['exchange'] }> = [];
    const started = Date.now();
    let runs = 0;
    while (Date.now() - started < BURST_MS && sent.length < BURST_MAX && runs < 2) {
      const at = Date.now();
      const r = await api.send({ method: 'GET', path, authenticate: true, credential: 'broker', label: `broker sub-list, request ${sent.length + 1} of a burst` });
      sent.push({ at, ok: isAccepted(r), exchange: r.exchange });
      if (!isAccepted(r)) {
        // A run of acceptances between two refusals is complete: judged now.
        const before = sent.slice(0, -1).map((x) => x.ok).lastIndexOf(false);
        if (before >= 0 && before < sent.length - 2) {
          const run = sent.slice(before + 1, -1);
          const span = run[run.length - 1]!.at - run[0]!.at;
          if (span < 1000) {
            runs++;
            seen('a run of acceptances between two throttles');
            if (run.length > LIMIT) {
              throw deviation(`after a throttle, ${run.length} broker requests were accepted within ${span} ms before the next`, `at most ${LIMIT} in a second`, [sent[before]!.exchange, ...run.slice(LIMIT - 1, LIMIT + 1).map((x) => x.exchange), r.exchange]);
            }
          }
        }
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    }
  }, { needs: ['a run of acceptances between two throttles'] });
  } finally {
    await new Promise((resolve) => setTimeout(resolve, 1100));
    release();
  }
});
