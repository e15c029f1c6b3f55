/**
 * Placing, looking up and cancelling orders of the unified exchange through the `api` fixture, for the trading
 * checks. Every order a check places is journalled with `writes.undo` the moment it is acknowledged, so that it is
 * cancelled (and any futures position it may have opened closed) when the test ends, whatever the checks found.
 * Order records are read by settings.orderRecord; where the profile leaves a member name or the status values unstated,
 * by every reading the spec lists (U-NS-ORDER-RECORD, U-NS-ORDER-STATUSES): a guessed default never fails a target.
 */
import { Inconclusive, NotTested } from '../../harness/verdicts.ts';
import { answerKind, needAccepted, readState } from '../../harness/answers.ts';
import type { Client, Reply } from '../../harness/http/client.ts';
import type { Identity } from '../../harness/fixtures.ts';
import type { Profile } from '../../harness/profile/types.ts';
import { isStated } from '../../harness/profile/load.ts';
import type { Target } from '../../harness/targets.ts';
import type { WriteJournal } from '../../harness/writes.ts';
import type { Side } from '../../harness/models/limit-book.ts';
import type { KeyRole, UnifiedExchangeSettings } from '../../interfaces/unified-exchange/settings.ts';
import { takeOpenOrders } from './open-orders.ts';
import { namedRoles, uxScope } from './scope.ts';
import { sendPatiently } from './patient.ts';
import type { Recorder } from '../../harness/recorder.ts';
import type { RequirementId } from '../../generated/unified-exchange.ts';
import { freshClientOid } from './requests.ts';
import { FILLED_MEMBERS, STATUS_READINGS, isFutures, stateOf, type Category, type RecordState, type Statuses, type Stp, type Tif } from './model.ts';
import { keyedPacer } from './pacing.ts';

export { reqTags } from './tags.ts';
export { freshClientOid };

export const PLACE = 'POST /api/v3/trade/place-order';
const PLACE_PATH = '/api/v3/trade/place-order';
const CANCEL_PATH = '/api/v3/trade/cancel-order';
const CLOSE_PATH = '/api/v3/trade/close-positions';

/** Who sends: 'trade' (the profile's trading key), 'peer' (a second account's trading key). */
export type Role = Extract<KeyRole, 'trade' | 'peer' | 'read'>;

/** An order a check placed (or tried to): enough to look it up and cancel it by either id. */
export interface OrderRef {
  category: Category;
  symbol: string;
  credential: Role;
  orderId?: string;
  clientOid?: string;
}

export interface Observed {
  /**
   * 'absent': no such order, as the document has it said (U-NS-UNKNOWN-ORDER): a success without one (data null), or
   * the not-found refusal (notFoundStatuses). Any other answer is no reading of the order at all: `read` throws it.
   */
  state: RecordState | 'absent';
  /** What was filled, in lots of settings.markets.quantity; undefined when the record does not say. */
  filled?: number;
  status: unknown;
  orderId?: string;
  reply: Reply;
}

export interface LimitSpec {
  category: Category;
  side: Side;
  price: string;
  /** Lots of settings.markets.quantity; 1 by default. */
  lots?: number;
  tif?: Tif;
  stp?: Stp;
  clientOid?: string;
}


/** The data member of an answer (the payload is in `data`, always). */
export const dataOf = (r: Reply): Record<string, unknown> | undefined => {
  const d = (r.json as { data?: unknown } | undefined)?.data;
  return d && typeof d === 'object' && !Array.isArray(d) ? (d as Record<string, unknown>) : undefined;
};

/** The orderId an acknowledgement carries (a string or an integer, U-NS-ID-TYPES), as a string. */
export function orderIdOf(r: Reply): string | undefined {
  const id = dataOf(r)?.orderId;
  return (typeof id === 'string' && id !== '') || typeof id === 'number' ? String(id) : undefined;
}

// ---------------------------------------------------------------------------------------------------------------
// Decimal quantities and prices as whole multiples of the market's step and tick

const decimals = (unit: string) => (unit.includes('.') ? unit.split('.')[1].length : 0);

