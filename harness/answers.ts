/**
 * One reading of answers for every check (issues 19 and 43): what an answer is, and what each kind means for a
 * verdict, decided here and nowhere else.
 *
 * - accepted (2xx) and refused (4xx but 429) are the API's answers: the only ones a rule is judged on;
 * - throttled (429), not the API (a redirect, an HTML page where JSON is due) and a server error (5xx) decide
 *   nothing about the rule at hand: the check is inconclusive, naming the operation. A 5xx is never a refusal: it
 *   fails the interface's GEN-NO-5XX wherever it shows (harness/response-checks.ts), not the rule the check was on;
 * - no answer at all (a reset, a time-out, a body that never ends) is the client's TargetError, classified in
 *   harness/classify.ts.
 *
 * A check reads an answer only through the helpers below, which throw for what decides nothing; `npm run
 * lint:suites` refuses a status compared inline in suites/ and a negated acceptance (`!isAccepted(r)`), the two ways
 * a throttle or a server error used to slip into a verdict.
 */
import type { Exchange } from './http/exchange.ts';
import { Inconclusive, NotTested, RequirementViolation, deviation } from './verdicts.ts';

export type AnswerKind = 'accepted' | 'refused' | 'throttled' | 'server-error' | 'not-the-api' | 'informational';

/** What classification reads of an answer (a client's Reply has it): its status and headers, and the client's kind. */
type Answer = { status: number; headers: Record<string, string>; kind?: AnswerKind };
/** An answer a verdict can cite: with the exchange it arrived in. */
type Reply = Answer & { exchange: Exchange; text?: string };

/**
 * What an answer is. `json`: the operation answers JSON, so a 2xx HTML page (a login form) is not the API either.
 * The client works this out once per answer, with the operation's documented media type (`Reply.kind`).
 */
