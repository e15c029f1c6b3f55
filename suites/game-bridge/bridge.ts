/** Sending a request case to the bridge and judging the answer against the model. */
import { TargetError, type Client, type Reply } from '../../harness/http/client.ts';
import type { BridgeSettings } from '../../harness/profile/types.ts';
import type { Secrets } from '../../harness/secrets.ts';
import { RequirementViolation } from '../../harness/verdicts.ts';
import { answered, judged, refused, Undecided } from '../../harness/answers.ts';
import type { WriteJournal } from '../../harness/writes.ts';
import { parseJson } from '../../harness/parse-json.ts';
import type { RequestCase } from './cases.ts';
import { acceptable, blame, ENDPOINTS, fits, KEY_HEADER, MISSING_FIELD, writesLogLine, type KeyKind, type ModelCase, type Outcome, type StatedReadings } from './model.ts';

const WRONG_KEY = 'conformance-harness-wrong-key';

/** The header value of a key kind, and the kind it really is (a key without letters has no other letter case). */
function keyValue(secrets: Secrets, kind: KeyKind): { kind: KeyKind; value?: string } {
  const key = secrets.get('authKey');
  switch (kind) {
    case 'missing':
      return { kind };
    case 'right':
      return { kind, value: key };
    case 'wrong':
      return { kind, value: secrets.harmless(key === WRONG_KEY ? `${WRONG_KEY}-2` : WRONG_KEY) };
    case 'empty':
      return { kind, value: '' };
    case 'appended':
      // Redacted in evidence: the key inside it is replaced by its token.
      return { kind, value: `${key}x` };
    case 'case-swapped': {
      const value = secrets.derived('authKey', 'swapcase');
      return { kind: value === key ? 'right' : kind, value };
    }
    case 'prefix': {
      // All but the last character: the likeliest length-comparison bug.
      const value = secrets.derived('authKey', `prefix:${key.length - 1}`);
      return { kind: value === '' ? 'empty' : kind, value };
    }
  }
}

export interface Prepared {
  model: ModelCase;
  headers: Record<string, string>;
}

export function prepare(c: RequestCase, secrets: Secrets, settings: BridgeSettings, stated: StatedReadings): Prepared {
  const key = keyValue(secrets, c.key);
  const headers: Record<string, string> = {};
  if (key.value !== undefined) headers[c.headerName] = key.value;
  if (c.body.contentType) headers['Content-Type'] = c.body.contentType;
  const enabled = settings.endpoints[ENDPOINTS[c.path].switch] !== false;
  return { model: { method: c.method, path: c.path, key: key.kind, headerName: c.headerName, body: c.body.kind, enabled, stated }, headers };
}

/**
 * Sends one case. A case a conforming bridge answers with a console line is never sent where the profile forbids
 * writes; the client journals every line a bridge did write.
 */
export async function send(api: Client, writes: WriteJournal, c: RequestCase, p: Prepared, label = `${c.key} key, ${c.body.kind} body, ${c.method} ${c.path}`): Promise<Reply> {
  if (writesLogLine(p.model) && !writes.allowed) throw new Error('harness: a log write was about to be sent although the profile does not allow writes');
  return api.send({ method: c.method, path: c.path, headers: p.headers, json: c.body.json, body: c.body.raw, label });
}

/**
 * The key control of a case: how to send the same request with the right key under the header name the document
 * writes, or undefined where that request would write a console line and the profile forbids writes.
 */
export function keyControlOf(api: Client, writes: WriteJournal, c: RequestCase, secrets: Secrets, settings: BridgeSettings, stated: StatedReadings): (() => Promise<Reply>) | undefined {
  const right: RequestCase = { ...c, key: 'right', headerName: KEY_HEADER };
  const p = prepare(right, secrets, settings, stated);
  if (writesLogLine(p.model) && !writes.allowed) return undefined;
  return () => send(api, writes, right, p, `${c.key} key, ${c.body.kind} body, ${c.method} ${c.path}: its control with the right key`);
}

function describe(outcomes: Outcome[]): string {
  return outcomes
    .map((o) => {
      const status = o.anyBut ? `any ${o.refusal ? '4xx' : '2xx or 4xx'} but ${o.anyBut.join(', ')}` : `${o.status} ok ${o.ok}`;
      return `${status}${o.error ? ` error ${o.error}` : ''}${o.message ? ` message ${JSON.stringify(o.message)}` : ''} (${o.requirement}${o.open ? ', a reading the profile does not state' : ''})`;
    })
    .join(' or ');
}

