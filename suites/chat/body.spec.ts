import { test, reqTags, RequirementViolation } from '../../harness/fixtures.ts';

const NOT_JSON = ['{"messages": [', 'Hola, ¿qué tal?'];
const WITHOUT_MESSAGES = ['{}', '{"prompt":"Hola"}', '{"messages":"Hola"}', 'null'];

test(
  'a body that is not JSON, or has no messages array, gets no server error',
  { tag: reqTags('E-BODY-NOT-JSON', 'E-BODY-MESSAGES-REQUIRED', 'E-GEN-NO-5XX') },
  async ({ api, identity, verify }) => {
    const answers: Array<{ body: string; status: number }> = [];
    // The document only describes the body; it says nothing of validation or its answer (E-NS-BAD-BODY-ANSWER).
    // So any answer but a 5xx is accepted: a 4xx refusal, or even a 2xx. A 5xx is a crash on client input.
    const judge = (id: string, bodies: string[]) =>
      verify(id, async () => {
        for (const body of bodies) {
          // Each from a fresh client, so that no limit can stand in for the answer.
          const r = await api.send({ method: 'POST', path: '/api/chat', headers: { 'content-type': 'application/json', 'X-Forwarded-For': identity.address() }, body });
          answers.push({ body, status: r.status });
        }
        const crashed = answers.filter((a) => bodies.includes(a.body) && a.status >= 500);
        if (crashed.length > 0) throw new RequirementViolation(id, crashed.map((a) => `body ${JSON.stringify(a.body)} got ${a.status}`).join('; '), 'a 4xx (any answer but a 5xx)');
      });
    await judge('E-BODY-NOT-JSON', NOT_JSON);
    await judge('E-BODY-MESSAGES-REQUIRED', WITHOUT_MESSAGES);
    await verify('E-GEN-NO-5XX', () => {
      const crashed = answers.filter((a) => a.status >= 500);
      if (crashed.length > 0) throw new RequirementViolation('E-GEN-NO-5XX', crashed.map((a) => `body ${JSON.stringify(a.body)} got ${a.status}`).join('; '), 'no 5xx for bad input');
    });
  },
);
