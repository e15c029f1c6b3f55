/**
 * The named generic checks, in one registry, as Schemathesis keeps its checks: each has a name a user can list and
 * select (`npm run conformance -- --checks list`, `--checks a,b`), the generic requirement its verdict goes to, and
 * the kind of thing it judges.
 *  - A request check sends requests of its own for every operation of an interface (one test per check per
 *    interface: harness/generic/define.ts) and judges their answers (harness/generic/request-checks.ts).
 *  - A response check judges every answer a generic request check got (harness/response-checks.ts).
 * The requirements themselves are derived from each spec (harness/spec/generic.ts): a check whose requirement a spec
 * does not have (no security scheme, no x-wrong-method) does not run for that interface.
 */
import { ENV } from '../options.ts';

export type CheckKind = 'request' | 'response';

export interface NamedCheck {
  name: string;
  /** The generic requirement its verdict goes to, without the interface's prefix ("GEN-SCHEMA"). */
  requirement: string;
  kind: CheckKind;
  /** What it holds the target to, in one line (the test's title, `--checks list`). */
  summary: string;
}

export const CHECKS = [
  { name: 'not-a-server-error', requirement: 'GEN-NO-5XX', kind: 'response', summary: 'no request gets a 5xx, bad input least of all' },
  { name: 'status-code-conformance', requirement: 'GEN-STATUS', kind: 'response', summary: 'a success has a status the spec documents for its operation' },
  { name: 'content-type-conformance', requirement: 'GEN-CONTENT-TYPE', kind: 'response', summary: 'a documented body comes with its documented content type' },
  { name: 'response-schema-conformance', requirement: 'GEN-SCHEMA', kind: 'response', summary: 'a body with a documented status is valid against its schema' },
  { name: 'response-headers-conformance', requirement: 'GEN-HEADERS', kind: 'response', summary: 'an answer carries the headers documented for its status' },
  { name: 'positive-data-acceptance', requirement: 'GEN-VALID-ACCEPTED', kind: 'request', summary: 'a valid request gets a documented success' },
  { name: 'negative-data-rejection', requirement: 'GEN-REFUSAL-STATUS', kind: 'request', summary: 'an invalid request is refused with a 4xx' },
  { name: 'missing-credential-refused', requirement: 'GEN-AUTH', kind: 'request', summary: 'an operation that needs credentials refuses a request without them' },
  { name: 'wrong-credential-refused', requirement: 'GEN-AUTH', kind: 'request', summary: 'an operation that needs credentials refuses made-up ones' },
  { name: 'other-role-refused', requirement: 'GEN-ROLE', kind: 'request', summary: "a valid credential of another role is refused where the operation is reserved to one role" },
  { name: 'unsupported-method', requirement: 'GEN-WRONG-METHOD', kind: 'request', summary: 'a method the path does not serve gets the documented answer' },
] as const satisfies readonly NamedCheck[];

export type CheckName = (typeof CHECKS)[number]['name'];
export type RequestCheckName = Extract<(typeof CHECKS)[number], { kind: 'request' }>['name'];
export type ResponseCheckName = Extract<(typeof CHECKS)[number], { kind: 'response' }>['name'];

export function checkNamed(name: CheckName): NamedCheck {
  return CHECKS.find((c) => c.name === name)!;
}

/**
 * The checks a run selects (`--checks`, passed to the workers as HARNESS_CHECKS): all of them by default. An unknown
 * name is the user's mistake, answered with the list.
 */
export function selectedChecks(value = process.env[ENV.checks]): ReadonlySet<CheckName> {
  if (!value) return new Set(CHECKS.map((c) => c.name));
  const names = value.split(',').map((s) => s.trim()).filter(Boolean);
  const unknown = names.filter((n) => !CHECKS.some((c) => c.name === n));
  if (unknown.length) throw new Error(`--checks: no check named ${unknown.join(', ')}; the checks are ${CHECKS.map((c) => c.name).join(', ')}`);
  return new Set(names as CheckName[]);
}

/** `--checks list`: the registry, one check a line, with the requirement each judges. */
export function checksListing(): string {
  const width = Math.max(...CHECKS.map((c) => c.name.length));
  return CHECKS.map((c) => `${c.name.padEnd(width)}  <prefix>-${c.requirement.padEnd(18)} ${c.kind.padEnd(8)} ${c.summary}`).join('\n');
}
