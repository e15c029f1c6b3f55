/**
 * The account's open orders are shared by every test of a run: cancel-symbol-order and countdown-cancel-all cancel all
 * of a category's (or the account's) orders, another test's included. A check that sends either, and a check whose
 * orders must stay open while it looks, holds this lease for as short a time as it can.
 */
import type { Identity } from '../../harness/fixtures.ts';
import { OPEN_ORDERS_LEASE, takeLease, withLease } from './leases.ts';

export { OPEN_ORDERS_LEASE };

export const takeOpenOrders = (identity: Identity, what: string, waitMs = 60_000): Promise<() => void> => takeLease(identity, OPEN_ORDERS_LEASE, what, waitMs);

export const withOpenOrders = <T>(identity: Identity, what: string, body: () => Promise<T>, waitMs = 60_000): Promise<T> => withLease(identity, OPEN_ORDERS_LEASE, what, body, waitMs);
