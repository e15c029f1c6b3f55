import type { RequestSpec } from './request-spec.ts';

/**
 * Adds a credential header unless the check gave that header itself, in any letter case: a check that sends a made-up
 * credential, or none (the header given as undefined, which leaves it out), gets exactly that, while the rest of the
 * authentication step (a nonce, a signature) still applies. Every interface's authentication step follows this rule.
 */
export function withHeaderUnlessGiven(request: RequestSpec, name: string, value: string): RequestSpec {
  const given = request.headers ?? {};
  if (Object.keys(given).some((h) => h.toLowerCase() === name.toLowerCase())) return request;
  return { ...request, headers: { [name]: value, ...given } };
}
