/**
 * Properties judge many answers a case, and one a throttle, a server error or a page that is not the API answered
 * decides nothing about the case's rules: the case says so (the property runner's `saw(id, why)`, inconclusive where
 * nothing else judged the rule) instead of throwing, which would stop the whole property on one such answer.
 */
import { Undecided, judged } from '../../harness/answers.ts';
import type { Reply } from '../../harness/http/client.ts';

/** Why an answer decides nothing (harness/answers.ts says it, naming the operation), or undefined for the API's own answer. */
export function decidesNothing(reply: Reply, what: string): string | undefined {
  try {
    judged(reply, what);
    return undefined;
  } catch (e) {
    if (e instanceof Undecided) return e.message;
    throw e;
  }
}
