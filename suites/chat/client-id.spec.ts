import { fitTimeout } from '../../harness/budget.ts';
import { Inconclusive, NotTested, RequirementViolation } from '../../harness/fixtures.ts';
import { test } from './test.ts';
import { reqTags } from './tags.ts';
import type { RequirementId } from '../../generated/chat.ts';
import { TargetError, type Reply } from '../../harness/http/client.ts';
import { isThrottled } from '../../harness/answers.ts';
import { ChatRun, FORMS, KINDS, SOCKET, chatSettings, limiterView, replyWaitMs, whenOf } from './driver.ts';
import type { Expectation, When } from './model.ts';
import { DEV, chatScope } from './scope.ts';
import { readingsOf } from './sightings.ts';

const IDENTITY: RequirementId[] = ['E-CLIENT-ID-XFF-FIRST', 'E-CLIENT-ID-XREALIP', 'E-PER-CLIENT'];

test('client identity: header forms naming one client share its counter, other clients do not', { tag: reqTags(...IDENTITY) }, async ({ api, profile, target, identity, verify, notApplicable, reading }, testInfo) => {
  const settings = chatSettings(profile);
  const { counting } = chatScope(settings, target.baseUrl);
  if (counting) {
    for (const id of IDENTITY) notApplicable(id, counting);
    return;
  }
  const { maxRequests: m, instances: n } = settings;
  // Every header form with every way of writing an address: IPv4, IPv6 and IPv4-mapped IPv6.
  const flows = FORMS.flatMap((form) => KINDS.map((kind) => ({ form, kind })));
  fitTimeout(testInfo, { requests: flows.length * (2 * n * m + 5), waitMs: replyWaitMs(settings, 4) }, profile, !target.reference);
  const run = new ChatRun(api, settings, () => identity.address(), (id) => (IDENTITY as readonly string[]).includes(id), readingsOf(IDENTITY, reading));
  await run.together(
    flows.map(({ form, kind }) => async () => {
      const a = run.client(kind);
      await run.fill(a, form);
      // The same client in plain X-Forwarded-For: the document names the same client, so it is limited too (asked
      // right away, while its stamps are certainly in the window however long replies take).
      await run.send(a, 'xff');
      // Another client in the same form has a counter of its own, even when the rest of its headers are a's.
      await run.send({ ...run.client(kind), decoys: a.decoys }, form);
      // Is a limited IPv6 client's network limited with it? Either is correct (E-NS-IPV6-KEY); the report says which.
      if (form === 'xff' && kind === 'v6') await run.sightNetworkKey(a);
    }),
  );
  await run.judge(verify, IDENTITY);
});

/** A header-less request's answer and when the server handled it, with what the model demands of it. */
interface Judged {
  reply: Reply;
  at: When;
  /** Answered 429 (whose 429 it is, ChatRun.limiters tells). */
  limited: boolean;
  e: Expectation;
}

/**
 * Header-less requests (the socket address): one after another, or, where replies wait for a model, as many at once as
 * the limit may still let through; each judged beside the others sent with it, then recorded.
 */
async function socketRequests(run: ChatRun, count: number): Promise<Judged[]> {
  const replies = await run.postAtOnce({}, count);
  const sent = replies.map((reply) => ({ reply, at: whenOf(reply), limited: isThrottled(reply) }));
  const judged = sent.map((s) => ({ ...s, e: run.model.expect(SOCKET, s.at, sent.filter((o) => o !== s && !o.limited).map((o) => o.at)) }));
  for (const { at, limited } of judged) run.model.record(SOCKET, at, limited);
  return judged;
}

/**
 * How many header-less requests to send at once: one, or where replies are slow one more than the limit may still let
 * through (so that a limiter that counts them must limit one, and one that does not lets one through beyond the limit).
 */
const socketRound = (run: ChatRun) => (run.slow ? run.roomOf(SOCKET) + 1 : 1);

/** Of header-less requests sent together, how many the normal rules would have limited (see SlidingWindow.excess). */
function overTheLimit(run: ChatRun, judged: readonly Judged[]): number {
  return run.model.excess(SOCKET, judged.filter(({ limited }) => !limited).map(({ at }) => at));
}

/**
 * A header-less request refused (a 4xx other than 429) counts against `rule` only beside a control: the same request
 * naming a fresh client in X-Forwarded-For, allowed. Refused too (or throttled, or failed), it is the documented request
 * itself the target refuses (it asks for more than the document shows): nothing is judged.
 */