/** n units as a decimal string ("0.001" x 3 = "0.003"). */
export function times(unit: string, n: number): string {
  const d = decimals(unit);
  const v = BigInt(unit.replace('.', '')) * BigInt(n);
  if (d === 0) return v.toString();
  const text = v.toString().padStart(d + 1, '0');
  return `${text.slice(0, -d)}.${text.slice(-d)}`;
}

/** A decimal in units (a quantity in lots), or undefined when it is no whole number of them. */
export function inUnits(value: unknown, unit: string): number | undefined {
  if (typeof value !== 'string' && typeof value !== 'number') return undefined;
  const m = /^(\d+)(?:\.(\d+))?$/.exec(String(value));
  if (!m) return undefined;
  const d = Math.max(decimals(unit), (m[2] ?? '').length);
  const scale = (whole: string, frac: string) => BigInt(whole + frac.padEnd(d, '0'));
  const v = scale(m[1], m[2] ?? '');
  const [uw, uf] = unit.split('.');
  const u = scale(uw, uf ?? '');
  return v % u === 0n ? Number(v / u) : undefined;
}

/** The statuses the readings of U-NS-STATE-STATUS give an order the account does not have: 400, or 404. */
const NOT_FOUND_READINGS = [400, 404] as const;

// ---------------------------------------------------------------------------------------------------------------

export interface Orders {
  settings: UnifiedExchangeSettings;
  live: boolean;
  /** The profile states per-UID limits on each trading operation (settings.rateLimits): every request here is paced. */
  rateLimited: boolean;
  /** Sends a signed request as `credential`, paced where the profile states rate limits. */
  send(credential: Role, r: Parameters<Client['send']>[0]): Promise<Reply>;
  /** Whether the profile states a setting (a dotted path under the interface's settings). */
  stated(setting: string): boolean;
  /** The key roles the profile names. */
  roles: Role[];
  symbol(category: Category): string;
  /** A limit order body: posSide where the account is in hedge mode (by settings.holdMode), a fresh clientOid. */
  limit(o: LimitSpec): Record<string, unknown>;
  /** A gtc limit order at the profile's far price for its side: it never trades on a live market. */
  far(category: Category, side: Side, more?: Partial<LimitSpec>): Record<string, unknown>;
  /**
   * Sends place-order as `credential`; an acknowledged order is journalled for cancellation at the end of the test
   * (and, where `mayFill` on a futures category, its position for closing).
   */
  place(body: unknown, o?: { credential?: Role; label?: string; mayFill?: boolean }): Promise<{ reply: Reply; ref?: OrderRef }>;
  /**
   * An order the check needs resting to go on (what its checks then judge): placed, acknowledged with an orderId. A
   * refusal, or an acknowledgement without an id, leaves the check not tested (`why` says what it needed the order
   * for); a throttle, a server error or no answer, inconclusive.
   */
  needOrder(body: Record<string, unknown>, why: string, o?: { credential?: Role; label?: string; mayFill?: boolean }): Promise<{ reply: Reply; ref: OrderRef & { orderId: string } }>;
  /** A ref for a body this check sent (what its cancel and lookup need). */
  refOf(body: Record<string, unknown>, credential?: Role, orderId?: string): OrderRef;
  lookup(ref: OrderRef, by?: 'orderId' | 'clientOid'): Promise<Reply>;
  /**
   * What a lookup's answer shows of the order. Only the API may say an order is absent: a success without it, or the
   * document's not-found refusal; a throttle, a server error, a page that is not the API (Undecided) or a refusal
   * for another reason (Inconclusive) is thrown, never read as "gone".
   */
  read(r: Reply): Observed;
  /** The statuses of the lookup's not-found refusal: the profile's refusalStatus.state where stated, else every reading's (U-NS-STATE-STATUS). */
  notFoundStatuses: number[];
  /** Looks up until `done` holds or `withinMs` (default: the profile's settle time plus a margin) passes; the last record. */
  settle(ref: OrderRef, done: (o: Observed) => boolean, withinMs?: number): Promise<Observed>;
  /** cancel-order by orderId or clientOid, with what settings.orderIdentity says it needs beyond. */
  cancel(ref: OrderRef, by?: 'orderId' | 'clientOid', label?: string): Promise<Reply>;
  cancelBody(ref: OrderRef, by: 'orderId' | 'clientOid'): Record<string, unknown>;
  /** Marks an order finished (filled, cancelled): its cancel at the end of the test is not sent. */
  finished(ref: OrderRef): void;
  /** How long an order's outcome may take to show in the lookup (U-NS-ORDER-PROCESSING), with the harness's margin. */
  settleMs: number;
}

