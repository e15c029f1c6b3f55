import { NotTested, RequirementViolation } from '../../harness/fixtures.ts';
import { test } from './test.ts';
import { reqTags } from './tags.ts';
import type { RequirementId } from '../../generated/chat.ts';
import type { Reply } from '../../harness/http/client.ts';
import type { Exchange } from '../../harness/http/exchange.ts';
import { controlAccepted, isRefused, isServerError, isThrottled } from '../../harness/answers.ts';
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
const show = (list: Answer[]) => list.map((a) => `body ${JSON.stringify(a.body)} got ${a.status}`).join('; ');

test(
  'a body that is not JSON, or has no messages array, is refused with a 4xx',
  { tag: reqTags(...REQUIREMENTS) },
  async ({ api, identity, verify, reading, profile }) => {
    const answers: Answer[] = [];
    // 5xx answers already shown as evidence of a body requirement, which failed E-GEN-NO-5XX with them.
    const reported = new Set<Answer>();
    // "Chat request body: an object with messages, an array of objects with role and content": a body that is not
    // that is refused; the document does not say with which status (E-NS-BAD-BODY-ANSWER), so any 4xx will do.
    const judge = (id: string, bodies: string[]) =>
      verify(id, async () => {
        for (const body of bodies) {
          // Each from a fresh client, so that no limit can stand in for the answer.
          const r = await api.send({ method: 'POST', path: '/api/chat', headers: { 'content-type': 'application/json', 'X-Forwarded-For': identity.address() }, body });
          answers.push({ body, status: r.status, exchange: r.exchange, reply: r });
        }
        const mine = answers.filter((a) => bodies.includes(a.body));
        // Accepted, failed (a 5xx is never a refusal) or not the API: anything but a refusal or the limiter's 429.
        const wrong = mine.filter((a) => !isRefused(a.reply) && !isThrottled(a.reply));
        if (wrong.length > 0) {
          wrong.filter((a) => isServerError(a.reply)).forEach((a) => reported.add(a));
          throw new RequirementViolation(
            [id, ...(wrong.some((a) => isServerError(a.reply)) ? ['E-GEN-NO-5XX'] : [])],
            show(wrong),
            'a 4xx refusal (the body is not the documented object with a messages array)',
            wrong.map((a) => a.exchange),
          );
        }
        // A 429 to a fresh client is the limiter's answer, not the body check's: it shows nothing about the body.
        if (mine.every((a) => isThrottled(a.reply))) throw new NotTested(`every bad body was answered 429 although each came from a fresh client: ${show(mine)}`);
        // The control: the documented body, from a fresh client too, which the target accepts.
        const control = await api.send({ method: 'POST', path: '/api/chat', headers: { 'X-Forwarded-For': identity.address() }, json: chatRequest(chatSettings(profile)), label: 'the documented body (the control)' });
        controlAccepted(control, 'each bad body');
      });
    await judge('E-BODY-NOT-JSON', NOT_JSON);
    await judge('E-BODY-MESSAGES-REQUIRED', WITHOUT_MESSAGES);
    const repliesTo = (bodies: string[]) => answers.filter((a) => bodies.includes(a.body)).map((a) => a.reply);
    sightBadBodyAnswers(repliesTo(NOT_JSON), repliesTo(WITHOUT_MESSAGES), readingsOf(REQUIREMENTS, reading));
    const crashed = answers.filter((a) => isServerError(a.reply));
    if (crashed.length > 0 && crashed.every((a) => reported.has(a))) return;
    await verify('E-GEN-NO-5XX', () => {
      if (crashed.length > 0) throw new RequirementViolation('E-GEN-NO-5XX', show(crashed), 'no 5xx for bad input', crashed.map((a) => a.exchange));
    });
  },
);
