import { test, reqTags, RequirementViolation } from '../../harness/fixtures.ts';
import type { Headers } from './model.ts';
import { ChatRun, FORMS, SOCKET, chatSettings, headersOf, whenOf } from './driver.ts';

const IDENTITY = ['E-CLIENT-ID-XFF-FIRST', 'E-CLIENT-ID-XREALIP', 'E-PER-CLIENT'];
const NOT_PRESERVED = 'the profile says a proxy rewrites X-Forwarded-For (clientAddressesPreserved: false), so the client addresses the harness sends do not reach the limiter';

test('client identity: header forms naming one client share its counter, other clients do not', { tag: reqTags(...IDENTITY) }, async ({ api, profile, identity, verify, notApplicable }) => {
  const settings = chatSettings(profile);
  if (!settings.clientAddressesPreserved) {
    for (const id of IDENTITY) notApplicable(id, NOT_PRESERVED);
    return;
  }
  const run = new ChatRun(api, settings, () => identity.address(), (id) => IDENTITY.includes(id));
  await run.together(
    FORMS.map((form) => async () => {
      const a = run.client();
      await run.fill(a, form);
      // Another client in the same form has a counter of its own, even when the rest of its headers are a's.
      await run.send({ address: identity.address(), decoy: a.decoy }, form);
      // The same client in plain X-Forwarded-For: the document names the same client, so it is limited too.
      await run.send(a, 'xff');
    }),
  );
  for (const id of IDENTITY) await verify(id, () => run.check(id));
});

test(
  'socket address identity, and a forged X-Forwarded-For',
  { tag: reqTags('E-CLIENT-ID-SOCKET', 'E-ADVISORY-XFF-FORGEABLE') },
  async ({ api, profile, identity, verify, notApplicable, advise, plannedWait }) => {
    const settings = chatSettings(profile);
    const { windowMs: w, maxRequests: m, instances: n } = settings;
    if (!settings.clientAddressesPreserved) {
      notApplicable('E-CLIENT-ID-SOCKET', NOT_PRESERVED);
      notApplicable('E-ADVISORY-XFF-FORGEABLE', `${NOT_PRESERVED}; that proxy is what keeps callers from forging their identity`);
      return;
    }
    const run = new ChatRun(api, settings, () => identity.address(), () => false);

    // This test alone sends requests without X-Forwarded-For and X-Real-IP: the socket address is its own.
    const fillSocket = async () => {
      // The harness's own address may still hold stamps from an earlier run against a live target: if the very
      // first request is limited, those are sat out once before anything is counted.
      const first = await run.post({});
      if (first.status === 429) {
        const wait = Math.max(w, Number(first.headers['retry-after']) * 1000 || 0);
        plannedWait(wait);
        await new Promise((r) => setTimeout(r, wait + 50));
      } else {
        run.model.record(SOCKET, whenOf(first), false);
      }
      const answers: number[] = first.status === 429 ? [] : [first.status];
      let overLimit = 0;
      for (;;) {
        const reply = await run.post({});
        const at = whenOf(reply);
        const e = run.model.expect(SOCKET, at);
        const limited = reply.status === 429;
        run.model.record(SOCKET, at, limited);
        answers.push(reply.status);
        const seen = `answers to the header-less requests so far: ${answers.join(', ')}`;
        if (e.answer === 'allowed' && limited) {
          throw new RequirementViolation('E-CLIENT-ID-SOCKET', `header-less request ${answers.length} got 429 while at most ${e.possible} stamps of the socket address can be in the ${w} ms window (maxRequests ${m}); ${seen}`, 'allowed');
        }
        if (limited) return;
        // The question here is whether header-less requests are counted at all; a few too many getting through is a
        // counting fault that the other tests judge.
        if (e.answer === 'limited' && ++overLimit >= m) {
          throw new RequirementViolation('E-CLIENT-ID-SOCKET', `${answers.length} header-less requests, ${e.certain} of them certainly in one ${w} ms window, none limited; ${seen}`, `429 once the socket address has ${n > 1 ? `${n} x ` : ''}${m} stamps in the window`);
        }
      }
    };

    let limitedAs: Headers | undefined;
    if (settings.developmentMode) {
      notApplicable('E-CLIENT-ID-SOCKET', 'development mode: the document allows localhost connections without saying how, so nothing is asserted about the socket identity');
      const h = headersOf('xff', run.client());
      for (let i = 0; i < 2 * n * m + 2 && !limitedAs; i++) if ((await run.post(h)).status === 429) limitedAs = h;
    } else if (await verify('E-CLIENT-ID-SOCKET', fillSocket)) {
      limitedAs = {};
    }
    if (!limitedAs) return; // no limited caller to forge from: the advisory stays untested

    const forged = identity.address();
    const reply = await run.post({ ...limitedAs, 'X-Forwarded-For': forged });
    advise(
      'E-ADVISORY-XFF-FORGEABLE',
      reply.status === 429
        ? undefined
        : `a caller limited as ${limitedAs['X-Forwarded-For'] ?? 'its socket address'} got a fresh counter (answer ${reply.status}) by sending X-Forwarded-For: ${forged}; any caller can dodge the limit this way unless a trusted proxy overwrites X-Forwarded-For and X-Real-IP`,
    );
  },
);
