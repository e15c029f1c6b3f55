import type { Operation, Requirement, SecurityScheme } from './types.ts';

/**
 * The checks every spec gets, whatever its interface, in the manner of schema-driven testers:
 * each becomes a requirement of the interface so that the report gives it a verdict of its own.
 * Only those that the spec gives something to check are derived (no security scheme, no GEN-AUTH).
 */
export function genericRequirements(prefix: string, operations: Operation[], schemes: SecurityScheme[]): Requirement[] {
  const all = operations.map((op) => op.key);
  const reqs: Requirement[] = [
    {
      id: `${prefix}-GEN-NO-5XX`,
      level: 'should',
      text: 'No request gets a 5xx the spec does not document: bad input (a body that is not JSON, members of the wrong type, odd headers) is refused, and a server error anywhere, to any request, fails this requirement (never the rule the request was testing, which it leaves undecided).',
      source: 'Harness rule: a server error is a defect the document does not allow for, and never a refusal.',
      operations: all,
    },
    {
      id: `${prefix}-GEN-CONTENT-TYPE`,
      level: 'must',
      text: 'A response with a documented body carries the documented content type.',
      source: 'Spec: the media type of each documented response.',
      operations: all,
    },
    {
      id: `${prefix}-GEN-VALID-ACCEPTED`,
      level: 'must',
      text: 'A request valid by the spec, using only what every reading of the document accepts, gets a documented success (or the refusal the profile explains, such as a switched-off operation); a refusal that could rest on a point the document does not show is not tested.',
      source: 'Spec: the request schema and the success responses of each operation.',
      operations: all,
    },
    {
      id: `${prefix}-GEN-SCHEMA`,
      level: 'must',
      text: 'Every response with a documented status has a body valid against its schema.',
      source: 'Spec: the schema of each documented response.',
      operations: all,
    },
  ];
  // Only a body the schema certainly refuses, sent where the spec documents a 400, can get a wrong refusal: an
  // operation without a body has nothing this requirement could find wrong (a throttle, a redirect or a page that is
  // not the API decides nothing, and a 5xx is GEN-NO-5XX's), so it is derived only where such an operation is.
  const refusable = operations.filter((op) => op.hasRequestBody && Object.keys(op.responses).includes('400'));
  if (refusable.length > 0) {
    reqs.push({
      id: `${prefix}-GEN-REFUSAL-STATUS`,
      level: 'should',
      text: 'A body the schema certainly refuses gets a documented 4xx where the spec documents a 400. A throttle, a redirect or a page that is not the API decides nothing here, and a 5xx is GEN-NO-5XX\'s.',
      source: 'Harness rule: refusals of client mistakes are the documented 4xx.',
      operations: refusable.map((op) => op.key),
    });
  }
  // An operation that documents its successes as a range ("2XX") documents every success: only one that names its
  // success statuses can answer one it does not name.
  const namedSuccesses = operations.filter((op) => !Object.keys(op.responses).some((s) => /^2XX$/i.test(s)));
  if (namedSuccesses.length > 0) {
    reqs.push({
      id: `${prefix}-GEN-STATUS`,
      level: 'should',
      text: 'A success answering a generic check has a status the spec documents for its operation. Refusal statuses are left to GEN-REFUSAL-STATUS and GEN-AUTH (which 4xx a refusal gets is often a deployment\'s choice), a 5xx to GEN-NO-5XX; a redirect is not the API answering.',
      source: 'Spec: the documented responses of each operation. A should: the documents show the statuses of their examples, not a closed list.',
      operations: namedSuccesses.map((op) => op.key),
    });
  }
  const withHeaders = operations.filter((op) => Object.values(op.responses).some((r) => Object.keys(r.headers).length > 0));
  if (withHeaders.length > 0) {
    reqs.push({
      id: `${prefix}-GEN-HEADERS`,
      level: 'must',
      text: 'A response carries the headers the spec documents for its status.',
      source: 'Spec: the headers of each documented response.',
      operations: withHeaders.map((op) => op.key),
    });
  }
  const secured = operations.filter((op) => op.security.length > 0);
  if (secured.length > 0 && schemes.length > 0) {
    reqs.push({
      id: `${prefix}-GEN-AUTH`,
      level: 'must',
      text: 'An operation that needs credentials refuses a request without them or with wrong ones.',
      source: 'Spec: the security requirement of each operation.',
      operations: secured.map((op) => op.key),
    });
  }
  const reserved = operations.filter((op) => op.refusedRoles.length > 0);
  if (reserved.length > 0) {
    reqs.push({
      id: `${prefix}-GEN-ROLE`,
      level: 'must',
      text: 'An operation the document reserves to one role refuses a valid credential of another role (the profile names it): a user token on an admin endpoint, a key without trading permission placing an order.',
      source: 'Spec: x-refused-roles of each operation, or the security scheme that alone secures it (x-refuses-other-roles).',
      operations: reserved.map((op) => op.key),
    });
  }
  const wrongMethod = operations.filter((op) => op.wrongMethod);
  if (wrongMethod.length > 0) {
    reqs.push({
      id: `${prefix}-GEN-WRONG-METHOD`,
      level: 'must',
      text: 'A method the path does not serve gets the documented answer (x-wrong-method).',
      source: 'Spec: x-wrong-method of each path.',
      operations: wrongMethod.map((op) => op.key),
    });
  }
  return reqs.map((r) => ({ ...r, generic: true }));
}
