import type { Client, Reply, RequestSpec } from '../http/client.ts';
import { test } from '../fixtures.ts';
import { NotTested, deviation, reqTags } from '../verdicts.ts';
import { loadSpec } from '../spec/load.ts';
import type { Operation } from '../spec/types.ts';
import type { Profile } from '../profile/types.ts';
import type { Secrets } from '../secrets.ts';
import type { WriteJournal } from '../writes.ts';
import { badBodies, validValue } from './bodies.ts';
import { validRequest } from './requests.ts';

export interface GenericHooks {
  /** Headers every request of this interface carries (a fresh client identity, for instance). */
  baseHeaders?: (ctx: { address: () => string }) => Record<string, string>;
  /** Headers that carry valid credentials for an operation. */
  credentials?: (op: Operation, secrets: Secrets) => Record<string, string>;
  /** Headers with credentials that are wrong (a made-up key), for the auth check. */
  wrongCredentials?: (op: Operation, secrets: Secrets) => Record<string, string>;
  /** Whether the profile leaves the operation enabled. */
  enabled?: (op: Operation, profile: Profile) => boolean;
  /** Documented statuses that may also answer when the operation is disabled (the document does not order checks). */
  whenDisabled?: number[];
  /** Parameter values the target must supply (an id an earlier request created), by parameter name. */
  values?: (op: Operation, ctx: { api: Client; secrets: Secrets }) => Promise<Record<string, unknown>> | Record<string, unknown>;
}

const OTHER_METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH'];

/**
 * The checks derived from a spec for every operation, as schema-driven testers do: a valid request gets a
 * documented answer in the documented form; bad input gets a 4xx, never a 5xx; credentials are required where
 * the spec says so; a method the path does not serve gets its documented answer.
 */