export interface OrdersContext {
  api: Client;
  profile: Profile;
  target: Target;
  writes: WriteJournal;
}

const NAME = 'unified-exchange';

export function ordersOf({ api, profile, target, writes }: OrdersContext): Orders {
  const entry = (profile.interfaces as Record<string, { settings?: unknown; credentials?: Record<string, unknown> } | undefined>)[NAME];
  if (!entry) throw new Error('harness: unified-exchange is not in the profile');
  const settings = entry.settings as UnifiedExchangeSettings;
  const stated = (setting: string) => isStated(profile, NAME, setting);
  const live = !target.reference;
  const roles = (['trade', 'peer', 'read'] as const).filter((r) => entry.credentials?.[r] !== undefined);
  const quantity = settings.markets.quantity;
  const statuses = statusesOf(settings, stated);
  const filledMembers = stated('orderRecord.filled') ? [settings.orderRecord.filled] : [...new Set([settings.orderRecord.filled, ...FILLED_MEMBERS])];
  const withCategory = settings.orderIdentity === 'with-category';
  const done = new Set<string>();
  const closing = new Set<string>();
  const key = (ref: OrderRef) => `${ref.credential}:${ref.orderId ?? ref.clientOid}`;
  const rateLimited = settings.rateLimits === 'per-uid-and-ip';
  // An order the account does not have is refused as a state refusal (U-NS-UNKNOWN-ORDER, U-NS-STATE-STATUS: 400 in one
  // reading, 404 in the other): the profile's status where it states one, and 404 always, which says "not found".
  const notFoundStatuses = stated('refusalStatus.state') ? [...new Set([settings.refusalStatus.state, 404])] : [...NOT_FOUND_READINGS];
  const send = async (credential: Role, r: Parameters<Client['send']>[0]) => {
    if (rateLimited) await paced(`${credential} ${r.method} ${r.path.split('?')[0]}`);
    // A throttle no check provoked decides nothing: asked again a second later, up to three times (a deployment may
    // limit its rate where the profile does not say so: U-NS-RATE-LIMITS), so that an accepted request is not judged
    // on a 429. A throttled placement placed nothing, and its clientOid guards against a second order anyway.
    return sendPatiently(api, { ...r, authenticate: true, credential }, settings);
  };

  const orders: Orders = {
    settings,
    live,
    rateLimited,
    send,
    stated,
    roles,
    settleMs: settings.orderSettleMs + (live ? 3000 : 500),
    notFoundStatuses,
    symbol: (category) => settings.markets.symbols[category],
    limit: (o) => ({
      category: o.category,
      symbol: settings.markets.symbols[o.category],
      side: o.side,
      orderType: 'limit',
      qty: times(quantity, o.lots ?? 1),
      price: o.price,
      ...(o.tif ? { timeInForce: o.tif } : {}),
      ...(isFutures(o.category) && settings.holdMode === 'hedge' ? { posSide: o.side === 'buy' ? 'long' : 'short' } : {}),
      ...(o.stp ? { stpMode: o.stp } : {}),
      clientOid: o.clientOid ?? freshClientOid(),
    }),
    far: (category, side, more = {}) => orders.limit({ category, side, price: settings.markets.farPrices[side], ...more }),
    refOf: (body, credential = 'trade', orderId) => ({
      category: body.category as Category,
      symbol: String(body.symbol ?? settings.markets.symbols[body.category as Category]),
      credential,
      orderId,
      clientOid: typeof body.clientOid === 'string' ? body.clientOid : undefined,
    }),
    place: async (body, o = {}) => {
      const credential = o.credential ?? 'trade';
      const reply = await send(credential, { method: 'POST', path: PLACE_PATH, json: body, label: o.label ?? `place ${describeBody(body)}` });
      const kind = answerKind(reply);
      const asObject = body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : undefined;
      // A refusal or a throttle placed nothing.
      if (kind === 'refused' || kind === 'throttled' || !asObject) return { reply };
      const ref = orders.refOf(asObject, credential, kind === 'accepted' ? orderIdOf(reply) : undefined);
      // Whatever the check finds next, the order is cancelled when the test ends: by its id, else by its clientOid.
      // A placement answered by a server error or a page that is not the API may have placed the order all the same:
      // its cancel by clientOid is journalled too (a deployment that has no such order refuses it, and nothing is lost).
      if (ref.orderId !== undefined || ref.clientOid !== undefined) {
        writes.undo(PLACE, `cancel order ${ref.orderId ?? ref.clientOid}`, async () => {
          if (done.has(key(ref))) return;
          await orders.cancel(ref, ref.orderId !== undefined ? 'orderId' : 'clientOid', `undo: cancel order ${ref.orderId ?? ref.clientOid}`);
        });
      }
      const position = `${credential}:${ref.category}:${ref.symbol}`;
      if (o.mayFill && isFutures(ref.category) && !closing.has(position)) {
        closing.add(position);
        writes.undo(PLACE, `close the ${ref.category} positions of ${ref.symbol} (${credential})`, async () => {
          await send(credential, { method: 'POST', path: CLOSE_PATH, json: { category: ref.category, symbol: ref.symbol }, label: `undo: close ${ref.category} ${ref.symbol} positions` });
        });
      }
      return kind === 'accepted' ? { reply, ref } : { reply };
    },
    needOrder: async (body, why, o = {}) => {
      const label = o.label ?? `place ${describeBody(body)}`;
      const { reply, ref } = await orders.place(body, { ...o, label });
      needAccepted(reply, label, { untested: true, why });
      if (!ref?.orderId) throw new NotTested(`${label} was acknowledged without an orderId: ${why}`);
      return { reply, ref: ref as OrderRef & { orderId: string } };
    },
    lookup: (ref, by = 'orderId') => {
      const id = by === 'orderId' ? ref.orderId : ref.clientOid;
      const query = new URLSearchParams({ [by]: id ?? '', ...(withCategory ? { category: ref.category } : {}) });
      return send(ref.credential, { method: 'GET', path: `${settings.paths.orderInfo}?${query}`, label: `look up order ${id} by ${by}` });
    },
    read: (r) => {
      const what = r.exchange.label ?? 'the order lookup';
      const seen = readState(r, what, { absentIn: () => dataOf(r) === undefined, notFound: (x) => notFoundStatuses.includes(x.status) });
      if (seen.state === 'unknown') throw new Inconclusive(`${seen.why}: what became of the order cannot be told`);
      const data = dataOf(r);
      if (seen.state === 'absent' || !data) return { state: 'absent', status: undefined, reply: r };
      const member = filledMembers.find((m) => data[m] !== undefined);
      return {
        state: stateOf(data.status, statuses),
        filled: member === undefined ? undefined : inUnits(data[member], quantity),
        status: data.status,
        orderId: data.orderId === undefined ? undefined : String(data.orderId),
        reply: r,
      };
    },
    settle: async (ref, doneWhen, withinMs = orders.settleMs) => {
      const started = performance.now();
      for (let pause = 20; ; pause = Math.min(250, pause * 2)) {
        const o = orders.read(await orders.lookup(ref));
        if (doneWhen(o) || performance.now() - started + pause > withinMs) return o;
        await new Promise((r) => setTimeout(r, pause));
      }
    },
    cancelBody: (ref, by) => ({
      [by]: by === 'orderId' ? ref.orderId : ref.clientOid,
      ...(withCategory ? { category: ref.category, symbol: ref.symbol } : {}),
    }),
    cancel: async (ref, by = 'orderId', label) => {
      const r = await send(ref.credential, { method: 'POST', path: CANCEL_PATH, json: orders.cancelBody(ref, by), label: label ?? `cancel order ${by === 'orderId' ? ref.orderId : ref.clientOid} by ${by}` });
      if (answerKind(r) === 'accepted') orders.finished(ref);
      return r;
    },
    finished: (ref) => {
      done.add(key(ref));
      if (ref.orderId && ref.clientOid) done.add(`${ref.credential}:${ref.clientOid}`);
    },
  };
  return orders;
}