/** The `reading` fixture: records the reading of an open point an answer shows. */
export type SeeReading = (point: string, reading: string | undefined, detail?: string) => void;

/** Records the reading an answer shows, or, where no listed reading describes it, what it did. */
export function see(reading: SeeReading, point: string, seen: string | undefined, otherwise: string): void {
  if (seen) reading(point, seen);
  else reading(point, undefined, otherwise);
}

export interface JudgeContext {
  /**
   * The requirement is not judged here (already failed, or another check's); a case where several checks apply cannot
   * tell which went wrong once one of them is set aside, so it stops there.
   */
  setAside: (id: string) => boolean;
  reading?: SeeReading;
  /** Told of an answer only one reading of an open point gives: accepted, and not counted for `requirement`. */
  open?: (requirement: string, why: string) => void;
  /**
   * Sends the case's key control: the same request with the right key, under the header name the document writes.
   * Absent where it may not be sent (it would write a console line where the profile forbids writes).
   */
  keyControl?: () => Promise<Reply>;
  /** Told of a requirement the case reached but could not decide: the key control was not answered as the document says. */
  undecided?: (requirement: string, why: string) => void;
}

/**
 * The key rules: a 401 counts for them only beside a control, the same request with the right key, which the bridge
 * takes: answered, and not refused for the key (401). Whatever else the control gets (200, 405 or 403 where something
 * else is wrong on purpose, or a success of its own rule's breaking) is the other rules' to judge. A bridge that refuses
 * the right key too shows nothing about how it checks a wrong one.
 */
const KEY_RULES = ['C-AUTH-401', 'C-AUTH-KEY-EXACT'];

/**
 * Whether the bridge took the right key where this case sent another (or another spelling of the header name): true,
 * or why not (the control refused, or no answer of the bridge), or undefined where no control may be sent.
 */
async function keyTaken(ctx: JudgeContext): Promise<true | string | undefined> {
  if (!ctx.keyControl) return undefined;
  let control: Reply;
  try {
    control = await ctx.keyControl();
    judged(control, 'the same request with the right key (the control)');
  } catch (e) {
    // A control that got no answer of the bridge decides nothing either; an outage ends the check as ever.
    if (e instanceof Undecided || (e instanceof TargetError && e.kind !== 'given-up')) return `its control with the right key got no answer of the bridge (${e.message})`;
    throw e;
  }
  if (!answered(control, 401)) return true;
  return `the same request with the right key (the control) was refused 401 too ${control.text.slice(0, 120)}: the refusal proves nothing about the key check`;
}

/**
 * Judges one answer, and returns the requirements whose condition it met (for a pass that needs the condition seen).
 * Only the bridge's own answers are judged: a throttle (no rule of the bridge is about a limit), a server error
 * (C-GEN-NO-5XX's, wherever it shows) or a page that is not the API is thrown as Undecided (harness/answers.ts), and
 * decides nothing about the case.
 */
export async function judge(c: ModelCase, reply: Reply, ctx: JudgeContext): Promise<string[]> {
  const allowed = acceptable(c);
  const expected = describe(allowed);
  const request = `${c.method} ${c.path} (${c.key} key${c.key !== 'missing' && c.headerName !== KEY_HEADER ? ` in ${c.headerName}` : ''}, ${c.body} body${c.enabled ? '' : ', switched off'})`;
  const violate = (id: string, message: string) => {
    if (!ctx.setAside(id)) throw new RequirementViolation(id, `${request}: ${message}`, expected, [reply.exchange]);
  };
  judged(reply, request);
  const hit = allowed.find((o) => fits(o, reply));
  if (!hit) {
    const ids = blame(c, reply);
    if (ids.some(ctx.setAside)) return [];
    // A 401 to the right key under another spelling of the header name is the spelling's fault only where the same
    // request under the document's spelling is taken.
    if (ids[0] === 'C-AUTH-HEADER-CASE') {
      const taken = await keyTaken(ctx);
      if (taken !== true) {
        if (taken) ctx.undecided?.(ids[0], `${request} answered ${reply.status}, and ${taken}`);
        return [];
      }
    }
    throw new RequirementViolation(ids[0], `${request} answered ${reply.status} ${reply.text.slice(0, 200)}`, expected, [reply.exchange]);
  }
  if (ctx.reading) seeReadings(c, reply, hit, ctx.reading);
  const body = reply.json;
  // An answer only one reading gives shows nothing about its requirement, nor that the key was taken.
  const met = hit.open ? [] : [hit.requirement];
  if (hit.open) ctx.open?.(hit.requirement, hit.open);
  if (!hit.open && c.key === 'right' && c.headerName !== KEY_HEADER) met.push('C-AUTH-HEADER-CASE');
  if (isBadInput(c)) met.push('C-GEN-NO-5XX');
  // An answer the document leaves open (another 4xx for a message that is not a string) has no documented body.
  if (hit.anyBut && refused(reply)) return met;
  if (hit.ok) {
    if (body?.ok !== true) violate(hit.requirement, `200 without ok true: ${reply.text.slice(0, 200)}`);
    return met;
  }
  if (body?.ok !== false || body.error !== hit.error || typeof body.message !== 'string') {
    violate('C-ERROR-BODY', `a ${reply.status} needs a JSON body with ok false, error ${JSON.stringify(hit.error)} and a string message: ${reply.text.slice(0, 200)}`);
  }
  met.push('C-ERROR-BODY');
  if (hit.message !== undefined && body?.message !== hit.message) {
    violate(hit.textRequirement ?? hit.requirement, `message ${JSON.stringify(body?.message)}, the table gives ${JSON.stringify(hit.message)}`);
  }
  if (hit.textRequirement) met.push(hit.textRequirement);
  return keyRefusal(c, hit, met, request, ctx);
}

