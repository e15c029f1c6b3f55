import type { Authenticate, Reply, RequestSpec } from './http/client.ts';
import { clientFor } from './http/client-for.ts';
import type { Profile, RunProfile } from './profile/types.ts';
import type { Secrets } from './secrets.ts';
import { answerKind, isAccepted } from './answers.ts';
import { PROBE_BLOCK, freshAddress } from './identity.ts';
import type { InterfaceName } from '../interfaces/registry.ts';
import { credentialVariables, mountedUrl, secretsFor } from './targets.ts';
import type { LoadedSpec } from './spec/types.ts';
import { specForTarget } from './spec/for-target.ts';
import { matchOperation } from './spec/load.ts';

/** What a probe needs to build its request: the profile, the interface's settings, its secrets, a fresh client address. */
export interface ProbeContext {
  profile: RunProfile;
  settings: any;
  secrets: Secrets;
  /** credential name -> the environment variable the profile reads it from (named in messages, never the value). */
  credentialEnv: Record<string, string>;
  /** The profile's credentials entry of the interface, as written (a pool of keys, with what each key may do). */
  credentials?: unknown;
  address(): string;
}

/**
 * A harmless documented request of one interface and its judgement: undefined when the answer is the API answering
 * normally, else the cause in one line (a login page, a redirect, a refused credential). It is the start-up probe of a
 * live target and, during the run, the question "does the target still answer?" after a request got no answer.
 */
export interface Probe {
  request: RequestSpec;
  judge(reply: Reply): string | undefined;
  /**
   * One harmless documented request per further credential the profile names (each key of a pool, a user token):
   * tried before any check runs, so that a wrong value ends the run naming it, instead of a verdict blaming the target.
   */
  credentials?: Array<{ request: RequestSpec; judge(reply: Reply): string | undefined }>;
}

/**
 * What no documented answer of any interface looks like: a redirect (to a login page, say), an HTML page, a missing
 * path (a wrong base URL or path prefix), a server error to a harmless request, or a body that is not JSON, unless
 * the document leaves the body of a success open (`successBodyOpen`: a chat reply streamed as text/event-stream).
 */
export function notTheApi(reply: Reply, what: string, o: { successBodyOpen?: boolean } = {}): string | undefined {
  const ct = (reply.headers['content-type'] ?? '').toLowerCase();
  if (answerKind(reply) === 'throttled') {
    const after = reply.headers['retry-after'];
    return `${what} was throttled (429${after ? `, Retry-After ${after}` : ''}), again after waiting as asked: a gateway or the target limits the harness's requests before any check ran (lower requestsPerSecond, or have the harness's address allowed more)`;
  }
  if (ct.includes('text/html') || /^\s*<(!doctype|html)/i.test(reply.text)) {
    return `${what} was answered ${reply.status} with an HTML page (${ct || 'no content type'}), not the API: a login page, a proxy's error page or a wrong base URL`;
  }
  if (answerKind(reply) === 'not-the-api') {
    return `${what} was answered ${reply.status} with a redirect to ${reply.headers.location ?? '(no Location)'}: a login page or a wrong base URL is in front of the API`;
  }
  if (reply.status === 404) return `${what} was answered 404: the path is not there (is the base URL, with its path prefix, right?)`;
  if (answerKind(reply) === 'server-error') return `${what} was answered ${reply.status}: the target is not healthy enough to be judged`;
  const openSuccess = o.successBodyOpen && isAccepted(reply);
  if (!openSuccess && reply.text.trim() !== '' && reply.json === undefined && !ct.includes('json')) {
    return `${what} was answered ${reply.status} with a body that is not JSON (${ct || 'no content type'}): not the API`;
  }
  // What only the API gives: a success whose body or headers miss what the spec documents for it (a catch-all
  // answering 200 {} to everything, another service at this address) is not the API, or not one the harness can judge.
  const shape = [...(reply.exchange?.problems?.schema ?? []), ...(reply.exchange?.problems?.headers ?? [])];
  if (isAccepted(reply) && shape.length > 0) {
    return `${what} was answered ${reply.status} without what the spec documents for it (${shape[0]}${shape.length > 1 ? `; and ${shape.length - 1} more` : ''}): a catch-all or another service answers here, not the API`;
  }
  return undefined;
}

/** What a run needs to probe one target of its profile: the suite's probe and authentication step. */
export interface ProbeTarget {
  profile: Profile;
  name: InterfaceName;
  probe: (ctx: ProbeContext) => Probe;
  authenticate: Authenticate | undefined;
}

/**
 * Probes one live target before any check: its harmless documented request and one per further credential, then
 * whether a catch-all answers here (a nonsense path and a method the path does not serve, both accepted). Undefined
 * when the API answers normally, else the cause in one line. The caller closes the client's connections
 * (closeAgents) once it has probed what it probes: other probes may share them meanwhile.
 */
export async function probeTarget(t: ProbeTarget): Promise<string | undefined> {
  const entry = t.profile.interfaces[t.name]!;
  const secrets = secretsFor(t.profile, t.name);
  const probe = t.probe({ profile: t.profile, settings: entry.settings, secrets, credentialEnv: credentialVariables(t.name, entry.credentials), credentials: entry.credentials, address: () => freshAddress(PROBE_BLOCK) });
  const spec = specForTarget(t.name, entry.settings);
  const client = clientFor({ profile: t.profile, interfaceName: t.name, baseUrl: mountedUrl(t.name, entry.baseUrl!, entry.settings), secrets, authenticate: t.authenticate, purpose: 'probe', live: true, spec });
  try {
    for (const p of [probe, ...(probe.credentials ?? [])]) {
      const problem = p.judge(await client.send(p.request));
      if (problem) return secrets.redact(problem);
    }
    return secrets.redact((await catchAll(client, probe.request, spec, Boolean(t.profile.writes))) ?? '') || undefined;
  } catch (e) {
    return secrets.redact((e as Error).message);
  }
}

/**
 * A catch-all (a stub answering 200 to every method and path, another service at this address) is not the API: a
 * nonsense path beside the probe's, and a method the probe's path does not serve, must not both be accepted. The
 * method is sent only where it cannot write: GET, or, where the profile allows writes, the first other method.
 */
async function catchAll(client: { send(r: RequestSpec): Promise<Reply> }, request: RequestSpec, spec: LoadedSpec, writes: boolean): Promise<string | undefined> {
  const path = request.path.split('?')[0]!;
  const nonsense = `${path.replace(/\/+$/, '')}/conformance-no-such-path-${Date.now().toString(36)}`;
  const lost = await client.send({ method: 'GET', path: nonsense, authenticate: request.authenticate, credential: request.credential, label: 'probe: a path that does not exist' });
  if (!isAccepted(lost)) return undefined;
  const unserved = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH'].filter((m) => !matchOperation(spec, m, path).op);
  const method = unserved.includes('GET') ? 'GET' : writes ? unserved[0] : undefined;
  if (method) {
    const wrong = await client.send({ ...request, method, label: `probe: ${method}, which the path does not serve` });
    if (!isAccepted(wrong)) return undefined;
    return `a catch-all answers here, not the API: GET ${nonsense} was answered ${lost.status}, and ${method} ${path}, which the API does not serve, ${wrong.status}`;
  }
  // No method can be sent: a nonsense path answered exactly as the probe's own is a catch-all all the same.
  const same = await client.send({ ...request, label: 'probe: again, to compare' });
  return same.status === lost.status && same.text === lost.text ? `a catch-all answers here, not the API: GET ${nonsense} was answered ${lost.status}, exactly as ${request.method} ${path}` : undefined;
}
