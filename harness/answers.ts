/**
 * One classification of answers for every suite (issue 19, item 3), so that no check decides inline what a status
 * means: a refusal is a 4xx, no more and no less; a 5xx is the target failing, never a refusal; a redirect is not the
 * API answering (a login page, another host); a 429 is the target throttling, which decides nothing about a rule
 * other than the limit.
 */
import type { Reply } from './http/client.ts';
import { Inconclusive, RequirementViolation } from './verdicts.ts';

export type AnswerKind = 'accepted' | 'refused' | 'throttled' | 'server-error' | 'not-the-api' | 'informational';

type Answer = Pick<Reply, 'status' | 'headers'>;

/** What an answer is. `json`: the operation answers JSON, so a 2xx HTML page (a login form) is not the API either. */
export function answerKind(reply: Answer, o: { json?: boolean } = {}): AnswerKind {
  const s = reply.status;
  if (s >= 500) return 'server-error';
  if (s === 429) return 'throttled';
  if (s >= 400) return 'refused';
  if (s >= 300) return 'not-the-api';
  if (s >= 200) return o.json && /\btext\/html\b/i.test(reply.headers['content-type'] ?? '') ? 'not-the-api' : 'accepted';
  return 'informational';
}

export const isAccepted = (reply: Answer, o: { json?: boolean } = {}) => answerKind(reply, o) === 'accepted';

const WHAT: Record<AnswerKind, string> = {
  accepted: 'accepted',
  refused: 'refused',
  throttled: 'throttled (429)',
  'server-error': 'a server error, not a refusal',
  'not-the-api': 'not the API answering (a redirect or an HTML page)',
  informational: 'an informational answer',
};

export const describeAnswer = (reply: Answer, o: { json?: boolean } = {}) => `${reply.status}, ${WHAT[answerKind(reply, o)]}`;

/**
 * A request made to be refused under `rule`: a 4xx (or the stated status) passes; an acceptance, a redirect or a 5xx
 * is the rule's deviation, with the exchange; a 429 decides nothing (inconclusive).
 */
export function mustBeRefused(rule: string, reply: Reply, what: string, o: { status?: number; expected?: string } = {}): void {
  const kind = answerKind(reply);
  if (kind === 'throttled') throw new Inconclusive(`${what} was throttled (429): whether it would be refused cannot be told`);
  if (kind === 'refused' && (o.status === undefined || reply.status === o.status)) return;
  throw new RequirementViolation(rule, `${what} was answered ${describeAnswer(reply)}`, o.expected ?? (o.status === undefined ? 'a 4xx refusal' : `${o.status}`), [reply.exchange]);
}
