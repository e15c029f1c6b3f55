/**
 * The request checks of the registry (harness/generic/checks.ts): for one operation, what each sends and how it judges
 * the answers. Each returns findings, one per requirement it judged on that operation; harness/generic/define.ts runs
 * a check over every operation of an interface and turns the findings into one verdict per requirement.
 */
import type { Reply, RequestSpec } from '../http/client.ts';
import type { Exchange } from '../http/exchange.ts';
import { answerKind, describeAnswer, isRefused, type AnswerKind } from '../answers.ts';
import type { LoadedSpec, Operation, SecurityScheme } from '../spec/types.ts';
import type { Secrets } from '../secrets.ts';
import type { RequestCheckName } from './checks.ts';
import { badBodies, validValue } from './bodies.ts';
import { documents } from '../spec/statuses.ts';

export type Outcome = 'held' | 'broken' | 'inconclusive' | 'not-tested' | 'not-applicable';

/** What one check found on one operation, for one requirement (its suffix: "GEN-AUTH"). */
export interface Finding {
  requirement: string;
  outcome: Outcome;
  /** Why: the deviation, or why it could not be judged. Starts with the operation. */
  message: string;
  expected?: string;
  exchanges?: Exchange[];
  /**
   * Undecided because of the environment (a throttle, a server error, a page that is not the API, no answer): a
   * requirement with such a finding is not passed on its other operations (harness/generic/define.ts, `conclude`).
   */
  trouble?: boolean;
}

/** A valid request of the operation as the interface's fixture prepared it, or why there is none. */
export type Prepared = { request: RequestSpec } | { notApplicable: string };

/** Everything a check needs about one operation on this target. */
export interface OperationContext {
  spec: LoadedSpec;
  op: Operation;
  /** Sends one request of the check; before a write operation's, the suite journals what it may change. */
  send(request: RequestSpec): Promise<Reply>;
  secrets: Secrets;
  /**
   * Whether an answer is the document's own answer of a switched-off operation (a bridge's 403 "disabled"): the
   * operation is then judged by its disabled rule alone, never by these checks.
   */
  answersDisabled: (reply: Reply) => boolean;
  /** The profile allows writes to this operation (a write operation's accepted request would be one). */
  writesAllowed: boolean;
  /** Why the profile allows no request to this write operation although it allows writes (it moves funds, say). */
  writeForbiddenWhy?: string;
  /** Headers every request of the interface carries (a client address), credentials aside. */
  baseHeaders: Record<string, string>;
  /**
   * The valid request, authenticated through the interface's own step (a token, a nonce, a signature); with a
   * credential, the one valid for that credential (its own trading account, say).
   */
  valid: (credential?: string) => Promise<Prepared>;
  /**
   * Why a refusal of the valid request proves nothing on this target, if it does not: it may rest on what the
   * profile does not state (something a deployment needs beyond the document).
   */
  refusalOpen: (reply: Reply) => string | undefined;
  /** Why this target needs no credentials for the operation (a profile that turns authentication off), if it does not. */
  unsecured: () => string | undefined;
  /** For other-role-refused: the same valid request sent with a valid credential of each role the operation refuses. */
  otherRoles: () => Promise<Array<{ role: string; credential?: string; missing?: string }>>;
}

const finding = (requirement: string, outcome: Outcome, message: string, extra: Partial<Finding> = {}): Finding => ({ requirement, outcome, message, ...extra });

/**
 * What no generic check judges: an answer that is not the API's (a throttle, a server error, a redirect or an HTML
 * page where JSON is due) is the environment's trouble, inconclusive for the requirement (a 5xx fails GEN-NO-5XX
 * where it shows, harness/response-checks.ts); the document's answer of a switched-off operation leaves it to the
 * interface's disabled rule. Undefined for an answer of the API the check may judge.
 */
function notJudged(ctx: OperationContext, requirement: string, r: Reply, what: string): Finding | undefined {
  const kind: AnswerKind = answerKind(r);
  if (kind !== 'accepted' && kind !== 'refused') return finding(requirement, 'inconclusive', `${ctx.op.key} ${what} was answered ${describeAnswer(r)}: the environment's answer decides nothing here`, { trouble: true });
  if (ctx.answersDisabled(r)) return finding(requirement, 'not-tested', `${ctx.op.key} ${what} was answered as a switched-off operation (${r.status}): judged by its disabled rule alone`);
  return undefined;
}

const successes = (op: Operation) => Object.keys(op.responses).filter((s) => /^2/.test(s));

