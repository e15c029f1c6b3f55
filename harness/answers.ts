/**
 * One classification of answers for every suite (issue 19, item 3), so that no check decides inline what a status
 * means: a refusal is a 4xx, no more and no less; a 5xx is the target failing, never a refusal; a redirect is not the
 * API answering (a login page, another host); a 429 is the target throttling, which decides nothing about a rule
 * other than the limit.
 */
import type { Exchange } from './http/exchange.ts';
import { Inconclusive, RequirementViolation } from './verdicts.ts';

export type AnswerKind = 'accepted' | 'refused' | 'throttled' | 'server-error' | 'not-the-api' | 'informational';

/** What classification reads of an answer (a client's Reply has it): its status and headers. */
type Answer = { status: number; headers: Record<string, string> };
/** An answer a verdict can cite: with the exchange it arrived in. */
type Reply = Answer & { exchange: Exchange };

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

/** What a bare status is, for models that judge statuses alone (no media type to look at). */
export const statusKind = (status: number) => answerKind({ status, headers: {} });

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

export const isRefused = (reply: Answer) => answerKind(reply) === 'refused';
export const isServerError = (reply: Answer) => answerKind(reply) === 'server-error';
export const isThrottled = (reply: Answer) => answerKind(reply) === 'throttled';

/**
 * What a refusal is judged beside (issue 19, item 1), stated at every refusal check so that none can be written
 * without thinking of it:
 * - the control's reply: the same request with the one thing made right, sent by the check with the same identity,
 *   which the target must accept (otherwise the refusal proves nothing, and the check is inconclusive);
 * - `{ accepted }`: such a control that the check already saw accepted (a login that opened the session the check uses);
 * - `{ none }`: why no such request exists (an endpoint that must not exist at all has no "made right" form).
 */
export type Control = Reply | { accepted: string } | { none: string };

/**
 * A request made to be refused under `rule`: a 4xx (or the stated status) beside an accepted control passes; an
 * acceptance or a redirect breaks the rule; a 5xx breaks it and the interface's GEN-NO-5XX (a failure is never a
 * refusal); a 429 decides nothing (inconclusive); a refusal whose control was refused too decides nothing either.
 */
export function mustBeRefused(rule: string, reply: Reply, what: string, o: { control: Control; status?: number; expected?: string; json?: boolean }): void {
  const kind = answerKind(reply, { json: o.json });
  if (kind === 'throttled') throw new Inconclusive(`${what} was throttled (429): whether it would be refused cannot be told`);
  if (kind === 'refused' && (o.status === undefined || reply.status === o.status)) {
    controlAccepted(o.control, what);
    return;
  }
  const ids = kind === 'server-error' ? [rule, `${rule.split('-')[0]}-GEN-NO-5XX`] : [rule];
  throw new RequirementViolation(ids, `${what} was answered ${describeAnswer(reply, { json: o.json })}`, o.expected ?? (o.status === undefined ? 'a 4xx refusal' : `${o.status}`), [reply.exchange]);
}

/** A refusal stands only beside a control the target accepted: otherwise the check is inconclusive, saying why. */
export function controlAccepted(control: Control, what: string): void {
  if (!('status' in control)) return;
  if (isAccepted(control)) return;
  const label = control.exchange.label ? ` (${control.exchange.label})` : '';
  throw new Inconclusive(`${what} was refused, but so was its control${label}, answered ${describeAnswer(control)}: the refusal proves nothing about this rule`);
}