/** The status values of each state: the profile's where it states them, else every listed reading's too. */
function statusesOf(settings: UnifiedExchangeSettings, stated: (s: string) => boolean): Statuses {
  const own = settings.orderRecord.statuses;
  const values = (state: keyof Statuses) => (stated(`orderRecord.statuses.${state}`) ? own[state] : [...new Set([...own[state], ...STATUS_READINGS.flatMap((r) => r.statuses[state])])]);
  return { open: values('open'), filled: values('filled'), cancelled: values('cancelled') };
}

function describeBody(body: unknown): string {
  if (!body || typeof body !== 'object') return JSON.stringify(body);
  const b = body as Record<string, unknown>;
  return [b.category, b.timeInForce, b.side, b.qty, b.orderType, b.price === undefined ? '' : `at ${b.price}`].filter((x) => x !== undefined && x !== '').join(' ');
}

// ---------------------------------------------------------------------------------------------------------------
// Pacing where the profile states rate limits (U-NS-RATE-LIMITS: per UID 10 requests per second on each trading
// operation): what the checks here send stays under it, so that no throttle answer (a 400 in one reading of
// U-NS-THROTTLE-STATUS) is taken for a refusal. Per process: the tests that hold the open-orders lease run one at a time.

const paced = keyedPacer(8);

