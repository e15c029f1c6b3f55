/** Heads the error a test ends with when a requirement that counts failed: the reporter tells it from a broken check. */
export const COUNTED_FAILURES = 'conformance: requirements that count failed (the evidence is in the conformance report):';
