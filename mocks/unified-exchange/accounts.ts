// The accounts of the reference and the keys that open them, made from the run's secrets (`<role>_apiKey`,
// `<role>_secret`, `<role>_passphrase`; any role may be missing). Every account exists whether or not its key was
// given (an exchange has other customers): a withdrawal may name one as its internal-transfer target.
//
// Choices where the document is silent:
// - trade: account A's key with trading permission; read: a second key of account A, read permission only;
// - copy: a key with trading and futures copy-trading permission of a separate lead-trader account (C), so that copy
//   transfers never move account A's funds under another check's feet, and account A's trade key is "a trading key"
//   that copy trading refuses;
// - broker: the key of a broker master account (B), trading permission; broker2: a second key of B, so that the
//   broker limit is seen to count per UID; otherBroker: the key of a second broker master account (O), so that one
//   UID's requests are seen to leave another's limit alone; peer: a second normal account (P), trading permission. P is uid
//   1000000001, the internal-transfer target of the spec's withdrawal example.
// - sub: a key of a sub-account of the broker master account (S), trading permission: the broker operations serve
//   master accounts only;
// - every other account is a master account, in the profile's hold mode.
import type { Account, Caller, Permissions } from './contract.ts';

export const UIDS = { peer: '1000000001', trade: '1000000010', copy: '1000000020', broker: '1000000030', sub: '1000000031', otherBroker: '1000000040' } as const;

/** A key the deployment issued: its secret and passphrase, and what it opens. */
export interface IssuedKey {
  secret: string;
  passphrase: string;
  caller: Caller;
}

export interface Keyring {
  /** The key's record, if the deployment issued it. */
  key(apiKey: string): IssuedKey | undefined;
  /** Every account, by uid. */
  account(uid: string): Account | undefined;
  accounts(): Account[];
  /** A caller of account A with the trade key's permissions, for the fault that serves unknown keys as account A. */
  fallback(): Caller;
}

const READ_ONLY: Permissions = { read: true, trade: false, copy: false };
const TRADING: Permissions = { read: true, trade: true, copy: false };
const COPYING: Permissions = { read: true, trade: true, copy: true };

/**
 * `tradeKeyCopies`: the trade key has copy-trading permission too, and its account A is a lead trader (a deployment may
 * give its trading key that right, and copy trading may serve lead traders only: U-NS-LEAD-TRADER).
 */
export function keyring(secrets: Record<string, string>, holdMode: 'one-way' | 'hedge' | undefined, tradeKeyCopies = false): Keyring {
  const mode: Account['holdMode'] = holdMode === 'hedge' ? 'hedge_mode' : 'one_way_mode';
  const make = (uid: string, extra: Partial<Account> = {}): Account => ({ uid, broker: false, leadTrader: false, holdMode: mode, ...extra });
  const a = make(UIDS.trade, tradeKeyCopies ? { leadTrader: true } : {});
  const accounts = [make(UIDS.peer), a, make(UIDS.copy, { leadTrader: true }), make(UIDS.broker, { broker: true }), make(UIDS.sub, { masterUid: UIDS.broker }), make(UIDS.otherBroker, { broker: true })];
  const byUid = new Map(accounts.map((x) => [x.uid, x]));

  const roles: Array<[role: string, account: Account, permissions: Permissions]> = [
    ['trade', a, tradeKeyCopies ? COPYING : TRADING],
    ['read', a, READ_ONLY],
    ['copy', byUid.get(UIDS.copy)!, COPYING],
    ['broker', byUid.get(UIDS.broker)!, TRADING],
    ['broker2', byUid.get(UIDS.broker)!, TRADING],
    ['otherBroker', byUid.get(UIDS.otherBroker)!, TRADING],
    ['sub', byUid.get(UIDS.sub)!, TRADING],
    ['peer', byUid.get(UIDS.peer)!, TRADING],
  ];
  const keys = new Map<string, IssuedKey>();
  for (const [role, account, permissions] of roles) {
    const apiKey = secrets[`${role}_apiKey`];
    if (!apiKey) continue;
    if (keys.has(apiKey)) throw new Error(`unified-exchange reference: the ${role} key is the same as another role's; every role needs a key of its own`);
    keys.set(apiKey, { secret: secrets[`${role}_secret`] ?? '', passphrase: secrets[`${role}_passphrase`] ?? '', caller: { account, apiKey, permissions } });
  }
  return {
    key: (apiKey) => keys.get(apiKey),
    account: (uid) => byUid.get(uid),
    accounts: () => accounts,
    fallback: () => ({ account: a, apiKey: 'unknown', permissions: TRADING }),
  };
}

