/**
 * The generic response checks (GEN-SCHEMA, GEN-CONTENT-TYPE, GEN-HEADERS), judged from every exchange of a test once it
 * ends: each response was validated against the spec when it arrived.
 */
import type { Recorder } from './recorder.ts';
import type { LoadedSpec } from './spec/types.ts';
import { selectedChecks } from './generic/checks.ts';
import { documents } from './spec/statuses.ts';
import { statusKind } from './answers.ts';
import type { Exchange } from './http/exchange.ts';

/** Why a pass is withheld: the answers it would rest on are some, and the trouble may have hidden the rest. */
function unearned(trouble: Exchange[]): string {
  const shown = trouble.slice(0, 3).map((ex) => `${ex.operation ?? ex.request.method} (${ex.response ? ex.response.status : (ex.error ?? 'no answer')})`);
  // A request the operation never answered again in the test is the outage's, and named so: the report's reader
  // tells a target gone dark from a throttle by this line alone.
  const silent = trouble.some((ex) => !ex.response);
  return `${trouble.length} request(s) of this test met the environment's trouble${silent ? ' (an outage: a request got no answer, and its operation none after it)' : ''} (${shown.join('; ')}${trouble.length > 3 ? '; …' : ''}): a pass on the others would rest on answers it did not get`;
}

/**
 * Whether an exchange's answer is the API's to be held to the spec: an acceptance or a refusal, or any status the spec
 * documents for the operation (chat's 429, whose body and headers are its document's subject). A throttle, a server
 * error, a redirect or no answer is otherwise the environment's, and no response check judges it.
 */
function judgeable(spec: LoadedSpec, ex: Exchange): boolean {
  // A documented status the suite told apart as its environment's (a gateway's 429 in front of chat) is not the API's.
  if (!ex.response || ex.environment) return false;
  const kind = statusKind(ex.response.status);
  if (kind === 'accepted' || kind === 'refused') return true;
  const op = spec.operations.find((o) => o.key === ex.operation);
  return Boolean(op && Object.keys(op.responses).includes(String(ex.response.status)));
}

/**
 * The exchanges of a test that met the environment's trouble: an answer no response check judges (a throttle, a
 * server error, a redirect), or no answer where the operation did not answer the test again afterwards. A request
 * that got no answer while the same operation went on answering is the target's deviation, judged as such by its
 * check (harness/classify.ts), not trouble that hid anything.
 */
export function troubled(spec: LoadedSpec, recorder: Recorder): Exchange[] {
  const all = recorder.exchanges;
  return all.filter((ex, i) => {
    if (ex.response) return !judgeable(spec, ex) && !ex.waitedOut;
    return !all.slice(i + 1).some((later) => later.operation === ex.operation && later.response && judgeable(spec, later));
  });
}

/**
 * Every response was validated against the spec when it arrived. A problem fails the generic requirement it belongs
 * to wherever it shows; a test tagged with a generic requirement records its pass only when a response it sent could
 * be held to that check (a documented status with a schema, a media type, headers), and none of its requests met the
 * environment's trouble, which may have hidden the answer that breaks it.
 */
export function recordGenericResponseChecks(spec: LoadedSpec, recorder: Recorder, tags: string[]): void {
  const selected = selectedChecks();
  recordServerErrors(spec, recorder, selected);
  const kinds = [
    ['SCHEMA', 'schema', 'response-schema-conformance'],
    ['CONTENT-TYPE', 'contentType', 'content-type-conformance'],
    ['HEADERS', 'headers', 'response-headers-conformance'],
  ] as const;
  for (const [suffix, key, check] of kinds) {
    const id = `${spec.prefix}-GEN-${suffix}`;
    if (!spec.requirements.some((r) => r.id === id) || !selected.has(check)) continue;
    const bad = recorder.exchanges.filter((ex) => ex.problems?.[key].length && judgeable(spec, ex));
    if (bad.length > 0) {
      recorder.fail([id], bad.flatMap((ex) => ex.problems![key]).slice(0, 5).join('\n'), bad);
    } else if (tags.includes(`@${id}`) && !recorder.judged(id)) {
      const trouble = troubled(spec, recorder);
      if (recorder.exchanges.some((ex) => ex.checked?.[key] && judgeable(spec, ex))) {
        if (trouble.length) recorder.record(id, 'inconclusive', unearned(trouble));
        else recorder.record(id, 'passed');
      } else recorder.record(id, 'not-tested', `no response of this test had a documented status whose ${key === 'contentType' ? 'media type' : key} the spec gives`);
    }
  }
}

