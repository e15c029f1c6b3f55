/**
 * Withdrawals, deposit addresses and the deposit and withdrawal records. Open points:
 * - U-NS-WITHDRAW-ADDRESS: uid-or-chain-address, an internal transfer names the target by uid and an on-chain address
 *   must be well formed for its chain; or address-book-only, on-chain withdrawals go only to the account's address book
 *   (settings.withdraw.address) and an internal transfer names the target by uid, email or mobile;
 * - U-NS-DEPOSIT-ADDRESS-SIZE: single-address, size ignored, or address-list, data an array of `size` addresses;
 * - U-NS-CLIENTOID-REPEAT (trading's point; withdrawals follow it): a repeated clientOid is refused, or answered with
 *   the first withdrawal's orderId; it never withdraws twice;
 * - U-NS-TIME-RANGE, U-NS-REVERSED-RANGE, U-NS-LIST-SHAPE, U-NS-RECORD-MEMBERS for the records.
 * Withdrawals are paid from the funding account (U-NS-FUNDING-ACCOUNT: spot, or p2p) and settle at once.
 */
import { accepted, refused, type Caller, type Outcome, type PartOptions } from '../contract.ts';
import { listData } from '../market/lists.ts';
import { dec, decimal, given, text, unit, whole } from '../market/params.ts';
import { isCoin } from '../market/symbols.ts';
import { first, missing, outside } from './check.ts';
import { isRefusal, timeRange } from './paging.ts';
import { balanceOf, fundingType, post, type FundsStore, type Withdrawal } from './state.ts';

/** The chains of each coin, the first its default; the networks that need a memo (tag). */
export const CHAINS: Readonly<Record<string, readonly string[]>> = { USDT: ['TRC20', 'ERC20'], USDC: ['ERC20'], ETH: ['ERC20'], BTC: ['BTC'] };
const MEMO_CHAINS = ['XRP', 'EOS', 'TON'];
/** The address of the account's address book in the address-book reading, unless the profile names another. */
export const BOOK_ADDRESS = 'TConformanceWithdrawAddress1234567';

const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const WELL_FORMED: Readonly<Record<string, RegExp>> = {
  TRC20: /^T[1-9A-HJ-NP-Za-km-z]{33}$/,
  ERC20: /^0x[0-9a-fA-F]{40}$/,
  BTC: /^(bc1[02-9ac-hj-np-z]{11,71}|[13][1-9A-HJ-NP-Za-km-z]{25,34})$/,
};

const publicMembers = (options: PartOptions) => options.reading('U-NS-RECORD-MEMBERS') !== 'documented-only';

/** U-NS-CLIENTOID-REPEAT belongs to trading's catalogue; read it where it is listed, its first reading otherwise. */
function clientOidReading(options: PartOptions): string {
  try {
    return options.reading('U-NS-CLIENTOID-REPEAT') ?? 'refused-duplicate';
  } catch {
    return 'refused-duplicate';
  }
}

export function withdraw(options: PartOptions, store: FundsStore, caller: Caller, params: Record<string, unknown>): Outcome {
  const bad = first(missing(params, ['coin', 'transferType', 'address', 'size']), outside(params, 'transferType', ['on_chain', 'internal_transfer'], true));
  if (bad) return bad;
  const onChain = params.transferType === 'on_chain';
  if (onChain && !given(params.chain) && !options.fault('chain-not-required')) return refused('validation', 'chain is required for an on-chain withdrawal');
  const coin = text(params.coin)!;
  if (!isCoin(coin)) return refused('validation', `coin ${coin} is not listed`);
  const size = decimal(params.size);
  if (size === undefined || size <= 0) return refused('validation', 'size must be a positive decimal string');
  const address = text(params.address);
  if (!address) return refused('validation', 'address is required');
  const chain = given(params.chain) ? text(params.chain) : undefined;
  if (onChain && chain !== undefined) {
    if (MEMO_CHAINS.includes(chain) && !given(params.tag)) return refused('validation', `${chain} withdrawals need a tag`);
    if (!MEMO_CHAINS.includes(chain) && !(CHAINS[coin] ?? []).includes(chain)) return refused('validation', `${coin} is not withdrawn on ${chain}`);
  }
  const bookOnly = options.reading('U-NS-WITHDRAW-ADDRESS') === 'address-book-only';
  if (onChain) {
    const book = [options.settings.withdraw?.address ?? BOOK_ADDRESS];
    if (bookOnly && !book.includes(address)) return refused('state', 'the address is not in the address book');
    const form = chain ? WELL_FORMED[chain] : undefined;
    if (!bookOnly && form && !form.test(address)) return refused('validation', `the address is not a ${chain} address`);
  } else {
    const uid = /^[0-9]{1,20}$/.test(address);
    const other = bookOnly && (/^[^@\s]+@[^@\s]+\.[a-z]{2,}$/i.test(address) || /^\+?[0-9]{6,15}$/.test(address));
    if (!uid && !other) return refused('validation', 'an internal transfer names the target account by its uid');
    if (address === caller.account.uid) return refused('validation', 'an internal transfer goes to another account');
  }

  const state = store.account(caller.account.uid);
  const clientOid = given(params.clientOid) ? text(params.clientOid) : undefined;
  if (clientOid !== undefined && !options.fault('withdraw-clientoid-twice')) {
    const earlier = state.withdrawals.find((w) => w.clientOid === clientOid);
    if (earlier) {
      if (clientOidReading(options) === 'same-answer') return accepted({ orderId: earlier.orderId, clientOid });
      return refused('state', `clientOid ${clientOid} was used before`);
    }
  }
  const funding = fundingType(options);
  const held = balanceOf(state, funding, coin);
  if (size > held) return refused('state', `the account holds ${dec(held)} ${coin}, less than ${dec(size)}`);
  const now = options.now();
  post(store, state, funding, coin, -size, 'withdraw', now);
  const record: Withdrawal = {
    orderId: store.nextId(),
    ...(clientOid !== undefined ? { clientOid } : {}),
    coin,
    transferType: String(params.transferType),
    address,
    ...(chain !== undefined ? { chain } : {}),
    ...(given(params.tag) ? { tag: String(params.tag) } : {}),
    size,
    ts: now,
    status: 'success',
  };
  state.withdrawals.push(record);
  // An internal transfer to an account this part knows credits its spot balance.
  if (!onChain && store.known(address)) post(store, store.account(address), funding, coin, size, 'internal_transfer_in', now);
  return accepted({ orderId: record.orderId, ...(clientOid !== undefined ? { clientOid } : {}) });
}