/** A write the profile forbids: its valid request must not be sent, nor anything a broken target could take as one. */
const writeForbidden = (ctx: OperationContext) => Boolean(ctx.op.write) && !ctx.writesAllowed;

async function validOr(ctx: OperationContext, requirement: string, credential?: string): Promise<RequestSpec | Finding> {
  if (writeForbidden(ctx)) return finding(requirement, 'not-applicable', `${ctx.op.key} writes (${ctx.op.write}) and ${ctx.writeForbiddenWhy ?? 'the profile does not allow writes'}`);
  const prepared = await ctx.valid(credential);
  if ('notApplicable' in prepared) return finding(requirement, 'not-applicable', `${ctx.op.key}: ${prepared.notApplicable}`);
  return { ...prepared.request, headers: { ...ctx.baseHeaders, ...prepared.request.headers } };
}

const isFinding = (x: RequestSpec | Finding): x is Finding => 'outcome' in x;

/**
 * Where bad input or another method goes: the valid request's path (its parameters filled in) and credentials, or,
 * where the source has no valid request, the operation's path alone.
 */
async function validOrPath(ctx: OperationContext): Promise<RequestSpec> {
  const prepared = await ctx.valid();
  return 'request' in prepared ? prepared.request : { method: ctx.op.method, path: ctx.op.path };
}

/** positive-data-acceptance: a request valid by the spec gets a documented success. */
/** How long a valid request to an operation that refuses while busy is tried again: long enough for a scan to end. */
const BUSY_TRIES = 25;
const BUSY_PAUSE_MS = 200;

async function positiveDataAcceptance(ctx: OperationContext): Promise<Finding[]> {
  const id = 'GEN-VALID-ACCEPTED';
  const valid = await validOr(ctx, id);
  if (isFinding(valid)) return [valid];
  let r = await ctx.send({ ...valid, label: 'valid request' });
  // Busy (a scan another check started): asked again for a while, as a client would; a refusal that lasts decides nothing.
  for (let tries = 0; ctx.op.refusedWhileBusy && isRefused(r) && tries < BUSY_TRIES; tries++) {
    await new Promise((resolve) => setTimeout(resolve, BUSY_PAUSE_MS));
    r = await ctx.send({ ...valid, label: 'valid request (again: the operation may have been busy)' });
  }
  const undecided = notJudged(ctx, id, r, 'the valid request');
  if (undecided) return [undecided];
  if (ctx.op.refusedWhileBusy && isRefused(r)) {
    return [finding(id, 'inconclusive', `${ctx.op.key} refused the valid request for ${(BUSY_TRIES * BUSY_PAUSE_MS) / 1000} s (${r.status}); it refuses while busy (${ctx.op.refusedWhileBusy}), which another check or the operator may have kept it`)];
  }
  if (answerKind(r) === 'accepted' && documents(ctx.op, r.status)) return [finding(id, 'held', `${ctx.op.key}: ${r.status}`)];
  // The request uses only what every reading of the document accepts; where a refusal could still rest on a point the
  // document does not show (which chat roles are allowed, say), it is no evidence against the target.
  if (ctx.op.validRequestOpen && isRefused(r)) {
    return [finding(id, 'not-tested', `${ctx.op.key} refused the valid request with ${r.status}; whether it may rests on what the document does not show (${ctx.op.validRequestOpen.join(', ')})`)];
  }
  const open = isRefused(r) ? ctx.refusalOpen(r) : undefined;
  if (open) return [finding(id, 'not-tested', `${ctx.op.key}: the valid request was ${open}`)];
  return [finding(id, 'broken', `${ctx.op.key} answered the valid request ${r.status} ${r.text.slice(0, 200)}`, { expected: `${successes(ctx.op).join(' or ')} (documented: ${Object.keys(ctx.op.responses).join(', ')})`, exchanges: [r.exchange] })];
}

type BadCase = RequestSpec & { label: string; certainlyRefused?: boolean };

