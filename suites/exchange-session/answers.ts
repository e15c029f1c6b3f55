/**
 * Answers classified before they are counted. Success is HTTP 200 (the document); error codes are not shown, so a
 * refusal is any 4xx. A 5xx is neither: never a refusal, never a success. A 429 says nothing about the rule a check is
 * about: the client waits a limit out once, and one still limited is the environment's trouble.
 */
import type { Reply } from '../../harness/http/client.ts';
import { Inconclusive, RequirementViolation } from '../../harness/verdicts.ts';
import { stated } from './stated.ts';

export type Answer = 'accepted' | 'refused' | 'broken';

export function answerOf(r: Reply): Answer {
  if (r.status === 429) throw new Inconclusive(`the target rate-limited the check (429 to ${r.exchange.request.method} ${r.exchange.requestPath}): the answer says nothing about the rule`);
  if (r.status === 200) return 'accepted';
  return r.status >= 400 && r.status < 500 ? 'refused' : 'broken';
}

/** A request the rules say must be refused: accepted, or answered with what is no refusal (a 5xx), it breaks `id`. */
export function mustBeRefused(r: Reply, id: string, what: string, why = ''): void {
  const answer = answerOf(r);
  if (answer === 'refused') return;
  const how = answer === 'accepted' ? `was accepted (${r.status} ${r.text.slice(0, 200)})` : `was answered ${r.status}, which is no refusal`;
  throw new RequirementViolation(id, `${what} ${how}${why ? `: ${why}` : ''}`, 'a refusal (a 4xx)', [r.exchange]);
}

/**
 * Why an answer cannot be held against the target, if it cannot: a request to a path the document does not show, sent
 * where the profile leaves that path to the public exchange's (settings.paths), was answered as if nothing were there.
 */
export function pathDoubt(r: Reply, path: 'ecdsaLogin' | 'tradingAccounts' | 'nonce'): string | undefined {
  if ((r.status !== 404 && r.status !== 405) || stated(`paths.${path}`)) return undefined;
  return `${r.exchange.request.method} ${r.exchange.requestPath} was answered ${r.status}: the document does not show this path and the profile leaves it to the public exchange's (state settings.paths.${path})`;
}
