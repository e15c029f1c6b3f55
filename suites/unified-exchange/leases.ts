/**
 * What a unified-exchange account shares between the tests of a run, each held by one test at a time through a lease
 * (a file created exclusively, whichever worker asks: harness/identity.ts):
 * - the open orders: cancel-symbol-order and countdown-cancel-all cancel every open order of a category (or of the
 *   account), another test's included;
 * - the broker key's second: its requests are counted together (20 per UID), and one check fills a second on purpose;
 * - the trading account's balances: a check that compares balances before and after its own moves (the conservation
 *   property) must not see another check's transfer in between, so every check that moves the account's funds holds
 *   this lease while it does.
 */
import type { Identity } from '../../harness/fixtures.ts';
import { Inconclusive } from '../../harness/verdicts.ts';

export const OPEN_ORDERS_LEASE = 'unified-exchange-open-orders';
export const BROKER_RATE_LEASE = 'unified-exchange-broker-rate';
export const FUNDS_LEASE = 'unified-exchange-funds';

const HELD: Record<string, string> = {
  [OPEN_ORDERS_LEASE]: "the account's open orders",
  [BROKER_RATE_LEASE]: "the broker key's requests",
  [FUNDS_LEASE]: "the trading account's balances",
};

/**
 * Takes a lease and gives the function that releases it at once. The fixture releases a test's leases again when it
 * ends, by file name: the release given is a no-op once done, so that it never frees the lease of the test that took
 * it next.
 */
export async function takeLease(identity: Identity, kind: string, what: string, waitMs = 60_000): Promise<() => void> {
  const lease = await identity.lease(kind, [0], waitMs);
  if (!lease) throw new Inconclusive(`${what}: ${HELD[kind] ?? kind} stayed in another test's hands for ${waitMs / 1000} s`);
  const release = lease.release;
  let released = false;
  lease.release = () => {
    if (!released) release();
    released = true;
  };
  return () => lease.release();
}

/** Runs `body` while holding a lease, released as soon as `body` ends. */
export async function withLease<T>(identity: Identity, kind: string, what: string, body: () => Promise<T>, waitMs = 60_000): Promise<T> {
  const release = await takeLease(identity, kind, what, waitMs);
  try {
    return await body();
  } finally {
    release();
  }
}