/** The bad inputs for an operation: bodies its schema refuses, a valid body sent as text/plain, an odd query and headers. */
async function badCases(ctx: OperationContext): Promise<BadCase[]> {
  const { spec, op } = ctx;
  // A request to a write operation is a write attempt, whatever its body: none where the profile forbids writes.
  if (writeForbidden(ctx)) return [];
  // Only the body, the query or the headers are bad.
  const valid = await validOrPath(ctx);
  const path = valid.path.split('?')[0];
  const auth = { authenticate: valid.authenticate, credential: valid.credential };
  const headers = { ...ctx.baseHeaders, ...(valid.headers ?? {}) };
  const cases: BadCase[] = [];
  if (op.hasRequestBody) {
    for (const b of badBodies(spec.doc, op.requestSchema, op.requestBodyRequired)) {
      cases.push({ method: op.method, path, ...auth, body: b.body, headers: { ...headers, 'content-type': 'application/json' }, label: b.label, certainlyRefused: b.certainlyRefused });
    }
    // Sent as text/plain, a valid body may be accepted: only where accepting it writes nothing.
    if (!op.write) cases.push({ method: op.method, path, ...auth, body: JSON.stringify(valid.json ?? validValue(spec.doc, op.requestSchema)), headers: { ...headers, 'content-type': 'text/plain' }, label: 'JSON sent as text/plain' });
  }
  {
    const odd: BadCase = { method: op.method, path: `${path}?%zz=%%&a[b]=1`, ...auth, headers: { ...headers, 'x-conformance-odd': 'ä\u00ff', accept: 'application/xml' }, label: 'odd query and headers' };
    if (op.hasRequestBody) Object.assign(odd, { body: '{"broken"', headers: { ...odd.headers, 'content-type': 'application/json' } });
    cases.push(odd);
  }
  return cases;
}

/** negative-data-rejection (and not-a-server-error on the same answers): bad input gets a 4xx, never a 5xx or a redirect. */
async function negativeDataRejection(ctx: OperationContext): Promise<Finding[]> {
  const { op } = ctx;
  const cases = await badCases(ctx);
  if (cases.length === 0) {
    const why = `${op.key} writes (${op.write}) and the profile does not allow writes: no request is sent to it`;
    return [finding('GEN-NO-5XX', 'not-applicable', why), finding('GEN-REFUSAL-STATUS', 'not-applicable', why)];
  }
  const replies: Array<{ c: BadCase; r: Reply }> = [];
  for (const c of cases) replies.push({ c, r: await ctx.send(c) });
  const out: Finding[] = [];
  // Only the API's answers are judged; a throttle, a redirect or a page that is not the API decides nothing, and a
  // 5xx is GEN-NO-5XX's alone (here, as its own check, and wherever it shows).
  const server = replies.filter(({ r }) => answerKind(r) === 'server-error');
  const judgeable = replies.filter(({ c, r }) => !notJudged(ctx, 'GEN-REFUSAL-STATUS', r, c.label));
  const troubled = replies.filter(({ r }) => !['server-error', 'accepted', 'refused'].includes(answerKind(r)));
  const trouble = (requirement: string) => finding(requirement, 'inconclusive', `${op.key}: ${troubled.map(({ c, r }) => `${c.label}: ${describeAnswer(r)}`).join('; ')}: the environment's answers decide nothing here`, { trouble: true });
  const unanswered = (requirement: string) => finding(requirement, 'not-tested', `${op.key}: no bad input was answered by the API`);
  if (server.length) out.push(finding('GEN-NO-5XX', 'broken', `${op.key}: ${server.map(({ c, r }) => `${c.label}: ${r.status}`).join('; ')}`, { exchanges: server.map(({ r }) => r.exchange) }));
  else out.push(troubled.length ? trouble('GEN-NO-5XX') : judgeable.length ? finding('GEN-NO-5XX', 'held', op.key) : unanswered('GEN-NO-5XX'));
  // GEN-REFUSAL-STATUS (where the spec documents a 400 for a body): a body the schema certainly refuses must get a
  // documented 4xx, a range ("4XX") included (another documented refusal may apply first: the documents do not
  // order their checks). A bad case answered 5xx is GEN-NO-5XX's, judged above.
  const documented4xx = Object.keys(op.responses).filter((s) => /^4/.test(s));
  if (!op.hasRequestBody || !documented4xx.includes('400')) {
    out.push(finding('GEN-REFUSAL-STATUS', 'not-applicable', `${op.key} takes no body, or documents no 400 for one`));
    return out;
  }
  const certain = judgeable.filter(({ c }) => c.certainlyRefused);
  const wrong = certain.filter(({ r }) => !(isRefused(r) && documents(op, r.status)) && !(op.acceptedWhileBusy && answerKind(r) === 'accepted'));
  if (wrong.length) out.push(finding('GEN-REFUSAL-STATUS', 'broken', `${op.key}: ${wrong.map(({ c, r }) => `${c.label}: ${r.status}`).join('; ')}`, { expected: `documented: ${documented4xx.join(', ')}`, exchanges: wrong.map(({ r }) => r.exchange) }));
  else if (troubled.some(({ c }) => c.certainlyRefused)) out.push(trouble('GEN-REFUSAL-STATUS'));
  else out.push(certain.length ? finding('GEN-REFUSAL-STATUS', 'held', op.key) : unanswered('GEN-REFUSAL-STATUS'));
  return out;
}

