/**
 * Sub-accounts of a master account and broker sub-accounts of a broker master account: created, then listed in creation
 * order (oldest first, so that a page never shifts while new ones are added at the end), paged by limit and cursor.
 * U-NS-SUB-NAMES: lowercase-eight, exactly 8 lowercase letters unique across the exchange (the public exchange's
 * virtual sub-accounts), or alphanumeric-unique, 1 to 16 letters and digits unique among the master's own; a name taken
 * is refused.
 */
import { accepted, refused, type Caller, type Outcome, type PartOptions } from '../contract.ts';
import { given, text } from '../market/params.ts';
import { first, missing, outside } from './check.ts';
import { isRefusal, pageLimit, pageOf } from './paging.ts';
import type { FundsStore } from './state.ts';

const publicMembers = (options: PartOptions) => options.reading('U-NS-RECORD-MEMBERS') !== 'documented-only';

/** The refusal of a name the reading does not take, or that is taken (among `siblings` where names are per master). */
function nameRefusal(options: PartOptions, store: FundsStore, name: string, siblings: string[]) {
  const perMaster = options.reading('U-NS-SUB-NAMES') === 'alphanumeric-unique';
  const pattern = perMaster ? /^[A-Za-z0-9]{1,16}$/ : /^[a-z]{8}$/;
  if (!pattern.test(name)) return refused('validation', perMaster ? 'a name is 1 to 16 letters and digits' : 'a name is exactly 8 lowercase letters');
  if (perMaster ? siblings.includes(name) : store.names.has(name)) return refused('state', `the name ${name} is taken`);
  return undefined;
}

export function createSubAccount(options: PartOptions, store: FundsStore, caller: Caller, params: Record<string, unknown>): Outcome {
  const bad = first(missing(params, ['username']), outside(params, 'accountMode', ['classic', 'unified']));
  if (bad) return bad;
  const username = text(params.username)!;
  const master = caller.account.uid;
  const taken = nameRefusal(options, store, username, store.subs.filter((s) => s.masterUid === master).map((s) => s.username));
  if (taken) return taken;
  const uid = store.nextUid();
  store.names.add(username);
  store.subs.push({ uid, masterUid: master, username, accountMode: given(params.accountMode) ? String(params.accountMode) : 'unified', note: typeof params.note === 'string' ? params.note : '', ts: options.now() });
  return accepted({ uid, username });
}

export function listSubAccounts(options: PartOptions, store: FundsStore, caller: Caller, params: Record<string, unknown>): Outcome {
  const limit = pageLimit(options, params.limit);
  if (isRefusal(limit)) return limit;
  let mine = store.subs.filter((s) => s.masterUid === caller.account.uid);
  // sub-list-drops-newest: the listing stops one short of the newest sub-account.
  if (options.fault('sub-list-drops-newest')) mine = mine.slice(0, -1);
  const page = pageOf(options, mine, (s) => s.uid, params.cursor, limit, false, options.fault('sub-list-cursor-skips'));
  if (isRefusal(page)) return page;
  const list = page.rows.map((s) =>
    publicMembers(options)
      ? { uid: s.uid, username: s.username, accountMode: s.accountMode, note: s.note, status: 'normal', createdTime: String(s.ts) }
      : { uid: s.uid, name: s.username, mode: s.accountMode, remark: s.note, created: String(s.ts) },
  );
  return accepted({ list, ...page.extra });
}

/** Broker operations: a master account of the broker user type only (the routing checks it too). */
function brokerRefusal(caller: Caller) {
  return caller.account.broker && !caller.account.masterUid ? undefined : refused('permission', 'broker operations need a broker master account');
}

export function createBrokerSub(options: PartOptions, store: FundsStore, caller: Caller, params: Record<string, unknown>): Outcome {
  const bad = brokerRefusal(caller) ?? missing(params, ['subaccountName', 'label']);
  if (bad) return bad;
  const name = text(params.subaccountName)!;
  const broker = caller.account.uid;
  const taken = nameRefusal(options, store, name, store.brokerSubs.filter((s) => s.brokerUid === broker).map((s) => s.subaccountName));
  if (taken) return taken;
  const subUid = store.nextUid();
  store.names.add(name);
  store.brokerSubs.push({ subUid, brokerUid: broker, subaccountName: name, label: String(params.label), status: 'normal', ts: options.now() });
  return accepted({ subUid, subaccountName: name });
}

export function listBrokerSubs(options: PartOptions, store: FundsStore, caller: Caller, params: Record<string, unknown>): Outcome {
  const bad = brokerRefusal(caller) ?? outside(params, 'status', ['normal', 'freeze']);
  if (bad) return bad;
  const limit = pageLimit(options, params.limit);
  if (isRefusal(limit)) return limit;
  const mine = store.brokerSubs.filter((s) => s.brokerUid === caller.account.uid && (!given(params.status) || s.status === params.status || options.fault('broker-list-status-ignored')));
  const page = pageOf(options, mine, (s) => s.subUid, params.cursor, limit, false, options.fault('broker-list-cursor-skips'));
  if (isRefusal(page)) return page;
  const subList = page.rows.map((s) =>
    publicMembers(options)
      ? { subUid: s.subUid, subaccountName: s.subaccountName, label: s.label, status: s.status, createdTime: String(s.ts) }
      : { subUid: s.subUid, name: s.subaccountName, tag: s.label, state: s.status, created: String(s.ts) },
  );
  return accepted({ subList, ...page.extra });
}
