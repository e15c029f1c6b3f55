import type { Fault } from '../types.ts';

/**
 * The toy reference's seeded faults: each a realistic bug, and the requirements a good suite must see fail under it.
 * The self-test starts the reference with each and proves every (check, requirement) pair the suite claims.
 */
export const faults = [
  { name: 'pong-false', description: 'Answers pong false.', violates: ['T-PING-200', 'T-GEN-SCHEMA'] },
  { name: 'ping-202', description: 'Answers 202.', violates: ['T-PING-200', 'T-GEN-VALID-ACCEPTED', 'T-GEN-STATUS'] },
  { name: 'key-ignored', description: 'Serves a request without the key.', violates: ['T-GEN-AUTH'] },
  { name: 'text-plain', description: 'Labels its JSON text/plain.', violates: ['T-GEN-CONTENT-TYPE'] },
  { name: 'odd-query-500', description: 'Crashes on a malformed query string.', violates: ['T-GEN-NO-5XX'] },
  { name: 'echo-cut', description: 'Cuts a word of more than eight characters to eight: only a longer word shows it.', violates: ['T-ECHO-SAME'] },
  { name: 'word-optional', description: 'Echoes an empty word where none was given.', violates: ['T-ECHO-WORD-REQUIRED'] },
] as const satisfies readonly Fault[];

export type ToyFault = (typeof faults)[number]['name'];