/**
 * The header that carries an operation's credential, from its security scheme: Authorization for HTTP schemes, the
 * named header for an API key in a header.
 */
export function credentialHeader(schemes: SecurityScheme[], op: Operation): string {
  const scheme = schemes.find((s) => op.security.includes(s.name));
  return scheme?.type === 'apiKey' && scheme.in === 'header' && scheme.headerName ? scheme.headerName : 'Authorization';
}

/** A made-up credential in the form of the operation's scheme: a bearer token, a key. */
function madeUpCredential(schemes: SecurityScheme[], op: Operation, secrets: Secrets): string {
  const scheme = schemes.find((s) => op.security.includes(s.name));
  const value = secrets.harmless('conformance-made-up-credential');
  if (scheme?.type === 'apiKey') return value;
  return `${scheme?.scheme === 'basic' ? 'Basic' : 'Bearer'} ${value}`;
}

/**
 * A refusal counts only beside its control: the same request with valid credentials, accepted. Sent after the refusal
 * it controls, with the same identity.
 */
async function refusedBesideControl(ctx: OperationContext, requirement: string, refused: Reply, what: string): Promise<Finding> {
  const { op } = ctx;
  const undecided = notJudged(ctx, requirement, refused, what);
  if (undecided) return undecided;
  const kind = answerKind(refused);
  // Where the document leaves open whether the operation needs credentials at all, an acceptance proves nothing.
  if (kind === 'accepted' && op.securityOpen) return finding(requirement, 'not-tested', `${op.key} ${what} was accepted; whether it needs credentials rests on what the document leaves open (${op.securityOpen.join(', ')})`);
  // Where the operation documents 401 or 403, a refusal for want of credentials is one of them.
  const documented: number[] = Object.keys(op.responses).map(Number).filter((s) => s === 401 || s === 403);
  if (kind !== 'refused' || (documented.length > 0 && !documented.includes(refused.status))) {
    return finding(requirement, 'broken', `${op.key} ${what} was answered ${describeAnswer(refused)}`, { expected: documented.length ? documented.join(' or ') : 'a 4xx refusal', exchanges: [refused.exchange] });
  }
  // A fresh valid request: a write's own (a new user's name) would not be valid twice.
  const control = await validOr(ctx, requirement);
  if (isFinding(control)) return control;
  const c = await ctx.send({ ...control, label: `${what}: the control (valid credentials)` });
  if (answerKind(c) !== 'accepted') {
    const trouble = answerKind(c) !== 'refused';
    return finding(requirement, 'inconclusive', `${op.key} ${what} was refused (${refused.status}), but the control with valid credentials was answered ${describeAnswer(c)}: the refusal proves nothing`, { trouble });
  }
  return finding(requirement, 'held', `${op.key} ${what}: ${refused.status}, control ${c.status}`);
}

/**
 * missing-credential-refused / wrong-credential-refused: the valid request, still through the interface's
 * authentication step (a nonce, a signature), with the credential's header left out or made up: only it is wrong.
 * Authentication steps let a header the check gives win (a header given as undefined is left out).
 */
function credentialCheck(kind: 'missing' | 'wrong') {
  return async (ctx: OperationContext): Promise<Finding[]> => {
    const id = 'GEN-AUTH';
    const why = ctx.unsecured();
    if (why) return [finding(id, 'not-applicable', `${ctx.op.key}: ${why}`)];
    const valid = await validOr(ctx, id);
    if (isFinding(valid)) return [valid];
    const header = credentialHeader(ctx.spec.securitySchemes, ctx.op);
    const headers = { ...valid.headers, [header]: kind === 'wrong' ? madeUpCredential(ctx.spec.securitySchemes, ctx.op, ctx.secrets) : undefined };
    const what = kind === 'missing' ? 'without credentials' : 'with made-up credentials';
    const r = await ctx.send({ ...valid, headers, label: what });
    return [await refusedBesideControl(ctx, id, r, what)];
  };
}