/** A deterministic address of an account for a coin on a chain (the n-th, for size). */
function addressOf(uid: string, coin: string, chain: string, n: number): string {
  const seed = `${uid}|${coin}|${chain}|${n}`;
  const pick = (alphabet: string, length: number) => Array.from({ length }, (_, i) => alphabet[Math.floor(unit(`${seed}|${i}`) * alphabet.length)]).join('');
  if (chain === 'TRC20') return `T${pick(BASE58, 33)}`;
  if (chain === 'ERC20') return `0x${pick('0123456789abcdef', 40)}`;
  return `bc1q${pick('023456789acdefghjklmnpqrstuvwxyz', 38)}`;
}

export function depositAddress(options: PartOptions, caller: Caller, params: Record<string, unknown>): Outcome {
  const coin = text(params.coin);
  if (!coin) return refused('validation', 'coin is required');
  if (!isCoin(coin)) return refused('validation', `coin ${coin} is not listed`);
  const chains = CHAINS[coin]!;
  const chain = given(params.chain) ? text(params.chain) : chains[0];
  if (!chain || !chains.includes(chain)) return refused('validation', `${coin} is not deposited on ${String(params.chain)}`);
  let size = 1;
  if (given(params.size)) {
    const n = whole(params.size);
    if (n === undefined || n < 1) return refused('validation', 'size must be a positive whole number');
    size = n;
  }
  const one = (n: number) => ({ coin, chain, address: addressOf(caller.account.uid, coin, chain, n), tag: '' });
  if (options.reading('U-NS-DEPOSIT-ADDRESS-SIZE') === 'address-list' && size > 1) {
    if (size > 20) return refused('validation', 'size must be at most 20');
    return accepted(Array.from({ length: size }, (_, i) => one(i)));
  }
  return accepted(one(0));
}

export function depositRecords(options: PartOptions, store: FundsStore, caller: Caller, params: Record<string, unknown>): Outcome {
  const range = timeRange(options, params.startTime, params.endTime, true);
  if (isRefusal(range)) return range;
  const state = store.account(caller.account.uid);
  const inRange = (ts: number) => (ts >= range.start && ts <= range.end) || options.fault('deposit-records-ignore-range');
  const rows = range.empty
    ? []
    : state.deposits
        .filter((d) => inRange(d.ts) && (!given(params.coin) || d.coin === params.coin || options.fault('deposit-records-coin-ignored')) && (!given(params.orderId) || d.orderId === params.orderId || options.fault('deposit-records-orderid-ignored')))
        .sort((a, b) => b.ts - a.ts)
        .map((d) =>
          publicMembers(options)
            ? { orderId: d.orderId, coin: d.coin, chain: d.chain, size: dec(d.size), toAddress: d.address, status: d.status, ts: String(d.ts) }
            : { id: d.orderId, asset: d.coin, network: d.chain, amount: dec(d.size), state: d.status, time: String(d.ts) },
        );
  return accepted(listData(options, 'getDepositRecords', rows));
}

export function withdrawalRecords(options: PartOptions, store: FundsStore, caller: Caller, params: Record<string, unknown>): Outcome {
  const range = timeRange(options, params.startTime, params.endTime, true);
  if (isRefusal(range)) return range;
  const state = store.account(caller.account.uid);
  const rows = range.empty
    ? []
    : state.withdrawals
        .filter(
          (w) =>
            // withdraw-records-ignore-range: every withdrawal, whatever its time; withdraw-orderid-filter-wrong: the
            // orderId filter compared with the clientOid.
            ((w.ts >= range.start && w.ts <= range.end) || options.fault('withdraw-records-ignore-range')) &&
            (!given(params.coin) || w.coin === params.coin) &&
            (!given(params.orderId) || (options.fault('withdraw-orderid-filter-wrong') ? w.clientOid : w.orderId) === params.orderId) &&
            (!given(params.clientOid) || w.clientOid === params.clientOid),
        )
        .sort((a, b) => b.ts - a.ts)
        .map((w) =>
          publicMembers(options)
            ? { orderId: w.orderId, clientOid: w.clientOid ?? '', coin: w.coin, transferType: w.transferType, chain: w.chain ?? '', toAddress: w.address, size: dec(w.size), status: w.status, ts: String(w.ts) }
            : { id: w.orderId, clientId: w.clientOid ?? null, asset: w.coin, kind: w.transferType, network: w.chain ?? null, to: w.address, amount: dec(w.size), state: w.status, time: String(w.ts) },
        );
  return accepted(listData(options, 'getWithdrawalRecords', rows));
}
