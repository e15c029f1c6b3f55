/**
 * An executable reading of Interface C (document 002, sections "Endpoints" and "Errors"): for one request case, the
 * answers the document allows and the requirement of specs/game-bridge.yaml each answer belongs to.
 * Independent of the reference server (mocks/): written from the document's tables only.
 */

import { answered, judged, methodNotImplemented } from '../../harness/answers.ts';
import type { Reply } from '../../harness/http/client.ts';

/** | Method | Path | ... | of the endpoint table, with the config switch of each row (v2-endpoints.*). */
export const ENDPOINTS = {
  '/v2/log': { method: 'POST', switch: 'log', success: 'C-LOG-200' },
  '/v2/status': { method: 'GET', switch: 'status', success: 'C-STATUS-200' },
  '/v2/players': { method: 'GET', switch: 'players', success: 'C-PLAYERS-200' },
  '/v2/info': { method: 'GET', switch: 'info', success: 'C-INFO-BRIDGE' },
} as const;

export type BridgePath = keyof typeof ENDPOINTS;
export const PATHS = Object.keys(ENDPOINTS) as BridgePath[];
/** HEAD and OPTIONS are left out: HEAD answers carry no body to read, OPTIONS is often answered by CORS layers. */
export const METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH'] as const;

/** The header name the document writes; HTTP field names are case-insensitive, so any spelling must do. */
export const KEY_HEADER = 'X-Auth-Key';

/** What the X-Auth-Key header carries: only 'right' is the configured key (auth.key, compared exactly). */
export type KeyKind = 'right' | 'missing' | 'wrong' | 'case-swapped' | 'prefix' | 'empty' | 'appended';

/** The body of a request, by what the log table and the 400 row make of it. */
export type BodyKind =
  | 'absent'
  | 'not-json'
  | 'not-object' // JSON, but not an object: it has no field message either
  | 'no-message'
  | 'empty-message'
  | 'message' // with one of the common levels info, warn, error, debug
  | 'message-no-level'
  | 'message-any-level' // any other level, or a common one in other capitals
  | 'message-no-content-type' // a valid body without Content-Type (only "recommended")
  | 'message-not-string' // message present, but null, a number, an object, an array or a boolean
  | 'level-not-string'; // a message, and a level present but null, a number, an object, an array or a boolean

/**
 * What the target profile states of the open points an answer depends on (suites/game-bridge/stated.ts). A point it
 * does not state (undefined) allows the answer of every reading, and an answer only one reading gives proves nothing.
 */
export interface StatedReadings {
  /** C-NS-CONTENT-TYPE, settings.logRequiresContentType: true, POST /v2/log reads a body only when labelled JSON. */
  logRequiresContentType?: boolean;
  /** C-NS-EXTRA-INPUT, settings.extras: the profile says what the operations need beyond the document (the client sends it). */
  extras?: boolean;
}

export interface ModelCase {
  method: string;
  path: BridgePath;
  key: KeyKind;
  /** The spelling of the key header's name; irrelevant when the key is missing. */
  headerName: string;
  body: BodyKind;
  /** v2-endpoints.<switch> of the target (the profile's settings.endpoints). */
  enabled: boolean;
  /** What the profile states of the open points; absent: nothing. */
  stated?: StatedReadings;
}

export interface Outcome {
  status: number;
  ok: boolean;
  error?: string;
  /** Asserted only where the error table gives the text. */
  message?: string;
  /** The requirement this answer belongs to. */
  requirement: string;
  /** The requirement of the message text, when it is not `requirement`. */
  textRequirement?: string;
  /**
   * Where the document leaves the answer open but rules some out: any 2xx or 4xx (with `refusal`, any 4xx) but these
   * statuses will do. Such an answer has no documented body.
   */
  anyBut?: number[];
  refusal?: boolean;
  /**
   * An answer that one reading of an open point gives (what it is, and the setting that states it): accepted, but it
   * shows nothing about `requirement`, which it is never counted for.
   */
  open?: string;
}

