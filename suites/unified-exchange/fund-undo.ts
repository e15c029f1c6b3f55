/**
 * Undoing the earn subscriptions and the loans a run makes (issue 24): a subscription is redeemed (fast, to the
 * unified account), a loan repaid in full with the borrowed coin. Each is announced to the write journal before it is
 * made and completed with its orderId once the target acknowledges it, so that `npm run restore` undoes what an
 * interrupted run left; a check that undoes it itself (the redemption or repayment it judges) says so, and the end of
 * the test then finds nothing to do. Advertisements cannot be undone: the document has no operation that withdraws one.
 */
import { isAccepted } from '../../harness/answers.ts';
import type { Client } from '../../harness/http/client.ts';
import type { WriteJournal } from '../../harness/writes.ts';
import { redemptionIds } from './fund-requests.ts';

const REDEEM = '/api/v3/earn/elite-redeem';
const REDEEM_INFO = '/api/v3/earn/elite-redeem-info';
const REPAY = '/api/v3/loan/repay';

export interface EarnUndo {
  kind: 'earn-subscription';
  credential: string;
  productId: string;
  productSubId: string;
  amount: string;
  /** What a redemption names, where the profile states it (U-NS-EARN-PRODUCTS); else the redemption information decides. */
  flat?: boolean;
  /** Once acknowledged. */
  orderId?: string;
  /** Set once the check has undone it itself: nothing is left for `npm run restore`. */
  undone?: boolean;
}

export interface LoanUndo {
  kind: 'loan';
  credential: string;
  /** Once acknowledged. */
  orderId?: string;
  undone?: boolean;
}

/** Redeems a subscription in full: whether a redemption was accepted. */
export async function redeemSubscription(client: Client, u: EarnUndo, label: string): Promise<boolean> {
  if (!u.orderId) return false;
  let info: unknown;
  if (u.flat === undefined) {
    const r = await client.send({ method: 'GET', path: `${REDEEM_INFO}?productId=${encodeURIComponent(u.productId)}`, authenticate: true, credential: u.credential, label: `${label}: the redemption information of product ${u.productId}` });
    info = isAccepted(r) ? (r.json as { data?: unknown } | undefined)?.data : undefined;
  }
  for (const productSubId of redemptionIds(u.productSubId, u.orderId, u.flat, info)) {
    const json = { productId: u.productId, productSubId, redeemType: 'fast', amount: u.amount, receiveAccount: 'unified' };
    const r = await client.send({ method: 'POST', path: REDEEM, json, authenticate: true, credential: u.credential, label: `${label}: redeem the ${u.amount} subscribed (${u.orderId})` });
    if (isAccepted(r)) return true;
  }
  return false;
}

/** For `npm run restore`: what an interrupted run left of a subscription or a loan. */
export async function restoreSubscriptionOrLoan(u: EarnUndo | LoanUndo, client: Client): Promise<'restored' | 'nothing' | { conflict: string }> {
  if (!u.orderId || u.undone) return 'nothing';
  const ok = u.kind === 'loan' ? await repayInFull(client, u, 'restore') : await redeemSubscription(client, u, 'restore');
  if (ok) return 'restored';
  return { conflict: u.kind === 'loan' ? `loan ${u.orderId} could not be repaid in full` : `earn subscription ${u.orderId} could not be redeemed` };
}

/** Repays a loan in full with the borrowed coin: whether the repayment was accepted. */
export async function repayInFull(client: Client, u: LoanUndo, label: string): Promise<boolean> {
  if (!u.orderId) return false;
  const r = await client.send({ method: 'POST', path: REPAY, json: { orderId: u.orderId, method: 'borrowed_coin', repayAll: 'yes' }, authenticate: true, credential: u.credential, label: `${label}: repay loan ${u.orderId} in full` });
  return isAccepted(r);
}

/** What a check tells the journal of a write it announced: the orderId acknowledged, and that it undid the write itself. */
export interface Announced {
  made(orderId: string): void;
  undone(): void;
  /**
   * Undoes it now, if it was made and not yet undone. A check that holds the funds lease undoes its writes before it
   * lets go: the end of the test comes after, when another check may be comparing balances.
   */
  undoNow(label: string): Promise<void>;
}

/**
 * Announces a subscription or a loan before it is sent; the end of the test undoes it unless the check has (`undone`).
 * `operation` is the write's spec key, which the report pairs with the undo.
 */
export function announce(writes: WriteJournal, client: Client, operation: string, undo: EarnUndo | LoanUndo, what: string): Announced {
  let orderId: string | undefined;
  let done = false;
  const attempt = (label: string) => {
    const u = { ...undo, orderId };
    return undo.kind === 'loan' ? repayInFull(client, u as LoanUndo, label) : redeemSubscription(client, u as EarnUndo, label);
  };
  const more = writes.intend(operation, what, undo, async () => {
    if (!orderId || done) return 'nothing';
    if (!(await attempt('undo'))) throw new Error(`${what} (${orderId}) could not be undone`);
    return 'undone';
  });
  const announced: Announced = {
    made(id) {
      orderId = id;
      more({ orderId: id });
    },
    undone() {
      done = true;
      more({ undone: true });
    },
    async undoNow(label) {
      if (orderId && !done && (await attempt(label))) announced.undone();
    },
  };
  return announced;
}
