import type { Reply, RequestSpec } from './http/client.ts';
import type { RunProfile } from './profile/types.ts';
import type { Secrets } from './secrets.ts';
import { answerKind, isAccepted } from './answers.ts';

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
  if (answerKind(reply) === 'not-the-api') {
    return `${what} was answered ${reply.status} with a redirect to ${reply.headers.location ?? '(no Location)'}: a login page or a wrong base URL is in front of the API`;
  }
  if (ct.includes('text/html') || /^\s*<(!doctype|html)/i.test(reply.text)) {
    return `${what} was answered ${reply.status} with an HTML page (${ct || 'no content type'}), not the API: a login page, a proxy's error page or a wrong base URL`;
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
