/**
 * The amount tripwire (the reference option amountTripwire): a fund write the reference accepts must move an amount
 * the profile sets (settings.amounts), or the request is answered 500, which no check can miss. A profile with unusual
 * amounts and the tripwire on (targets/reference-unified-amounts.yaml) then passes only if every accepted transfer,
 * withdrawal, loan, repayment and copy-trading transfer sends them. Refused requests are let through: a rule's probe
 * may carry any amount (one beyond the balance, say), and a conforming target refuses it.
 *
 * A transfer may move a whole multiple of its amount: the conservation property moves 1 to 3 times it, and the
 * restore nets what is left. Earn subscriptions send a product's minimum, which the target sets, so they are not
 * watched; nor is a repayment of the whole loan (repayAll yes).
 */
import type { Outcome, Part } from '../contract.ts';
import type { UnifiedExchangeSettings } from '../../../interfaces/unified-exchange/settings.ts';

type Amounts = UnifiedExchangeSettings['amounts'];

interface Watched {
  member: string;
  amount: keyof Amounts;
  multiples?: true;
  skip?: (params: Record<string, unknown>) => boolean;
}

const WATCHED: Readonly<Record<string, Watched>> = {
  transfer: { member: 'amount', amount: 'transfer', multiples: true },
  withdraw: { member: 'size', amount: 'withdraw' },
  borrow: { member: 'loanAmount', amount: 'loan' },
  repayLoan: { member: 'amount', amount: 'repay', skip: (p) => p.repayAll === 'yes' },
  copyTransfer: { member: 'amount', amount: 'copyTransfer' },
};

/** Why the amount of an accepted request is not one the profile sets, if it is not. */
export function outsideProfile(amounts: Amounts, operationId: string, params: Record<string, unknown>): string | undefined {
  const w = WATCHED[operationId];
  if (!w || w.skip?.(params)) return undefined;
  const sent = Number(params[w.member]);
  const set = Number(amounts[w.amount]);
  const times = sent / set;
  const fits = w.multiples ? Math.abs(times - Math.round(times)) < 1e-9 && Math.round(times) >= 1 : Math.abs(sent - set) < 1e-12;
  return fits ? undefined : `${operationId} moved ${String(params[w.member])}, not ${w.multiples ? 'a whole multiple of ' : ''}settings.amounts.${w.amount} (${String(amounts[w.amount])})`;
}

/** Wraps the watched operations of the funds part: an accepted one whose amount is not the profile's throws (answered 500). */
export function withAmountTripwire(part: Part, amounts: Amounts): Part {
  const operations = { ...part.operations };
  for (const operationId of Object.keys(WATCHED)) {
    const handler = operations[operationId];
    if (!handler) continue;
    operations[operationId] = async (req): Promise<Outcome> => {
      const outcome = await handler(req);
      const why = outcome.ok ? outsideProfile(amounts, operationId, req.params) : undefined;
      if (why) throw new Error(`amount tripwire: ${why}`);
      return outcome;
    };
  }
  return { ...part, operations };
}
