import { randomInt } from 'node:crypto';

/**
 * Client identities for checks that count (rate limits): each call gives an address no other test of this run
 * uses. Addresses come from 198.18.0.0/15 (reserved for benchmarking, never a real client), split into one block
 * per parallel worker; a random start per run keeps consecutive runs against one live target apart.
 * The addresses only ever appear in headers: no traffic goes to them.
 */
const BLOCK = 8192;
const SPACE = 2 * 65536;
let counter = 0;
const start = randomInt(0, BLOCK);

export function freshAddress(parallelIndex: number): string {
  const n = ((parallelIndex % (SPACE / BLOCK)) * BLOCK + ((start + counter++) % BLOCK)) % SPACE;
  return `198.${18 + (n >> 16)}.${(n >> 8) & 255}.${n & 255}`;
}