/** A wrong key's 401 counts for the key rules only beside the key control: otherwise it is set aside, or undecided. */
async function keyRefusal(c: ModelCase, hit: Outcome, met: string[], request: string, ctx: JudgeContext): Promise<string[]> {
  if (!KEY_RULES.includes(hit.requirement) || !met.includes(hit.requirement) || ctx.setAside(hit.requirement)) return met;
  const taken = await keyTaken(ctx);
  if (taken === true) return met;
  if (taken) ctx.undecided?.(hit.requirement, `${request} was refused 401, but ${taken}`);
  return met.filter((id) => id !== hit.requirement);
}

const DOCUMENTED_ERROR_MEMBERS = ['ok', 'error', 'message'];
/** The requirements of the refusals of the key, the method and the switch: an answer of theirs says nothing of the body. */
const REFUSALS = ['C-AUTH-401', 'C-AUTH-KEY-EXACT', 'C-METHOD-405', 'C-DISABLED-403'];

/** Records the readings of the open points an accepted answer shows (specs/game-bridge.yaml, x-not-shown). */
function seeReadings(c: ModelCase, reply: Reply, hit: Outcome, reading: SeeReading): void {
  const body = reply.json;
  const message: unknown = body?.message;
  const ofBody = !REFUSALS.includes(hit.requirement);
  if (ofBody && c.body === 'message-no-content-type' && answered(reply, 400)) reading('C-NS-CONTENT-TYPE', 'json-type-required');
  if (ofBody && hit.requirement === 'C-LOG-NOT-JSON' && typeof message === 'string') reading('C-NS-MALFORMED-BODY', message === MISSING_FIELD ? 'missing-field' : 'invalid-json-message');
  if (ofBody && c.body === 'message-not-string' && !hit.open) {
    see(reading, 'C-NS-MESSAGE-TYPE', judged(reply) === 'accepted' ? 'logged-as-json' : answered(reply, 422) ? 'refused-422' : undefined, `a message that is not a string answered ${reply.status}`);
  }
  // A null level is taken for no level by every reading: only a level of another type shows which one the bridge takes.
  if (ofBody && c.body === 'level-not-string' && !hit.open && (parseJson(reply.exchange.request.body ?? '') as { level?: unknown } | undefined)?.level !== null) {
    see(reading, 'C-NS-LEVEL-TYPE', judged(reply) === 'accepted' ? 'forwarded-as-text' : answered(reply, 422) ? 'refused-422' : undefined, `a level that is not a string answered ${reply.status}`);
  }
  if (hit.open && c.path === '/v2/players') reading('C-NS-EXTRA-INPUT', undefined, `GET /v2/players with the key alone answered ${reply.status}`);
  if (hit.ok || hit.anyBut || typeof body !== 'object' || body === null) return;
  const more = Object.keys(body).filter((k) => !DOCUMENTED_ERROR_MEMBERS.includes(k));
  if (more.length === 0) reading('C-NS-ERROR-MEMBERS', 'documented-only');
  else if (['status', 'path', 'timestamp'].every((k) => more.includes(k))) reading('C-NS-ERROR-MEMBERS', 'status-path-timestamp');
  else reading('C-NS-ERROR-MEMBERS', undefined, `error bodies also carry ${more.join(', ')}`);
  if (answered(reply, 405)) reading('C-NS-ALLOW-HEADER', reply.headers.allow === undefined ? 'no-allow-header' : 'allow-header');
  // The table gives the texts of /v2/log only; those of the other paths show how the deployment words them.
  if (c.path !== '/v2/log' && answered(reply, 403, 405) && typeof message === 'string') {
    const wrongMethod = answered(reply, 405);
    const likeLog = wrongMethod ? 'Use GET' : `v2 ${ENDPOINTS[c.path].switch} disabled`;
    const generic = wrongMethod ? 'Method not allowed' : 'Endpoint disabled';
    see(reading, 'C-NS-MESSAGE-TEXTS', message === likeLog ? 'named-like-log' : message === generic ? 'generic-texts' : undefined, `a ${reply.status} says ${JSON.stringify(message)}`);
  }
}

