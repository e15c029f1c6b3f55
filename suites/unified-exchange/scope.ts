/**
 * What a unified-exchange profile lets the suite judge, and why the rest is not applicable: the keys it names (read,
 * copy, broker, peer), whether it allows writes, whether the accounts are funded, and which fund-moving writes it
 * names (settings.fundWrites). `--list` (interface.ts) and the checks decide from here, so the two never disagree.
 */
import type { KeyRole, UnifiedExchangeSettings } from '../../interfaces/unified-exchange/settings.ts';
import type { RequirementId } from '../../generated/unified-exchange.ts';
import { loadSpec } from '../../harness/spec/load.ts';
import { FUND_WRITES, type FundWrite } from './requests.ts';

export interface UxScope {
  operations: Record<string, string>;
  requirements: Partial<Record<RequirementId, string>>;
}

/** Requirements that need an order of the trading key placed (and so writes, and funds to back the order). */
export const NEEDS_ORDERS: RequirementId[] = [
  'U-AUTH-TRADE', 'U-AUTH-PERMISSION-NO-EFFECT', 'U-ORDER-ACK', 'U-ORDER-CATEGORIES', 'U-ORDER-MARKET', 'U-ORDER-TIF-DEFAULT', 'U-TIF-GTC', 'U-TIF-IOC',
  'U-TIF-FOK', 'U-TIF-POST-ONLY', 'U-TIF-POST-ONLY-MAKER', 'U-ORDER-MARGINMODE-DEFAULT', 'U-ORDER-CLIENTOID-TRACK', 'U-ORDER-CLIENTOID-IDEMPOTENT',
  'U-ORDER-STP-CANCEL-TAKER', 'U-ORDER-STP-CANCEL-MAKER', 'U-ORDER-STP-CANCEL-BOTH', 'U-ORDER-TPSL', 'U-ORDER-STATUS-LIVE', 'U-ORDER-STATUS-CLOSED',
  'U-ORDER-LOOKUP', 'U-ORDER-LOOKUP-OTHER-ACCOUNT', 'U-CANCEL-BY-ORDERID', 'U-CANCEL-BY-CLIENTOID', 'U-CANCEL-OTHER-ACCOUNT', 'U-CANCEL-SYMBOL',
  'U-CANCEL-CATEGORY', 'U-MODIFY-APPLIED', 'U-CANCEL-BATCH', 'U-COUNTDOWN-EXPIRY', 'U-COUNTDOWN-REFRESH', 'U-COUNTDOWN-DISARM', 'U-STRATEGY-CANCEL',
];
const NEEDS_COPY: RequirementId[] = ['U-AUTH-COPY', 'U-COPY-PAIRS', 'U-COPY-MAX', 'U-COPY-MAX-REQUIRED', 'U-COPY-TRANSFER', 'U-COPY-TRANSFER-REQUIRED', 'U-COPY-TRANSFER-MAX'];
const NEEDS_BROKER: RequirementId[] = ['U-AUTH-BROKER', 'U-BROKER-CREATE', 'U-BROKER-CREATE-REQUIRED', 'U-BROKER-LIST', 'U-BROKER-LIST-STATUS', 'U-BROKER-LISTED', 'U-LIMIT-BROKER-RATE', 'U-LIMIT-BROKER-RATE-ALLOWED'];
const NEEDS_PEER: RequirementId[] = ['U-ORDER-LOOKUP-OTHER-ACCOUNT', 'U-CANCEL-OTHER-ACCOUNT'];
/** Per fund-moving write (operation id, x-moves-funds), the requirements whose checks need it accepted. */
const FUND_WRITE_REQUIREMENTS: Partial<Record<FundWrite, RequirementId[]>> = {
  transfer: ['U-TRANSFER', 'U-TRANSFER-BALANCE', 'U-TRANSFER-SAME-TYPE', 'U-FUNDS-CONSERVED'],
  withdraw: ['U-WITHDRAW', 'U-WITHDRAW-IDEMPOTENT', 'U-WITHDRAW-RECORDED'],
  createSubAccount: ['U-SUB-CREATE', 'U-SUB-LISTED'],
  repayLiabilities: ['U-ACCT-REPAY'],
  copyTransfer: ['U-COPY-TRANSFER', 'U-COPY-TRANSFER-MAX'],
  subscribeEarn: ['U-EARN-SUBSCRIBE', 'U-EARN-SUBSCRIBE-ORDERID', 'U-EARN-SUBSCRIBE-MIN', 'U-EARN-REDEEM', 'U-EARN-REDEEM-HELD'],
  redeemEarn: ['U-EARN-REDEEM', 'U-EARN-REDEEM-HELD'],
  borrow: ['U-LOAN-BORROW', 'U-LOAN-ONGOING-LISTED', 'U-LOAN-REPAY', 'U-LOAN-REPAY-ALL'],
  repayLoan: ['U-LOAN-REPAY', 'U-LOAN-REPAY-ALL'],
  createP2pAd: ['U-P2P-CREATE'],
  createBrokerSubAccount: ['U-BROKER-CREATE', 'U-BROKER-LISTED'],
  adjustAccountMode: [],
};

