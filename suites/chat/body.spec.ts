import { Inconclusive, NotTested, RequirementViolation } from '../../harness/fixtures.ts';
import { test } from './test.ts';
import { reqTags } from './tags.ts';
import type { RequirementId } from '../../generated/chat.ts';
import type { Reply } from '../../harness/http/client.ts';
import type { Exchange } from '../../harness/http/exchange.ts';
import { answerKind, describeAnswer, isThrottled, mustBeRefused } from '../../harness/answers.ts';
import { chatSettings } from './driver.ts';
import { chatRequest } from './request.ts';
import { readingsOf, sightBadBodyAnswers } from './sightings.ts';

const NOT_JSON = ['{"messages": [', 'Hola, ¿qué tal?'];
const WITHOUT_MESSAGES = ['{}', '{"prompt":"Hola"}', '{"messages":"Hola"}', 'null'];

interface Answer {
  body: string;
  status: number;
  exchange: Exchange;
  reply: Reply;
}
const REQUIREMENTS: RequirementId[] = ['E-BODY-NOT-JSON', 'E-BODY-MESSAGES-REQUIRED', 'E-GEN-NO-5XX'];
const show = (list: Answer[]) => list.map((a) => `body ${JSON.stringify(a.body)} got ${describeAnswer(a.reply)}`).join('; ');
/** The chat endpoint's own answer: an acceptance or a refusal. A 429 to a fresh client, a 5xx, a redirect or a page is not. */
const isApiAnswer = (a: Answer) => ['accepted', 'refused'].includes(answerKind(a.reply));

test(
  'a body that is not JSON, or has no messages array, is refused with a 4xx',
  { tag: reqTags(...REQUIREMENTS) },
  async ({ api, identity, verify, reading, profile }) => {
    const answers: Answer[] = [];
    // "Chat request body: an object with messages, an array of objects with role and content": a body that is not
    // that is refused; the document does not say with which status (E-NS-BAD-BODY-ANSWER), so any 4xx will do.
    const judge = (id: string, bodies: string[]) =>
      verify(id, async () => {
        for (const body of bodies) {
          // Each from a fresh client, so that no limit can stand in for the answer.
          const r = await api.send({ method: 'POST', path: '/api/chat', headers: { 'content-type': 'application/json', 'X-Forwarded-For': identity.address() }, body });
          // A fresh client's first request cannot have earned a 429: one is the environment's (a gateway in front), not
          // the limiter's answer to hold to the spec's 429 (harness/response-checks.ts).
          if (isThrottled(r)) r.exchange.environment = "a 429 to a fresh client's first request, which no client could have earned";
          answers.push({ body, status: r.status, exchange: r.exchange, reply: r });
        }
        const mine = answers.filter((a) => bodies.includes(a.body));
        // An acceptance breaks the rule outright: the rule asks for a refusal, and no control can excuse one.
        const taken = mine.filter((a) => answerKind(a.reply) === 'accepted');
        if (taken.length > 0) throw new RequirementViolation(id, show(taken), 'a 4xx refusal (the body is not the documented object with a messages array)', taken.map((a) => a.exchange));
        // A 429 to a fresh client is no limit it earned, a 5xx is E-GEN-NO-5XX's (wherever it shows), and a redirect or a
        // page is not the chat endpoint answering: none of them says anything about the body.
        const refusals = mine.filter((a) => answerKind(a.reply) === 'refused');
        const undecided = mine.filter((a) => !isApiAnswer(a));
        if (refusals.length === 0) throw new Inconclusive(`no bad body was answered by the chat endpoint: ${show(undecided)}`);
        // The control: the documented body, from a fresh client too, which the target accepts; a refusal beside a
        // refused control proves nothing (mustBeRefused leaves it inconclusive).
        const control = await api.send({ method: 'POST', path: '/api/chat', headers: { 'X-Forwarded-For': identity.address() }, json: chatRequest(chatSettings(profile)), label: 'the documented body (the control)' });
        for (const a of refusals) mustBeRefused(id, a.reply, `body ${JSON.stringify(a.body)}`, { control });
        // Refused beside the control, but not every bad body got an answer of the endpoint: not passed on the ones the
        // trouble spared.
        if (undecided.length > 0) throw new Inconclusive(`refused beside an accepted control, but ${show(undecided)}: the answers decide nothing about the body`);
      });
    await judge('E-BODY-NOT-JSON', NOT_JSON);
    await judge('E-BODY-MESSAGES-REQUIRED', WITHOUT_MESSAGES);
    const repliesTo = (bodies: string[]) => answers.filter((a) => bodies.includes(a.body)).map((a) => a.reply);
    sightBadBodyAnswers(repliesTo(NOT_JSON), repliesTo(WITHOUT_MESSAGES), readingsOf(REQUIREMENTS, reading));
    // A 5xx fails E-GEN-NO-5XX where it shows (harness/response-checks.ts); here it passes where every bad body got an
    // answer of the endpoint, none a server error.
    if (answers.some((a) => answerKind(a.reply) === 'server-error')) return;
    await verify('E-GEN-NO-5XX', () => {
      const undecided = answers.filter((a) => !isApiAnswer(a));
      if (undecided.length > 0) throw new Inconclusive(`some bad bodies got no answer of the chat endpoint: ${show(undecided)}`);
      if (answers.length === 0) throw new NotTested('no bad body was sent');
    });
  },
);