async function refusedHeaderless(run: ChatRun, fresh: string, rule: string, reply: Reply, what: string, expected: string): Promise<never> {
  const control = await run.post({ 'X-Forwarded-For': fresh });
  if (limiterView(control) === 'allowed') {
    // The refused request last: it is the answer that broke the rule.
    throw new RequirementViolation(rule, `${what} got ${reply.status}, neither allowed nor the 429 limit, while the same request naming a fresh client in X-Forwarded-For was allowed (${control.status})`, expected, [control.exchange, reply.exchange]);
  }
  throw new NotTested(`${what} got ${reply.status}, and the same request naming a fresh client in X-Forwarded-For got ${control.status}: the target refuses the documented chat request itself (it may ask for more than the document shows: E-NS-AUTH, E-NS-EXTRA-INPUT)`);
}

/** A header-less request that got a 429 the limiter did not give, by what marks it (ChatRun.limiters): the environment's. */
function notTheLimiters(reply: Reply, what: string): Inconclusive {
  reply.exchange.environment = `${what}: a 429 unlike the limiter's own where no client could have earned one`;
  return new Inconclusive(`${what} was answered 429 ${reply.text.slice(0, 80)}, unlike the limiter's own 429 and where no client could have earned one: taken for the environment's (a gateway throttling the run), which decides nothing`);
}

/** Header-less requests over loopback, in development mode: "localhost connections are allowed" in either reading. */
async function unlimitedOverLoopback(run: ChatRun, fresh: () => string): Promise<void> {
  const { windowMs: w, maxRequests: m, instances: n } = run.settings;
  const total = 2 * n * m + 3;
  const answers: number[] = [];
  let overLimit = 0;
  while (answers.length < total) {
    const judged = await socketRequests(run, Math.min(socketRound(run), total - answers.length));
    // What the normal rules would demand of a client with these stamps: a 429 once n x m are certainly in the window.
    overLimit += overTheLimit(run, judged);
    for (const { reply, limited } of judged) {
      answers.push(reply.status);
      const i = answers.length;
      const kind = limiterView(reply);
      if (kind === 'refused') await refusedHeaderless(run, fresh(), DEV, reply, `header-less request ${i} over a loopback connection (answers so far: ${answers.join(', ')})`, 'allowed: in development mode localhost connections are allowed');
      if (kind === 'no-verdict') throw new Inconclusive(`header-less request ${i} over a loopback connection got ${reply.status}, neither allowed nor limited: whether localhost is let past the limit could not be told`);
      if (limited && !run.limiters(reply)) throw notTheLimiters(reply, `header-less request ${i} over a loopback connection`);
      if (limited) {
        throw new RequirementViolation(
          DEV,
          `header-less request ${i} over a loopback connection got 429 although the profile says development mode (answers so far: ${answers.join(', ')}); if the harness reaches the target through a port mapping (a container's published port, say), the server sees another address than loopback and the profile should not claim loopback`,
          'never 429: in development mode localhost connections are allowed',
          [reply.exchange],
        );
      }
    }
  }
  if (overLimit === 0) {
    throw new NotTested(`the ${total} header-less requests were too slow to put more than ${n > 1 ? `${n} x ` : ''}${m} of them in one ${w} ms window: whether localhost is let past the limit never showed`);
  }
}

