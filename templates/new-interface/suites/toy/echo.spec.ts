/**
 * GET /toy/echo: "Answers the word it was given" (a property over generated words, against the model), and a request
 * without a word is refused beside its control (the same request with a word, answered).
 */
import fc from 'fast-check';
import { isAccepted, mustBeRefused } from '../../harness/answers.ts';
import { isStated } from '../../harness/profile/load.ts';
import { RequirementViolation } from '../../harness/verdicts.ts';
import { ECHO_CASES, echoOf, refusalReading } from './model.ts';
import { reqTags } from './tags.ts';
import { test } from './test.ts';

const echo = (word: string | undefined) => ({ method: 'GET', path: word === undefined ? '/toy/echo' : `/toy/echo?${new URLSearchParams({ word })}`, authenticate: true }) as const;

test('echo, property: any word comes back unchanged', { tag: reqTags('T-ECHO-SAME') }, async ({ api, property }) => {
  await property({
    id: 'toy-echo',
    requirements: ['T-ECHO-SAME'],
    runs: ECHO_CASES,
    arbitrary: fc.string({ minLength: 1, maxLength: 64, unit: 'grapheme' }),
    testing: () => ['T-ECHO-SAME'],
    check: async (word, _skip, saw) => {
      const reply = await api.send<{ echo?: unknown }>(echo(word));
      // A refusal of a word the document allows is another requirement's matter (the generic valid-request check).
      if (!isAccepted(reply)) return;
      const expected = echoOf(word).echo;
      if (reply.json?.echo !== expected) throw new RequirementViolation(['T-ECHO-SAME'], `the word ${JSON.stringify(word)} came back as ${JSON.stringify(reply.json?.echo)}`, JSON.stringify(expected), [reply.exchange]);
      saw('T-ECHO-SAME');
    },
  });
});

test('echo without a word is refused, beside the same request with a word', { tag: reqTags('T-ECHO-WORD-REQUIRED') }, async ({ api, verify, reading, profile }) => {
  await verify('T-ECHO-WORD-REQUIRED', async () => {
    const control = await api.send(echo('control'));
    const reply = await api.send(echo(undefined));
    // The status is open (T-NS-REFUSAL-STATUS): any 4xx, unless the profile states the target's.
    const stated = isStated(profile, 'toy', 'refusalStatus') ? profile.interfaces['toy']?.settings.refusalStatus : undefined;
    mustBeRefused('T-ECHO-WORD-REQUIRED', reply, 'GET /toy/echo without a word', { control, status: stated });
    reading('T-NS-REFUSAL-STATUS', refusalReading(reply.status), `refused with ${reply.status}`);
  });
});