/** other-role-refused: the valid request with a valid credential of each role the operation refuses. */
async function otherRoleRefused(ctx: OperationContext): Promise<Finding[]> {
  const id = 'GEN-ROLE';
  const why = ctx.unsecured();
  if (why) return [finding(id, 'not-applicable', `${ctx.op.key}: ${why}`)];
  const out: Finding[] = [];
  for (const role of await ctx.otherRoles()) {
    if (role.missing) {
      out.push(finding(id, 'not-applicable', `${ctx.op.key}: ${role.missing}`));
      continue;
    }
    // The request as it is valid for that credential: only the credential's role is wrong for the operation.
    const valid = await validOr(ctx, id, role.credential);
    if (isFinding(valid)) return [valid];
    const what = `with a valid credential of the role ${role.role}`;
    const r = await ctx.send({ ...valid, authenticate: true, credential: role.credential, label: what });
    out.push(await refusedBesideControl(ctx, id, r, what));
  }
  return out;
}

const OTHER_METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH'];
/**
 * The methods that change nothing by HTTP's own definition (RFC 9110, 9.2.1): where the profile forbids writes, the
 * only ones sent, since a target that does not conform may serve an undocumented POST or DELETE on the path.
 */
const SAFE_METHODS = new Set(['GET']);

/** unsupported-method: every method the path does not serve, with the operation's valid request otherwise. */
async function unsupportedMethod(ctx: OperationContext): Promise<Finding[]> {
  const id = 'GEN-WRONG-METHOD';
  const { op, spec } = ctx;
  const wm = op.wrongMethod!;
  const served = spec.operations.filter((o) => o.path === op.path).map((o) => o.method);
  const valid = await validOrPath(ctx);
  const unserved = OTHER_METHODS.filter((m) => !served.includes(m));
  const methods = ctx.writesAllowed ? unserved : unserved.filter((m) => SAFE_METHODS.has(m));
  if (methods.length === 0) return [finding(id, 'not-applicable', `${op.path}: the profile forbids writes, and each method the path does not serve (${unserved.join(', ')}) could change state on a target that does not conform`)];
  for (const method of methods) {
    const r = await ctx.send({ ...valid, method, headers: { ...ctx.baseHeaders, ...valid.headers }, label: `${method} on ${op.path}` });
    const broken = (message: string) => [finding(id, 'broken', message, { expected: `${wm.status}`, exchanges: [r.exchange] })];
    const undecided = notJudged(ctx, id, r, `${method} on ${op.path}`);
    if (undecided) return [undecided];
    if (r.status !== wm.status) return broken(`${method} ${op.path}: status ${r.status}, documented ${wm.status}`);
    if (wm.error && r.json?.error !== wm.error) return broken(`${method} ${op.path}: error ${JSON.stringify(r.json?.error)}, documented ${wm.error}`);
    if (wm.message && r.json?.message !== wm.message) return broken(`${method} ${op.path}: message ${JSON.stringify(r.json?.message)}, documented ${JSON.stringify(wm.message)}`);
  }
  return [finding(id, 'held', op.path)];
}

export interface RequestCheck {
  /** Whether the check has anything to send to this operation. */
  applies(op: Operation, spec: LoadedSpec): boolean;
  /** The requirements (suffixes) its findings go to. */
  judges: readonly string[];
  /** Those a request that got no answer at all breaks (the rest cannot be judged then); by default all of them. */
  brokenByNoAnswer?: readonly string[];
  run(ctx: OperationContext): Promise<Finding[]>;
}

/** One path's wrong methods are tried once, from its first operation. */
const firstOfPath = (op: Operation, spec: LoadedSpec) => spec.operations.find((o) => o.path === op.path) === op;

export const REQUEST_CHECKS: Record<RequestCheckName, RequestCheck> = {
  'positive-data-acceptance': { applies: () => true, judges: ['GEN-VALID-ACCEPTED'], run: positiveDataAcceptance },
  'negative-data-rejection': { applies: () => true, judges: ['GEN-NO-5XX', 'GEN-REFUSAL-STATUS'], brokenByNoAnswer: ['GEN-NO-5XX'], run: negativeDataRejection },
  'missing-credential-refused': { applies: (op) => op.security.length > 0, judges: ['GEN-AUTH'], run: credentialCheck('missing') },
  'wrong-credential-refused': { applies: (op) => op.security.length > 0, judges: ['GEN-AUTH'], run: credentialCheck('wrong') },
  'other-role-refused': { applies: (op) => op.refusedRoles.length > 0, judges: ['GEN-ROLE'], run: otherRoleRefused },
  'unsupported-method': { applies: (op, spec) => Boolean(op.wrongMethod) && firstOfPath(op, spec), judges: ['GEN-WRONG-METHOD'], run: unsupportedMethod },
};
