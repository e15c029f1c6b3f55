/** Sending a request case to the bridge and judging the answer against the model. */
import type { Client, Reply } from '../../harness/http/client.ts';
import type { BridgeSettings } from '../../harness/profile/types.ts';
import type { Secrets } from '../../harness/secrets.ts';
import { RequirementViolation } from '../../harness/verdicts.ts';
import type { WriteJournal } from '../../harness/writes.ts';
import type { RequestCase } from './cases.ts';
import { acceptable, blame, ENDPOINTS, KEY_HEADER, statusFits, writesLogLine, type KeyKind, type ModelCase, type Outcome } from './model.ts';

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

export function prepare(c: RequestCase, secrets: Secrets, settings: BridgeSettings): Prepared {
  const key = keyValue(secrets, c.key);
  const headers: Record<string, string> = {};
  if (key.value !== undefined) headers[c.headerName] = key.value;
  if (c.body.contentType) headers['Content-Type'] = c.body.contentType;
  const enabled = settings.endpoints[ENDPOINTS[c.path].switch] !== false;
  return { model: { method: c.method, path: c.path, key: key.kind, headerName: c.headerName, body: c.body.kind, enabled }, headers };
}

/**
 * Sends one case. A case a conforming bridge answers with a console line is never sent where the profile forbids
 * writes; the client journals every line a bridge did write.
 */
export async function send(api: Client, writes: WriteJournal, c: RequestCase, p: Prepared): Promise<Reply> {
  if (writesLogLine(p.model) && !writes.allowed) throw new Error('harness: a log write was about to be sent although the profile does not allow writes');
  return api.send({ method: c.method, path: c.path, headers: p.headers, json: c.body.json, body: c.body.raw, label: `${c.key} key, ${c.body.kind} body, ${c.method} ${c.path}` });
}

function describe(outcomes: Outcome[]): string {
  return outcomes
    .map((o) => `${o.status} ok ${o.ok}${o.error ? ` error ${o.error}` : ''}${o.message ? ` message ${JSON.stringify(o.message)}` : ''} (${o.requirement})`)
    .join(' or ');
}

/**
 * Judges one answer, and returns the requirements whose condition it met (for a pass that needs the condition seen).
 * `setAside(id)`: the requirement is not judged here (already failed, or another check's); a case where several checks
 * apply cannot tell which went wrong once one of them is set aside, so it stops there. A 5xx also breaks C-GEN-NO-5XX.
 */
export function judge(c: ModelCase, reply: Reply, setAside: (id: string) => boolean): string[] {
  const allowed = acceptable(c);
  const expected = describe(allowed);
  const request = `${c.method} ${c.path} (${c.key} key${c.key !== 'missing' && c.headerName !== KEY_HEADER ? ` in ${c.headerName}` : ''}, ${c.body} body${c.enabled ? '' : ', switched off'})`;
  const violate = (id: string, message: string) => {
    if (!setAside(id)) throw new RequirementViolation(id, `${request}: ${message}`, expected);
  };
  const hit = allowed.find((o) => statusFits(o, reply.status));
  if (!hit) {
    const ids = blame(c, reply.status);
    if (ids.some(setAside)) return [];
    throw new RequirementViolation(reply.status >= 500 ? [ids[0], 'C-GEN-NO-5XX'] : ids[0], `${request} answered ${reply.status} ${reply.text.slice(0, 200)}`, expected);
  }
  const body = reply.json;
  const met = [hit.requirement];
  if (c.key === 'right' && c.headerName !== KEY_HEADER) met.push('C-AUTH-HEADER-CASE');
  if (isBadInput(c)) met.push('C-GEN-NO-5XX');
  if (hit.ok) {
    // An answer the document leaves open (another 4xx for a message that is not a string) has no documented body.
    if (hit.anyBut && reply.status !== 200) return met;
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
  return met;
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
  const ids = acceptable(c).flatMap((o) => [o.requirement, ...(o.textRequirement ? [o.textRequirement] : []), ...(o.ok ? [] : ['C-ERROR-BODY'])]);
  if (c.key === 'right' && c.headerName !== KEY_HEADER) ids.push('C-AUTH-HEADER-CASE');
  return [...new Set(ids)];
}