/**
 * Whether an answer is one an outcome allows, read through the harness's classification: a throttle, a server error
 * or a page that is not the API is no answer of the bridge at all, and is thrown (Undecided, harness/answers.ts)
 * instead of being taken for "another status".
 */
export function fits(o: Outcome, reply: Reply): boolean {
  const kind = judged(reply);
  if (o.anyBut) return (kind === 'refused' || (!o.refusal && kind === 'accepted')) && !answered(reply, ...o.anyBut);
  return answered(reply, o.status);
}

const success = (requirement: string): Outcome => ({ status: 200, ok: true, requirement });

/** The text of the 400 row. */
export const MISSING_FIELD = 'Missing field: message';

/** | 400 | bad_request | Missing field: message | /v2/log body missing or without field message | */
const missingField = (requirement: string): Outcome => ({ status: 400, ok: false, error: 'bad_request', message: MISSING_FIELD, requirement });

/** Refusals whose meaning the document (or HTTP) fixes: the key, the switch, no such path, the method. */
const MEANT_REFUSALS = [401, 403, 404, 405];

/** The log request table: message required (an empty string is present), level optional and any value. */
const LOG_BODY: Record<Exclude<BodyKind, 'message-no-content-type'>, Outcome> = {
  absent: missingField('C-LOG-400-MISSING'),
  'no-message': missingField('C-LOG-400-MISSING'),
  // A body that cannot be parsed has no field message: the 400 row, with its text or one of its own (C-NS-MALFORMED-BODY).
  'not-json': { status: 400, ok: false, error: 'bad_request', requirement: 'C-LOG-NOT-JSON' },
  'not-object': { status: 400, ok: false, error: 'bad_request', requirement: 'C-LOG-NOT-JSON' },
  'empty-message': success('C-LOG-400-ONLY-ABSENT'),
  message: success('C-LOG-200'),
  'message-no-level': success('C-LOG-LEVEL-OPTIONAL'),
  'message-any-level': success('C-LOG-LEVEL-ANY'),
  // "A 400 is returned only when message is absent entirely": a present message of another type is never a 400; what
  // else the bridge does with it (log its text, refuse it with another 4xx) is not shown.
  'message-not-string': { status: 200, ok: true, requirement: 'C-LOG-400-ONLY-ABSENT', anyBut: [400] },
  // The message is there, so no 400; a level of another type is logged as its text (null as no level) or refused with
  // another 4xx (C-NS-LEVEL-TYPE). A bridge that uppercases it without looking crashes: never a 5xx.
  'level-not-string': { status: 200, ok: true, requirement: 'C-LOG-400-ONLY-ABSENT', anyBut: [400] },
};

/**
 * A valid body without Content-Type (only "recommended"): read as JSON, unless the profile states that the deployment
 * reads only bodies labelled JSON; then it is a body missing. Where the profile does not say, both are accepted, and
 * only the first counts for C-LOG-CONTENT-TYPE-OPTIONAL.
 */
function withoutContentType(stated: StatedReadings): Outcome[] {
  if (stated.logRequiresContentType) return [missingField('C-LOG-400-MISSING')];
  const read = success('C-LOG-CONTENT-TYPE-OPTIONAL');
  if (stated.logRequiresContentType === false) return [read];
  const unread = 'the body without Content-Type was left unread, as by a deployment that reads only bodies labelled JSON (C-NS-CONTENT-TYPE json-type-required); state settings.logRequiresContentType (false: it must be read)';
  return [read, { ...missingField('C-LOG-CONTENT-TYPE-OPTIONAL'), open: unread }];
}

/** GET /v2/players refused for input the document does not show (C-NS-EXTRA-INPUT), where the profile does not say. */
const PLAYERS_NEED_MORE: Outcome = {
  status: 400,
  ok: false,
  requirement: 'C-PLAYERS-200',
  anyBut: MEANT_REFUSALS,
  refusal: true,
  open: 'GET /v2/players with the key alone was refused, as by a deployment that needs input the document does not show (C-NS-EXTRA-INPUT); state it in settings.extras',
};

