/**
 * The account's open orders are shared by every test of a run: cancel-symbol-order and countdown-cancel-all cancel all
 * of a category's (or the account's) orders, another test's included. A check that sends either, and a check whose
 * orders must stay open while it looks, holds this lease for as short a time as it can.
 */
import type { Identity } from '../../harness/fixtures.ts';
import { Inconclusive } from '../../harness/verdicts.ts';

export const OPEN_ORDERS_LEASE = 'unified-exchange-open-orders';

/**
 * Takes the lease and gives the function that releases it at once. The fixture releases a test's leases again when it
 * ends, by file name: the lease's own release is made a no-op once done, so that it never frees the lease of the test
 * that took it next.
 */
export async function takeOpenOrders(identity: Identity, what: string, waitMs = 60_000): Promise<() => void> {
  const lease = await identity.lease(OPEN_ORDERS_LEASE, [0], waitMs);
  if (!lease) throw new Inconclusive(`${what}: the account's open orders stayed in another test's hands for ${waitMs / 1000} s`);
  const release = lease.release;
  let released = false;
  lease.release = () => {
    if (!released) release();
    released = true;
  };
  return () => lease.release();
}

/** Runs `body` while holding the lease, released as soon as `body` ends. */
export async function withOpenOrders<T>(identity: Identity, what: string, body: () => Promise<T>, waitMs = 60_000): Promise<T> {
  const release = await takeOpenOrders(identity, what, waitMs);
  try {
    return await body();
  } finally {
    release();
  }
}