/**
 * not-a-server-error (GEN-NO-5XX), wherever a 5xx shows: a server error is never a refusal and never a verdict on the
 * rule a check was on (harness/answers.ts leaves that rule inconclusive); it is this requirement's failure, in one
 * place, whatever test met it. A 5xx the spec documents for the operation (a server shutting down) is the target
 * saying it is unavailable, not a defect: left to the checks that meet it.
 */
function recordServerErrors(spec: LoadedSpec, recorder: Recorder, selected: ReadonlySet<string>): void {
  const id = `${spec.prefix}-GEN-NO-5XX`;
  if (!selected.has('not-a-server-error') || !spec.requirements.some((r) => r.id === id)) return;
  if (recorder.verdicts.some((v) => v.id === id && v.status === 'failed')) return;
  const bad = recorder.exchanges.filter((ex) => {
    const status = ex.response?.status ?? 0;
    if (statusKind(status) !== 'server-error') return false;
    // 501 to a method no operation has (a method in another letter case): RFC 9110's refusal of a method the server
    // does not recognise, not a server fault (answers.ts, methodNotImplemented).
    if (status === 501 && !spec.operations.some((o) => o.method === ex.request.method)) return false;
    const op = spec.operations.find((o) => o.key === ex.operation);
    return !op || !Object.keys(op.responses).includes(String(status));
  });
  if (bad.length === 0) return;
  const shown = bad.slice(0, 5).map((ex) => `${ex.operation ?? `${ex.request.method} ${ex.requestPath ?? ex.request.url}`} (${ex.label ?? 'a request'}) was answered ${ex.response!.status}`);
  recorder.fail([id], `${shown.join('\n')}${bad.length > 5 ? `\nand ${bad.length - 5} more` : ''}`, bad, { expected: 'an answer of the API: an acceptance or a 4xx refusal, never a 5xx' });
}

/**
 * status-code-conformance (GEN-STATUS), judged on the answers of the tests that claim it (the generic checks' valid
 * requests): each success is one the spec documents for the operation. Refusals are judged by the checks
 * that provoke them, and a 5xx belongs to GEN-NO-5XX and GEN-VALID-ACCEPTED.
 */
export function recordStatusConformance(spec: LoadedSpec, recorder: Recorder, tags: string[]): void {
  const id = `${spec.prefix}-GEN-STATUS`;
  if (!tags.includes(`@${id}`) || recorder.judged(id)) return;
  // Successes and redirects: which 4xx a refusal gets is often the deployment's choice, and a 5xx is judged elsewhere.
  // Successes: which 4xx a refusal gets is often the deployment's choice, a 5xx is GEN-NO-5XX's, and a redirect is not
  // the API answering.
  const judged = recorder.exchanges.filter((ex) => ex.response && ex.operation && statusKind(ex.response.status) === 'accepted');
  const undocumented = judged.filter((ex) => {
    const op = spec.operations.find((o) => o.key === ex.operation);
    return op && !documents(op, ex.response!.status);
  });
  if (undocumented.length > 0) {
    const what = undocumented.slice(0, 5).map((ex) => {
      const op = spec.operations.find((o) => o.key === ex.operation)!;
      return `${ex.operation} answered ${ex.response!.status} (documented: ${Object.keys(op.responses).join(', ')})`;
    });
    recorder.fail([id], what.join('\n'), undocumented);
  } else if (judged.length > 0 && troubled(spec, recorder).length) recorder.record(id, 'inconclusive', unearned(troubled(spec, recorder)));
  else if (judged.length > 0) recorder.record(id, 'passed');
  else recorder.record(id, 'not-tested', 'no answer of this test had a status to judge');
}