export function answerKind(reply: Answer, o: { json?: boolean } = {}): AnswerKind {
  if (reply.kind && o.json === undefined) return reply.kind;
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
export const isRefused = (reply: Answer) => answerKind(reply) === 'refused';
export const isServerError = (reply: Answer) => answerKind(reply) === 'server-error';
export const isThrottled = (reply: Answer) => answerKind(reply) === 'throttled';

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
 * An answer that decides nothing about the rule at hand: a throttle, a server error, a page that is not the API.
 * Inconclusive, naming the operation and what answered; a server error is judged by GEN-NO-5XX where it shows.
 */
export class Undecided extends Inconclusive {
  constructor(
    message: string,
    readonly kind: AnswerKind,
    readonly exchange: Exchange,
  ) {
    super(message);
  }
}

const opOf = (reply: Reply) => reply.exchange?.operation ?? (reply.exchange?.request ? `${reply.exchange.request.method} ${reply.exchange.requestPath ?? reply.exchange.request.url}` : 'the request');

/** Why an answer of this kind decides nothing, in the words a report shows. */
function undecided(reply: Reply, what: string, kind: AnswerKind): Undecided {
  const where = `${what} (${opOf(reply)})`;
  switch (kind) {
    case 'throttled': {
      const after = reply.headers['retry-after'];
      return new Undecided(`${where} was throttled (429${after ? `, Retry-After ${after}` : ''}): the answer decides nothing about this rule`, kind, reply.exchange);
    }
    case 'server-error':
      return new Undecided(`${where} was answered ${reply.status}, a server error: not a verdict on this rule (GEN-NO-5XX judges it)`, kind, reply.exchange);
    case 'not-the-api':
      return new Undecided(`${where} was answered ${reply.status}${reply.headers.location ? ` with a redirect to ${reply.headers.location}` : ` as ${reply.headers['content-type'] ?? 'no content type'}`}: not the API answering`, kind, reply.exchange);
    default:
      return new Undecided(`${where} was answered ${reply.status}, ${WHAT[kind]}: the answer decides nothing about this rule`, kind, reply.exchange);
  }
}

/**
 * The API's answer, accepted or refused; anything else (a throttle, a server error, not the API) is thrown as
 * Undecided. Every other helper starts here.
 */
export function judged(reply: Reply, what = 'the request', o: { json?: boolean } = {}): 'accepted' | 'refused' {
  const kind = answerKind(reply, o);
  if (kind === 'accepted' || kind === 'refused') return kind;
  throw undecided(reply, what, kind);
}

/**
 * Why an answer decides nothing about any rule (a throttle, a server error, a page that is not the API), or undefined
 * for the API's own answer (accepted or refused): for a check that goes on past such an answer (a property's step, one
 * of several concurrent requests) and records that it could not decide, instead of ending there.
 */
export function undecidedWhy(reply: Reply, what: string): string | undefined {
  try {
    judged(reply, what);
    return undefined;
  } catch (e) {
    if (e instanceof Undecided) return e.message;
    throw e;
  }
}

/** Whether the API accepted the request (a refusal: false); what decides nothing is thrown. */
export const accepted = (reply: Reply, what?: string, o: { json?: boolean } = {}) => judged(reply, what, o) === 'accepted';
/** Whether the API refused the request (an acceptance: false); what decides nothing is thrown. */
export const refused = (reply: Reply, what?: string) => judged(reply, what) === 'refused';

/** Whether the API answered with one of `statuses` (a status the document or the profile names); what decides nothing is thrown. */
export function answered(reply: Reply, ...statuses: number[]): boolean {
  judged(reply);
  return statuses.includes(reply.status);
}

/**
 * 501 Not Implemented, "the appropriate response when the server does not recognize the request method" (RFC 9110,
 * 15.6.2): for a check that sent a method no operation of the interface has (one in another letter case, say), the
 * server's refusal of that method, not a server fault (GEN-NO-5XX leaves it alone: harness/response-checks.ts). False
 * for the API's other answers; a throttle, another server error or a page that is not the API is thrown as ever.
 */
export function methodNotImplemented(reply: Reply, what = 'the request'): boolean {
  if (reply.status === 501) return true;
  judged(reply, what);
  return false;
}

/** Like `answered`, but an answer that decides nothing is just "not one of them": for sightings, which judge nothing. */
export const showed = (reply: Answer, ...statuses: number[]): boolean => statuses.includes(reply.status) && (answerKind(reply) === 'accepted' || answerKind(reply) === 'refused');

/** Cut for a message: what the target said. */
const said = (reply: Reply) => (reply.text ? ` ${reply.text.slice(0, 200)}` : '');

interface Judgement {
  /** The requirements a refusal breaks: the verified rule when absent. */
  rule?: string | string[];
  expected?: string;
  knockOnOf?: string[];
  json?: boolean;
}

/** A deviation of `rule` (or of the requirement being verified) with this answer as its evidence. */
function broke(reply: Reply, message: string, o: Judgement, fallback: string): RequirementViolation {
  const expected = o.expected ?? fallback;
  if (o.rule === undefined && !o.knockOnOf) return deviation(message, expected, [reply.exchange]);
  return new RequirementViolation(o.rule ?? [], message, expected, [reply.exchange], o.knockOnOf);
}

/** The rule requires the API to accept this request: a refusal breaks it; what decides nothing is thrown. */
export function mustAccept(reply: Reply, what: string, o: Judgement = {}): void {
  if (judged(reply, what, o) === 'accepted') return;
  throw broke(reply, `${what} was refused (${reply.status})${said(reply)}`, o, 'accepted');
}

/** The rule requires one of `statuses` (the document names them): any other breaks it; what decides nothing is thrown. */
export function mustAnswer(reply: Reply, statuses: number | readonly number[], what: string, o: Judgement = {}): void {
  const list = typeof statuses === 'number' ? [statuses] : statuses;
  judged(reply, what, o);
  if (list.includes(reply.status)) return;
  throw broke(reply, `${what} was answered ${reply.status}${said(reply)}`, o, list.join(' or '));
}

/**
 * The check needs this request accepted to go on (a request that sets the stage, a control, a read it judges): a
 * refusal decides nothing about the rule, inconclusive (or not tested, `untested`, where the refusal says the
 * condition cannot arise on this target); what decides nothing is thrown as ever.
 */
export function needAccepted(reply: Reply, what: string, o: { untested?: boolean; why?: string; json?: boolean } = {}): void {
  if (judged(reply, what, o) === 'accepted') return;
  const message = `${what} was refused (${reply.status})${said(reply)}${o.why ? `: ${o.why}` : ': the check cannot go on'}`;
  throw o.untested ? new NotTested(message) : new Inconclusive(message);
}

/** A read of state: present, absent, or unknown (refused for a reason of its own; `why` says it). */
export type StateRead = { state: 'present' | 'absent' } | { state: 'unknown'; why: string };

/**
 * A read of state (an order, a balance, a record). Only the API may say a thing is absent: a 2xx whose body says so
 * (`absentIn`), or the document's own not-found answer (`notFound`). Any other refusal leaves the state unknown; a
 * throttle, a server error or a page that is not the API is thrown, never read as "gone".
 */
export function readState(reply: Reply, what: string, o: { absentIn?: (reply: Reply) => boolean; notFound?: (reply: Reply) => boolean }): StateRead {
  if (judged(reply, what) === 'accepted') return { state: o.absentIn?.(reply) ? 'absent' : 'present' };
  if (o.notFound?.(reply)) return { state: 'absent' };
  return { state: 'unknown', why: `${what} was refused (${reply.status})${said(reply)}, which is not the document's not-found answer` };
}

/**
 * What a refusal is judged beside (issue 19, item 1), stated at every refusal check so that none can be written
 * without thinking of it:
 * - the control's reply: the same request with the one thing made right, sent by the check with the same identity,
 *   which the target must accept (otherwise the refusal proves nothing, and the check is inconclusive);
 * - `{ accepted }`: such a control that the check already saw accepted (a login that opened the session the check uses);
 * - `{ mustNotExist }`: why the endpoint must not exist at all, so that no form of the request is one it would accept.
 * A check that could not make its control does not call mustBeRefused: it is not tested, saying why.
 */
export type Control = Reply | { accepted: string } | { mustNotExist: string };

/**
 * A request made to be refused under `rule`: a 4xx (or the stated status) beside an accepted control passes; an
 * acceptance breaks the rule; a throttle, a server error or a page that is not the API decides nothing
 * (inconclusive; a 5xx fails GEN-NO-5XX where it shows); a refusal whose control was refused too decides nothing either.
 */
export function mustBeRefused(rule: string, reply: Reply, what: string, o: { control: Control; status?: number; expected?: string; json?: boolean }): void {
  const kind = judged(reply, what, { json: o.json });
  // A refusal, of whatever status, proves something only beside an accepted control: first the control.
  if (kind === 'refused') controlAccepted(o.control, what);
  if (kind === 'refused' && (o.status === undefined || reply.status === o.status)) return;
  throw new RequirementViolation([rule], `${what} was answered ${describeAnswer(reply, { json: o.json })}`, o.expected ?? (o.status === undefined ? 'a 4xx refusal' : `${o.status}`), [reply.exchange]);
}

/** A refusal stands only beside a control the target accepted: otherwise the check is inconclusive, saying why. */
export function controlAccepted(control: Control, what: string): void {
  if (!('status' in control)) return;
  if (isAccepted(control)) return;
  const label = control.exchange.label ? ` (${control.exchange.label})` : '';
  throw new Inconclusive(`${what} was refused, but its control${label} was answered ${describeAnswer(control)}: the refusal proves nothing about this rule`);
}