/** The answers to a case with nothing wrong in its key, method or switch. */
function answers(c: ModelCase): Outcome[] {
  const stated = c.stated ?? {};
  if (c.path === '/v2/log') return c.body === 'message-no-content-type' ? withoutContentType(stated) : [LOG_BODY[c.body]];
  const served = success(ENDPOINTS[c.path].success);
  return c.path === '/v2/players' && !stated.extras ? [served, PLAYERS_NEED_MORE] : [served];
}

/**
 * The refusal a /v2/log body alone gets, when a bridge reads the body before it looks at the key, the method or the
 * switch (C-NS-CHECK-ORDER): the 400 row, or whatever other refusal the document leaves open for the body.
 */
function bodyRefusalFirst(o: Outcome): Outcome[] {
  if (o.anyBut) {
    const first = 'the body was refused before the key, the method or the switch was looked at (C-NS-CHECK-ORDER)';
    return [{ ...o, ok: false, refusal: true, anyBut: [...new Set([...o.anyBut, ...MEANT_REFUSALS])], open: o.open ?? first }];
  }
  // The body's own refusal (the 400 row), not its success.
  return o.ok ? [] : [o];
}

/** The answers the document allows for one request case. */
export function acceptable(c: ModelCase): Outcome[] {
  const endpoint = ENDPOINTS[c.path];
  const isLog = c.path === '/v2/log';
  const refusals: Outcome[] = [];
  if (c.key !== 'right') {
    // "A missing or wrong key gives 401"; a key that is merely close to the right one is wrong (auth.key, exact).
    const requirement = c.key === 'missing' || c.key === 'wrong' ? 'C-AUTH-401' : 'C-AUTH-KEY-EXACT';
    refusals.push({ status: 401, ok: false, error: 'unauthorized', message: 'Invalid X-Auth-Key', requirement, textRequirement: 'C-AUTH-401-BODY' });
  }
  if (c.method !== endpoint.method) {
    refusals.push({ status: 405, ok: false, error: 'method_not_allowed', message: isLog ? 'Use POST' : undefined, requirement: 'C-METHOD-405' });
  }
  if (!c.enabled) {
    refusals.push({ status: 403, ok: false, error: 'forbidden', message: isLog ? 'v2 log disabled' : undefined, requirement: 'C-DISABLED-403' });
  }
  if (refusals.length === 0) return answers(c);
  // The document orders none of its checks: when several apply, the answer of any one of them is right, the log
  // body's refusal included (a bridge may read the body before it looks at the key).
  return isLog ? [...refusals, ...answers(c).flatMap(bodyRefusalFirst)] : refusals;
}

/**
 * The requirements an answer outside `acceptable(c)` may break, most likely first. A 401 to the right key sent under
 * another spelling of the header name means the name was matched case-sensitively.
 */
export function blame(c: ModelCase, reply: Reply): string[] {
  if (answered(reply, 401) && c.key === 'right' && c.headerName !== KEY_HEADER) return ['C-AUTH-HEADER-CASE'];
  return acceptable(c).map((o) => o.requirement);
}

/**
 * A request that a conforming bridge may answer by writing a console line, in any reading: a deployment that reads
 * more than its profile states (a body without Content-Type) would still write.
 */
export function writesLogLine(c: ModelCase): boolean {
  return c.path === '/v2/log' && acceptable({ ...c, stated: {} }).some((o) => o.ok);
}

/**
 * HTTP methods are case-sensitive (RFC 9110): `get` is not GET, so it is not served as the endpoint's method. Which
 * refusal a server gives an unknown method is open (405 by the error table, 400 or 501 from an HTTP stack, 404 from
 * a router): a refusal, or 501 Not Implemented, RFC 9110's own answer to a method the server does not recognise. A
 * success breaks it; a throttle, another server error or a page that is not the API decides nothing (thrown).
 */
export function methodCaseFits(reply: Reply): boolean {
  return methodNotImplemented(reply) || judged(reply) === 'refused';
}