/** The roles a profile's credentials name (against the reference, each named role's key is generated if unset). */
export function namedRoles(credentials: unknown): KeyRole[] {
  return Object.keys((credentials as Record<string, unknown> | undefined) ?? {}) as KeyRole[];
}

const NO_TRADE_KEY = 'the profile names no trading key (credentials.trade), only a read-only one';

/**
 * A profile whose only main key is read-only (credentials.read without credentials.trade): no order is placed and no
 * write is sent as a valid request, so the operations that write, or that the document refuses to a read-only key
 * (x-refused-roles: readKey), have no valid request, and the requirements judged on them alone are not applicable;
 * the reads are judged as usual.
 */
function readKeyOnly(na: (ids: RequirementId[], why: string) => void, operations: Record<string, string>): void {
  na(NEEDS_ORDERS, `${NO_TRADE_KEY}: no order is placed`);
  const spec = loadSpec('unified-exchange');
  const out = new Set(spec.operations.filter((op) => op.write || op.refusedRoles.includes('readKey')).map((op) => op.key));
  for (const key of out) operations[key] ??= `${NO_TRADE_KEY}: the operation writes, or the document refuses it to a read-only key`;
  const onThemAlone = spec.requirements.filter((r) => !r.generic && (r.operations ?? []).length > 0 && r.operations!.every((k) => out.has(k)));
  na(onThemAlone.map((r) => r.id as RequirementId), `${NO_TRADE_KEY}, and the requirement is judged on writes or on operations the document refuses to a read-only key`);
  // Judged on reads, but beside orders of the trading key: an unknown order's lookup in the lifecycle test, whose
  // control is the account's own order; reduceOnly's, whose control is the same order without it.
  na(['U-ORDER-LOOKUP-UNKNOWN', 'U-ORDER-REDUCEONLY'], `${NO_TRADE_KEY}: no order is placed`);
}

export function uxScope(s: UnifiedExchangeSettings, o: { writes: boolean; roles: readonly string[] }): UxScope {
  const operations: Record<string, string> = {};
  const requirements: UxScope['requirements'] = {};
  const na = (ids: RequirementId[], why: string) => ids.forEach((id) => (requirements[id] ??= why));
  if (!o.roles.includes('read')) na(['U-AUTH-TRADE'], 'the profile names no key without trading permission (credentials.read)');
  if (!o.roles.includes('copy')) na(NEEDS_COPY, 'the profile names no key with futures copy-trading permission (credentials.copy)');
  if (!o.roles.includes('broker')) na(NEEDS_BROKER, 'the profile names no key of a broker master account (credentials.broker)');
  if (!o.roles.includes('peer')) na(NEEDS_PEER, "the profile names no trading key of a second account (credentials.peer)");
  // No role of the profile's can be a sub-account's key, or a second broker's, or a copy key of an account that is no lead trader.
  if (!o.roles.includes('sub') || !o.roles.includes('broker')) na(['U-AUTH-BROKER-SUB'], 'the profile names no key of a sub-account (credentials.sub) beside a broker master account\'s (credentials.broker)');
  na(['U-LIMIT-BROKER-RATE-PER-UID'], 'the profile names one broker master account; the per-UID limit needs two');
  na(['U-COPY-LEAD-TRADER'], 'the profile names no copy-trading key of an account that is not a lead trader (U-NS-LEAD-TRADER)');
  if (!o.roles.includes('trade')) readKeyOnly(na, operations);
  if (!o.writes) {
    na(NEEDS_ORDERS, 'the profile does not allow writes: no order is placed, and these checks need orders of their own');
  } else if (!s.funded) {
    na(NEEDS_ORDERS, 'the profile says the accounts hold no funds (settings.funded false): an order would be refused for its balance');
  }
  for (const operationId of Object.keys(FUND_WRITES) as FundWrite[]) {
    const ids = FUND_WRITE_REQUIREMENTS[operationId] ?? [];
    const allowed = o.writes && s.funded && s.fundWrites.includes(operationId) && o.roles.includes('trade');
    if (allowed) continue;
    const why = !o.roles.includes('trade')
      ? NO_TRADE_KEY
      : !o.writes
      ? 'the profile does not allow writes'
      : !s.funded
        ? 'the profile says the accounts hold no funds (settings.funded false)'
        : `the profile does not name ${operationId} in settings.fundWrites (it moves funds or creates accounts)`;
    operations[FUND_WRITES[operationId]] = s.fundWrites.includes(operationId) ? `${why}; only requests that must be refused are sent to it` : `${why}; no request is sent to it`;
    na(ids, why);
  }
  return { operations, requirements };
}
