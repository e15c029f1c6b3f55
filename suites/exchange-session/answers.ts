/**
 * What is particular to Interface A's answers; everything else is read through harness/answers.ts. Success is HTTP
 * 200 (the document); error codes are not shown, so a refusal is any 4xx. A throttle, a server error or a page that is
 * not the API decides nothing about the rule a check is on: every helper there throws it as Undecided.
 */
import { answered, mustBeRefused as mustBeRefusedFor, type Control } from '../../harness/answers.ts';
export { undecidedWhy } from '../../harness/answers.ts';
import type { Reply } from '../../harness/http/client.ts';
import { stated } from './stated.ts';

/**
 * A request the rules say must be refused: the shared rule (harness/answers.ts: an acceptance breaks `id`, what decides
 * nothing is inconclusive, a refusal counts beside its control), with the model's reason for the refusal after what
 * was sent.
 */
export function mustBeRefused(r: Reply, id: string, what: string, o: { control: Control; why?: string }): void {
  mustBeRefusedFor(id, r, o.why ? `${what} (${o.why})` : what, { control: o.control });
}

/**
 * Why an answer cannot be held against the target, if it cannot: a request to a path the document does not show, sent
 * where the profile leaves that path to the public exchange's (settings.paths), was answered as if nothing were there.
 * An answer that decides nothing (a throttle, a server error) is thrown as Undecided.
 */
export function pathDoubt(r: Reply, path: 'ecdsaLogin' | 'tradingAccounts' | 'nonce'): string | undefined {
  if (!answered(r, 404, 405) || stated(`paths.${path}`)) return undefined;
  return `${r.exchange.request.method} ${r.exchange.requestPath} was answered ${r.status}: the document does not show this path and the profile leaves it to the public exchange's (state settings.paths.${path})`;
}

