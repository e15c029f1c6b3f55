/**
 * "request rate | broker operations | 20 requests per second per UID". How a second is counted is open
 * (U-NS-BROKER-RATE-WINDOW: whole seconds of the server's clock, or a sliding second), so the check asserts what both
 * agree on: within one whole second of the server's clock, at most 20 requests of the broker key are accepted (a
 * sliding second never holds more, wherever it lies; a whole second is what the other reading counts).
 *
 * The server's clock is read from the public time (its offset from the harness's, to within half the fastest round
 * trip). Each burst starts after a quiet second (so that a sliding window is empty) just past the start of a server
 * second, and sends one request after another until that second ends; a request counts for the second only where its
 * whole round trip, moved by the offset and its uncertainty, lies inside it. A burst that was throttled within its
 * second filled it; one never throttled proves nothing (a harness too slow to fill a second).
 */
import { fitTimeout } from '../../harness/budget.ts';
import { isAccepted, isRefused, isThrottled } from '../../harness/answers.ts';
import { deviation, NotTested } from '../../harness/verdicts.ts';
import type { Client, Reply } from '../../harness/http/client.ts';
import { test } from './test.ts';
import { reqTags } from './tags.ts';
import { hasRole } from './auth.ts';
import { withQuery } from './requests.ts';
import { takeBrokerRate } from './patient.ts';

const LIMIT = 20;
const BURSTS = 2;
const BURST_MAX = 200;
const FILLED = 'a server second filled until the broker key was throttled';

interface Clock {
  /** Server time minus the harness's, in ms, and how far it may be off. */
  offset: number;
  slack: number;
}

/** The server clock's offset, from the fastest of three reads of the public time. */
async function serverClock(api: Client): Promise<Clock | undefined> {
  let best: Clock | undefined;
  for (let i = 0; i < 3; i++) {
    const t0 = Date.now();
    const r = await api.send({ method: 'GET', path: '/api/v3/public/time', label: 'the server time, to count whole seconds of its clock' });
    const t1 = Date.now();
    const serverTime = Number((r.json as { data?: { serverTime?: unknown } } | undefined)?.data?.serverTime);
    if (!isAccepted(r) || !Number.isFinite(serverTime)) continue;
    const clock = { offset: serverTime - (t0 + t1) / 2, slack: (t1 - t0) / 2 + 1 };
    if (!best || clock.slack < best.slack) best = clock;
  }
  return best;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

test('broker requests beyond 20 in a second are throttled', { tag: reqTags('U-LIMIT-BROKER-RATE') }, async ({ api, spec, profile, target, secrets, identity, verify, notApplicable }, testInfo) => {
  if (!hasRole(secrets, 'broker')) return notApplicable('U-LIMIT-BROKER-RATE', 'the profile names no key of a broker master account (credentials.broker)');
  fitTimeout(testInfo, { requests: BURSTS * BURST_MAX + 10, waitMs: BURSTS * 3200 }, profile, !target.reference);
  const op = spec.operations.find((o) => o.operationId === 'listBrokerSubAccounts');
  const path = withQuery(op?.path ?? '/api/v3/broker/sub-list', { limit: 1 });
  // No other check sends the broker key's requests meanwhile, nor until the last throttled second has passed.
  const release = await takeBrokerRate(identity, 'the broker burst');
  try {
    await verify('U-LIMIT-BROKER-RATE', async (seen) => {
      const clock = await serverClock(api);
      if (!clock) throw new NotTested('the public time gave no serverTime: whole seconds of the server clock cannot be told');
      if (clock.slack > 100) throw new NotTested(`the server time took ${Math.round(clock.slack * 2)} ms to answer: its seconds cannot be told apart from the harness's clock`);
      const serverNow = () => Date.now() + clock.offset;
      for (let burst = 1; burst <= BURSTS; burst++) {
        // A quiet second, then the start of the next whole server second (plus the clock's uncertainty).
        await sleep(1100);
        const start = Math.ceil(serverNow() / 1000) * 1000;
        await sleep(start + clock.slack + 2 - serverNow());
        const inSecond: Array<{ ok: boolean; refused: boolean; exchange: Reply['exchange'] }> = [];
        for (let n = 0; n < BURST_MAX && serverNow() - clock.slack < start + 1000; n++) {
          const t0 = Date.now();
          const r = await api.send({ method: 'GET', path, authenticate: true, credential: 'broker', label: `broker sub-list, burst ${burst}, request ${n + 1}` });
          const t1 = Date.now();
          // Counted only where its whole round trip lies within the second, on the server's clock.
          if (t0 + clock.offset - clock.slack >= start && t1 + clock.offset + clock.slack < start + 1000) inSecond.push({ ok: isAccepted(r), refused: isThrottled(r) || isRefused(r), exchange: r.exchange });
        }
        const accepted = inSecond.filter((x) => x.ok);
        if (accepted.length > LIMIT) {
          throw deviation(
            `${accepted.length} broker requests were accepted within one second of the server's clock (${new Date(start).toISOString()})`,
            `at most ${LIMIT} in a second`,
            [accepted[0]!.exchange, accepted[LIMIT]!.exchange, ...inSecond.filter((x) => x.refused).slice(0, 1).map((x) => x.exchange)],
          );
        }
        // Filled only where a request was throttled or refused (what a limited request gets is open): a 5xx or no answer
        // is the environment's trouble, not a throttle.
        if (inSecond.some((x) => x.refused)) seen(FILLED);
      }
    }, { needs: [FILLED] });
  } finally {
    await sleep(1100);
    release();
  }
});
