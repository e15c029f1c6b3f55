/**
 * Answers classified before they are counted. Success is HTTP 200 (the document); error codes are not shown, so a
 * refusal is any 4xx. A 5xx is neither: never a refusal, never a success. A 429 says nothing about the rule a check is
 * about: the client waits a limit out once, and one still limited is the environment's trouble.
 */
import { answerKind, mustBeRefused as mustBeRefusedFor, type Control } from '../../harness/answers.ts';
import type { Reply } from '../../harness/http/client.ts';
import { Inconclusive } from '../../harness/verdicts.ts';
import { stated } from './stated.ts';

export type Answer = 'accepted' | 'refused' | 'broken';

export function answerOf(r: Reply): Answer {
  if (r.status === 429) throw new Inconclusive(`the target rate-limited the check (429 to ${r.exchange.request.method} ${r.exchange.requestPath}): the answer says nothing about the rule`);
  if (r.status === 200) return 'accepted';
  return answerKind(r) === 'refused' ? 'refused' : 'broken';
}

/**
 * A request the rules say must be refused: the shared rule (harness/answers.ts: anything but a 4xx breaks `id`, a 429
 * decides nothing, a refusal counts beside its control), with the model's reason for the refusal after what was sent.
 */
export function mustBeRefused(r: Reply, id: string, what: string, o: { control: Control; why?: string }): void {
  mustBeRefusedFor(id, r, o.why ? `${what} (${o.why})` : what, { control: o.control });
}

/**
 * Why an answer cannot be held against the target, if it cannot: a request to a path the document does not show, sent
 * where the profile leaves that path to the public exchange's (settings.paths), was answered as if nothing were there.
 */
export function pathDoubt(r: Reply, path: 'ecdsaLogin' | 'tradingAccounts' | 'nonce'): string | undefined {
  if ((r.status !== 404 && r.status !== 405) || stated(`paths.${path}`)) return undefined;
  return `${r.exchange.request.method} ${r.exchange.requestPath} was answered ${r.status}: the document does not show this path and the profile leaves it to the public exchange's (state settings.paths.${path})`;
}