// ---------------------------------------------------------------------------------------------------------------
// The account's open orders are one deployment-wide thing

export const LEASE_WAIT_MS = 60_000;

/**
 * The countdown cancels every open order of the account, and the model-based checks need the book as they left it:
 * the tests that place orders and judge what becomes of them hold the open-orders lease (open-orders.ts) to their end.
 * Why it could not be taken, if it could not.
 */
export async function holdOrders(identity: Identity, what: string): Promise<string | undefined> {
  try {
    await takeOpenOrders(identity, what, LEASE_WAIT_MS);
    return undefined;
  } catch (e) {
    if (e instanceof Inconclusive) return e.message;
    throw e;
  }
}

/**
 * What a trading test settles before it sends anything: the requirements the profile leaves out of scope (scope.ts,
 * as --list says), those `more` rules out, then the open-orders lease. The requirements left to judge; none when the
 * lease could not be had (each then inconclusive).
 */
export async function prepare(
  ids: RequirementId[],
  f: { profile: Profile; writes: WriteJournal; identity: Identity; notApplicable: (id: string, why: string) => void; recorder: Recorder },
  what: string,
  more: (id: RequirementId) => string | undefined = () => undefined,
): Promise<RequirementId[]> {
  const entry = (f.profile.interfaces as Record<string, { settings?: unknown; credentials?: unknown } | undefined>)[NAME];
  const scope = uxScope(entry?.settings as UnifiedExchangeSettings, { writes: f.profile.writes && f.writes.allowed, roles: namedRoles(entry?.credentials) });
  const left = ids.filter((id) => {
    const why = scope.requirements[id] ?? (f.writes.allowed ? undefined : 'the profile does not allow writes') ?? more(id);
    if (why) f.notApplicable(id, why);
    return !why;
  });
  if (left.length === 0) return [];
  const held = await holdOrders(f.identity, what);
  if (held) {
    left.forEach((id) => f.recorder.record(id, 'inconclusive', held));
    return [];
  }
  return left;
}