test(
  'socket address identity, development mode over loopback, and a forged X-Forwarded-For',
  { tag: reqTags('E-CLIENT-ID-SOCKET', DEV, 'E-ADVISORY-XFF-FORGEABLE') },
  async ({ api, profile, target, identity, verify, notApplicable, notTested, advise, plannedWait }, testInfo) => {
    const settings = chatSettings(profile);
    const { windowMs: w, maxRequests: m, instances: n } = settings;
    const scope = chatScope(settings, target.baseUrl);
    fitTimeout(testInfo, { requests: 4 * n * m + 8, waitMs: w + replyWaitMs(settings, 6) }, profile, !target.reference);
    const run = new ChatRun(api, settings, () => identity.address(), () => false);

    // This test alone sends requests without X-Forwarded-For and X-Real-IP: the socket address is its own.
    if (scope.dev) notApplicable(DEV, scope.dev);
    else await verify(DEV, () => unlimitedOverLoopback(run, () => identity.address()));
    if (scope.counting) {
      notApplicable('E-CLIENT-ID-SOCKET', scope.counting);
      notApplicable('E-ADVISORY-XFF-FORGEABLE', settings.clientAddressesPreserved ? scope.counting : `${scope.counting}; that proxy is what keeps callers from forging their identity`);
      return;
    }

    const refused = (reply: Reply, what: string, expected: string) => refusedHeaderless(run, identity.address(), 'E-CLIENT-ID-SOCKET', reply, what, expected);

    const fillSocket = async () => {
      // The harness's own address may still hold stamps from an earlier run against a live target: if the very
      // first request is limited, those are sat out once before anything is counted.
      const first = await run.post({});
      const firstView = limiterView(first);
      if (firstView === 'refused') await refused(first, 'the first header-less request', 'allowed (a 2xx reply)');
      if (firstView === 'no-verdict') throw new Inconclusive(`the first header-less request got ${first.status}, neither allowed nor limited`);
      if (firstView === 'limited') {
        const wait = Math.max(w, Number(first.headers['retry-after']) * 1000 || 0);
        plannedWait(wait);
        await new Promise((r) => setTimeout(r, wait + 50));
      } else {
        run.model.record(SOCKET, whenOf(first), false);
      }
      const answers: number[] = firstView === 'limited' ? [] : [first.status];
      let overLimit = 0;
      for (;;) {
        const judged = await socketRequests(run, socketRound(run));
        for (const { reply, e, limited } of judged) {
          answers.push(reply.status);
          const seen = `answers to the header-less requests so far: ${answers.join(', ')}`;
          // Only an allowed reply or the limiter's 429 count: a refusal is blamed on what the request was testing beside
          // its control, and a 5xx, a redirect or a 429 no client could have earned (unlike the limiter's) leave the
          // question open.
          const kind = limiterView(reply);
          if (kind === 'refused') await refused(reply, `header-less request ${answers.length}`, e.answer === 'limited' ? '429' : 'allowed (a 2xx reply)');
          if (kind === 'no-verdict') throw new Inconclusive(`header-less request ${answers.length} got ${reply.status}, neither allowed nor limited; ${seen}`);
          if (e.answer === 'allowed' && limited && !run.limiters(reply)) throw notTheLimiters(reply, `header-less request ${answers.length}`);
          if (e.answer === 'allowed' && limited) {
            // Other checks send X-Real-IP-only and IPv6 X-Forwarded-For requests meanwhile: a target that counts those
            // under the socket address fills this counter, so their failure explains this one, as does a limit that
            // comes early for every client.
            throw new RequirementViolation(
              'E-CLIENT-ID-SOCKET',
              `header-less request ${answers.length} got 429 while at most ${e.possible} stamps of the socket address can be in the ${w} ms window (maxRequests ${m}); ${seen}`,
              'allowed',
              [reply.exchange],
              ['E-CLIENT-ID-XREALIP', 'E-CLIENT-ID-XFF-FIRST', 'E-LIMIT-ALLOWED'],
            );
          }
        }
        if (judged.some(({ limited }) => limited)) return;
        // The question here is whether header-less requests are counted at all; a few too many getting through is a
        // counting fault that the other tests judge.
        // A limit that lets every client through a whole allowance too many (an instance more than the profile
        // declares, say) explains this too.
        overLimit += overTheLimit(run, judged);
        if (overLimit >= m) {
          throw new RequirementViolation(
            'E-CLIENT-ID-SOCKET',
            `${answers.length} header-less requests, ${overLimit} of them beyond ${n > 1 ? `${n} x ` : ''}${m} certainly in one ${w} ms window, none limited; answers to the header-less requests so far: ${answers.join(', ')}`,
            `429 once the socket address has ${n > 1 ? `${n} x ` : ''}${m} stamps in the window`,
            undefined,
            ['E-PER-INSTANCE', 'E-LIMIT-429'],
          );
        }
      }
    };

    if (!(await verify('E-CLIENT-ID-SOCKET', fillSocket))) {
      notTested('E-ADVISORY-XFF-FORGEABLE', 'no caller was limited by its socket address, so there was no limit to dodge by forging X-Forwarded-For');
      return;
    }
    const forged = identity.address();
    let reply: Reply;
    try {
      reply = await run.post({ 'X-Forwarded-For': forged });
    } catch (e) {
      if (!(e instanceof TargetError)) throw e;
      return notTested('E-ADVISORY-XFF-FORGEABLE', `the request with a forged X-Forwarded-For got no answer: ${e.message}`);
    }
    // Only an allowed reply shows the risk, and only a 429 its absence: anything else decides nothing.
    const view = limiterView(reply);
    if (view === 'allowed') {
      advise('E-ADVISORY-XFF-FORGEABLE', `a caller limited as its socket address got a fresh counter (answer ${reply.status}) by sending X-Forwarded-For: ${forged}; any caller can dodge the limit this way unless a trusted proxy overwrites X-Forwarded-For and X-Real-IP`);
    } else if (view === 'limited') advise('E-ADVISORY-XFF-FORGEABLE', undefined);
    else notTested('E-ADVISORY-XFF-FORGEABLE', `the request with a forged X-Forwarded-For got ${reply.status}, neither allowed nor limited`);
  },
);