export function defineGenericChecks(interfaceName: string, hooks: GenericHooks = {}): void {
  const spec = loadSpec(interfaceName);
  const p = spec.prefix;
  const has = (suffix: string) => spec.requirements.some((r) => r.id === `${p}-GEN-${suffix}`);

  test.describe('generic checks derived from the spec', () => {
    for (const op of spec.operations) {
      const base = (ctx: { address: () => string }, secrets: Secrets): Record<string, string> => ({
        ...(hooks.baseHeaders?.(ctx) ?? {}),
        ...(hooks.credentials?.(op, secrets) ?? {}),
      });

      // A request a conforming target would accept on this operation writes, and the profile may forbid that.
      const writeForbidden = (enabled: boolean, writes: WriteJournal) => Boolean(op.write) && enabled && !writes.allowed;

      // A success the spec gives no body or media type cannot break GEN-SCHEMA or GEN-CONTENT-TYPE: not claimed then.
      const successes = Object.values(op.responses).filter((r) => /^2/.test(r.status));
      const claims = [
        ...(successes.some((r) => r.schema) ? [`${p}-GEN-SCHEMA`] : []),
        ...(successes.some((r) => r.contentType) ? [`${p}-GEN-CONTENT-TYPE`] : []),
        `${p}-GEN-VALID-ACCEPTED`,
      ];
      test(`${op.key}: a valid request gets a documented success in the documented form`, { tag: reqTags(...claims) }, async ({ api, verify, notApplicable, secrets, identity, writes, profile }) => {
        const enabled = hooks.enabled?.(op, profile) ?? true;
        if (writeForbidden(enabled, writes)) {
          for (const id of claims) notApplicable(id, `${op.key} writes (${op.write}) and the profile does not allow writes`);
          return;
        }
        const valid = validRequest(spec, op, await hooks.values?.(op, { api, secrets }));
        const req: RequestSpec = { ...valid, headers: { ...valid.headers, ...base(identity, secrets) }, label: 'valid request' };
        // The client validated the answer against the spec (GEN-SCHEMA, GEN-CONTENT-TYPE); here, that it is a success.
        await verify(`${p}-GEN-VALID-ACCEPTED`, async () => {
          const r = await api.send(req);
          const successes = Object.keys(op.responses).filter((s) => /^2/.test(s));
          const refusals = enabled ? [] : (hooks.whenDisabled ?? []).map(String);
          if (successes.includes(String(r.status)) || refusals.includes(String(r.status))) return;
          // The request uses only what every reading of the document accepts; where a refusal could still rest on a
          // point the document does not show (which chat roles are allowed, say), it is no evidence against the target.
          if (op.validRequestOpen && r.status >= 400 && r.status < 500) {
            throw new NotTested(`${op.key} refused the valid request with ${r.status}; whether it may rests on what the document does not show (${op.validRequestOpen.join(', ')})`);
          }
          throw deviation(`${op.key} answered the valid request ${r.status} ${r.text.slice(0, 200)}`, `${[...successes, ...refusals].join(' or ')} (documented: ${Object.keys(op.responses).join(', ')})`);
        });
      });

      test(`${op.key}: bad input gets a 4xx, never a 5xx`, { tag: reqTags(`${p}-GEN-NO-5XX`, `${p}-GEN-REFUSAL-STATUS`) }, async ({ api, verify, secrets, identity, writes, profile }) => {
        const enabled = hooks.enabled?.(op, profile) ?? true;
        // The path of a valid request (its parameters filled in): only the body, the query or the headers are bad.
        const path = validRequest(spec, op, await hooks.values?.(op, { api, secrets })).path.split('?')[0];
        const cases: Array<RequestSpec & { label: string; certainlyRefused?: boolean }> = [];
        if (op.hasRequestBody) {
          for (const b of badBodies(spec.doc, op.requestSchema, op.requestBodyRequired)) {
            if (writeForbidden(enabled, writes) && !b.certainlyRefused) continue;
            cases.push({ method: op.method, path, body: b.body, headers: { 'content-type': 'application/json', ...base(identity, secrets) }, label: b.label, certainlyRefused: b.certainlyRefused && enabled });
          }
          const valid = JSON.stringify(validValue(spec.doc, op.requestSchema));
          // Sent as text/plain, a valid body may be accepted even where the operation is switched off: kept conservative.
          if (!op.write || writes.allowed) cases.push({ method: op.method, path, body: valid, headers: { 'content-type': 'text/plain', ...base(identity, secrets) }, label: 'JSON sent as text/plain' });
        }
        if (!writeForbidden(enabled, writes) || op.hasRequestBody) {
          const odd = { method: op.method, path: `${path}?%zz=%%&a[b]=1`, headers: { ...base(identity, secrets), 'x-conformance-odd': 'ä\u00ff', accept: 'application/xml' }, label: 'odd query and headers' };
          if (op.hasRequestBody) Object.assign(odd, { body: '{"broken"', headers: { ...odd.headers, 'content-type': 'application/json' } });
          cases.push(odd);
        }
        const replies: Array<{ c: (typeof cases)[number]; r: Reply }> = [];
        // Sent inside the verdict of GEN-NO-5XX: bad input that gets no answer at all (a dropped connection) breaks it too.
        await verify(`${p}-GEN-NO-5XX`, async () => {
          for (const c of cases) replies.push({ c, r: await api.send(c) });
          const bad = replies.filter(({ r }) => r.status >= 500);
          if (bad.length) throw deviation(bad.map(({ c, r }) => `${c.label}: ${r.status}`).join('; '));
          if (replies.length === 0) throw new NotTested(`no bad input can be sent to ${op.key} under this profile`);
        });
        await verify(`${p}-GEN-REFUSAL-STATUS`, () => {
          if (replies.length === 0) throw new NotTested(`no answer to bad input to judge for ${op.key}`);
          // Where the spec documents a 400, a body the schema certainly refuses must get a documented 4xx
          // (another documented refusal may apply first: the documents do not order their checks).
          const documented4xx = Object.keys(op.responses).map(Number).filter((s) => s >= 400 && s < 500);
          const wrong = replies.filter(({ c, r }) => {
            if (r.status >= 500) return false; // judged by GEN-NO-5XX
            if (c.certainlyRefused && documented4xx.includes(400)) return !documented4xx.includes(r.status);
            return r.status >= 300 && r.status < 400;
          });
          if (wrong.length) throw deviation(wrong.map(({ c, r }) => `${c.label}: ${r.status}`).join('; ') + (documented4xx.includes(400) ? ` (documented: ${documented4xx.join(', ')})` : ''));
        });
      });

      if (op.security.length > 0 && has('AUTH') && hooks.credentials) {
        test(`${op.key}: refused without credentials or with wrong ones`, { tag: reqTags(`${p}-GEN-AUTH`) }, async ({ api, verify, secrets, identity }) => {
          const statuses: number[] = Object.keys(op.responses).map(Number).filter((s) => s === 401 || s === 403);
          await verify(`${p}-GEN-AUTH`, async () => {
            const valid = validRequest(spec, op, await hooks.values?.(op, { api, secrets }));
            const none = await api.send({ ...valid, headers: { ...valid.headers, ...(hooks.baseHeaders?.(identity) ?? {}) }, label: 'no credentials' });
            const wrong = await api.send({ ...valid, headers: { ...valid.headers, ...(hooks.baseHeaders?.(identity) ?? {}), ...(hooks.wrongCredentials?.(op, secrets) ?? {}) }, label: 'wrong credentials' });
            for (const [what, r] of [['without credentials', none], ['with wrong credentials', wrong]] as const) {
              const ok = statuses.length ? statuses.includes(r.status) : r.status >= 400 && r.status < 500;
              if (!ok) throw deviation(`${op.key} ${what}: status ${r.status}, expected ${statuses.length ? statuses.join(' or ') : 'a 4xx'}`);
            }
          });
        });
      }

      if (op.wrongMethod && has('WRONG-METHOD')) {
        const served = spec.operations.filter((o) => o.path === op.path).map((o) => o.method);
        // One test per path, from its first operation.
        if (spec.operations.find((o) => o.path === op.path) !== op) continue;
        test(`${op.path}: a method it does not serve gets the documented answer`, { tag: reqTags(`${p}-GEN-WRONG-METHOD`) }, async ({ api, verify, secrets, identity, profile }) => {
          const wm = op.wrongMethod!;
          const enabled = hooks.enabled?.(op, profile) ?? true;
          const acceptable = new Set([wm.status, ...(enabled ? [] : hooks.whenDisabled ?? [])]);
          await verify(`${p}-GEN-WRONG-METHOD`, async () => {
            for (const method of OTHER_METHODS.filter((m) => !served.includes(m))) {
              // With the operation's valid body, so that the method is the only thing wrong with the request.
              const valid = validRequest(spec, op, await hooks.values?.(op, { api, secrets }));
              const r = await api.send({ ...valid, method, headers: { ...valid.headers, ...base(identity, secrets) }, label: `${method} on ${op.path}` });
              if (!acceptable.has(r.status)) throw deviation(`${method} ${op.path}: status ${r.status}, documented ${wm.status}`);
              if (r.status !== wm.status) continue;
              if (wm.error && r.json?.error !== wm.error) throw deviation(`${method} ${op.path}: error ${JSON.stringify(r.json?.error)}, documented ${wm.error}`);
              if (wm.message && r.json?.message !== wm.message) throw deviation(`${method} ${op.path}: message ${JSON.stringify(r.json?.message)}, documented ${JSON.stringify(wm.message)}`);
            }
          });
        });
      }
    }
  });
}