/** A case with something wrong in it (key, method, switch or body): a server error for it is a crash on client input. */
function isBadInput(c: ModelCase): boolean {
  return c.key !== 'right' || c.method !== ENDPOINTS[c.path].method || (c.path === '/v2/log' && !['message', 'message-no-level', 'message-any-level', 'message-no-content-type'].includes(c.body));
}

/** The requirements a case was testing: a request that gets no answer at all is evidence against these. */
export function testing(c: ModelCase): string[] {
  return [...new Set([...acceptable(c).map((o) => o.requirement), ...(isBadInput(c) ? ['C-GEN-NO-5XX'] : [])])];
}

/** The requirements the matrix judges against a profile, and why the others cannot be judged there. */
export function matrixScope(settings: BridgeSettings, writesAllowed: boolean): { judged: string[]; notApplicable: Array<[string, string]> } {
  const judged = ['C-AUTH-401', 'C-AUTH-401-BODY', 'C-AUTH-KEY-EXACT', 'C-AUTH-HEADER-CASE', 'C-METHOD-405', 'C-ERROR-BODY', 'C-GEN-NO-5XX'];
  const notApplicable: Array<[string, string]> = [];
  const off = Object.values(ENDPOINTS).filter((e) => settings.endpoints[e.switch] === false);
  if (off.length > 0) judged.push('C-DISABLED-403');
  else notApplicable.push(['C-DISABLED-403', 'every endpoint is enabled in the profile (settings.endpoints): none can be seen switched off']);
  for (const e of Object.values(ENDPOINTS)) {
    if (e.switch === 'log') continue;
    if (settings.endpoints[e.switch] === false) notApplicable.push([e.success, `GET /v2/${e.switch} is switched off in the profile (endpoints.${e.switch} false)`]);
    else judged.push(e.success);
  }
  const logReads = ['C-LOG-400-MISSING', 'C-LOG-NOT-JSON'];
  const logWrites = ['C-LOG-200', 'C-LOG-400-ONLY-ABSENT', 'C-LOG-LEVEL-OPTIONAL', 'C-LOG-LEVEL-ANY', 'C-LOG-CONTENT-TYPE-OPTIONAL'];
  // True only where the profile states it (its default is false).
  if (settings.logRequiresContentType === true) {
    logWrites.splice(logWrites.indexOf('C-LOG-CONTENT-TYPE-OPTIONAL'), 1);
    notApplicable.push(['C-LOG-CONTENT-TYPE-OPTIONAL', 'the profile states that POST /v2/log reads only bodies labelled JSON (settings.logRequiresContentType)']);
  }
  if (settings.endpoints.log === false) {
    for (const id of [...logReads, ...logWrites]) notApplicable.push([id, 'POST /v2/log is switched off in the profile (endpoints.log false)']);
  } else {
    judged.push(...logReads);
    if (writesAllowed) judged.push(...logWrites);
    else for (const id of logWrites) notApplicable.push([id, 'needs a console line written by POST /v2/log, and the profile does not allow writes (writes: false)']);
  }
  return { judged, notApplicable };
}

/** The requirements one case says something about. */
export function requirementsOf(c: ModelCase): string[] {
  // An answer with no documented body (anyBut) says nothing about error bodies.
  const ids = acceptable(c).flatMap((o) => [o.requirement, ...(o.textRequirement ? [o.textRequirement] : []), ...(o.ok || o.anyBut ? [] : ['C-ERROR-BODY'])]);
  if (c.key === 'right' && c.headerName !== KEY_HEADER) ids.push('C-AUTH-HEADER-CASE');
  return [...new Set(ids)];
}
