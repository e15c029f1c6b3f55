/**
 * Reading orders back: acknowledgements, order records and decimal quantities. Where the profile leaves a record's
 * member names or status values open, a record is read by any reading the spec lists (A-NS-ORDER-RECORD,
 * A-NS-ORDER-STATES), the profile's own first: a default the harness guessed never fails a target that took another.
 */
import type { Reply } from '../../harness/http/client.ts';
import type { OrderState, TimeInForce } from '../../harness/models/limit-book.ts';
import { NotTested, RequirementViolation } from '../../harness/verdicts.ts';
import { mustAnswer, refused } from '../../harness/answers.ts';
import type { AccountId } from './commands.ts';
import type { Exchange } from './exchange.ts';
import { stateOf, type RecordState } from './model.ts';
import type { ExchangeSessionSettings } from '../../interfaces/exchange-session/settings.ts';
import { stated } from './stated.ts';

export const TIF_REQUIREMENT: Record<TimeInForce, string> = { GTC: 'A-TIF-GTC', IOC: 'A-TIF-IOC', FOK: 'A-TIF-FOK' };

/** An acknowledged order: its id and the trading account it was placed for (a lookup may need it). */
export interface Placed {
  id: string;
  account: AccountId;
}

/** Where an acknowledgement carries orderId (A-NS-ACK-BODY): at the top level, or inside a data envelope. */
function orderIdOf(body: unknown): unknown {
  const b = body as { orderId?: unknown; data?: { orderId?: unknown } } | undefined;
  return b?.orderId ?? (b?.data && typeof b.data === 'object' ? b.data.orderId : undefined);
}

/**
 * The orderId of an acknowledgement; else a violation of A-ORDER-ACK, or not tested where the refusal may rest on the
 * order's form the profile leaves to its defaults (Exchange.formDoubt).
 */
export function acknowledged(ex: Exchange, r: Reply): string {
  const expected = 'HTTP 200 carrying orderId (at the top level or in a data envelope)';
  // What decides nothing (a throttle, a server error) is thrown here; a refusal may rest on the form.
  if (refused(r, 'the order')) {
    const doubt = ex.formDoubt(r);
    if (doubt) throw new NotTested(doubt);
  }
  mustAnswer(r, 200, 'the order', { rule: 'A-ORDER-ACK', expected });
  const id = orderIdOf(r.json);
  if ((typeof id !== 'string' && typeof id !== 'number') || String(id) === '') {
    throw new RequirementViolation('A-ORDER-ACK', `the order was answered ${r.status} without an orderId: ${r.text.slice(0, 200)}`, expected, [r.exchange]);
  }
  return String(id);
}

/** The reading of A-NS-ACK-BODY an acknowledgement shows. */
export function ackReading(r: Reply): 'command-acknowledged' | 'bare-order-id' | 'data-envelope' {
  const body = r.json as Record<string, unknown>;
  if (body.orderId === undefined) return 'data-envelope';
  return Object.keys(body).length === 1 ? 'bare-order-id' : 'command-acknowledged';
}

// ---------------------------------------------------------------------------------------------------------------
// Decimal quantities as whole multiples of the market's step

function decimals(step: string): number {
  return step.includes('.') ? step.split('.')[1].length : 0;
}

/** n steps, as a decimal string ("0.001" x 3 = "0.003"). */
export function steps(step: string, n: number): string {
  const d = decimals(step);
  const units = BigInt(step.replace('.', '')) * BigInt(n);
  if (d === 0) return units.toString();
  const text = units.toString().padStart(d + 1, '0');
  return `${text.slice(0, -d)}.${text.slice(-d)}`;
}

/** A decimal quantity in steps, or undefined when it is no whole number of them (or no number at all). */
export function inSteps(value: unknown, step: string): number | undefined {
  if (typeof value !== 'string' && typeof value !== 'number') return undefined;
  const m = /^(\d+)(?:\.(\d+))?$/.exec(String(value));
  if (!m) return undefined;
  const d = Math.max(decimals(step), (m[2] ?? '').length);
  const scale = (whole: string, frac: string) => BigInt(whole + frac.padEnd(d, '0'));
  const v = scale(m[1], m[2] ?? '');
  const [sw, sf] = step.split('.');
  const s = scale(sw, sf ?? '');
  return v % s === 0n ? Number(v / s) : undefined;
}

// ---------------------------------------------------------------------------------------------------------------
// Order records

type Statuses = ExchangeSessionSettings['orderRecord']['statuses'];

/** The readings the spec lists of A-NS-ORDER-RECORD (member names) and A-NS-ORDER-STATES (status values). */
export const RECORD_NAMES = [
  { reading: 'public-exchange-names', status: 'status', quantityFilled: 'quantityFilled' },
  { reading: 'other-names', status: 'orderStatus', quantityFilled: 'executedQuantity' },
] as const;
export const RECORD_STATES = [
  { reading: 'open-closed-cancelled', statuses: { open: ['OPEN'], filled: ['CLOSED'], cancelled: ['CANCELLED', 'REJECTED'] } },
  { reading: 'detailed-lifecycle', statuses: { open: ['NEW', 'PARTIALLY_FILLED'], filled: ['FILLED'], cancelled: ['CANCELED', 'EXPIRED'] } },
] as const;

/** The names a record's member may have: the profile's where it states it, else the profile's and every listed reading's. */
function namesOf(settings: ExchangeSessionSettings, member: 'status' | 'quantityFilled'): string[] {
  const own = settings.orderRecord[member];
  return stated(`orderRecord.${member}`) ? [own] : [...new Set([own, ...RECORD_NAMES.map((n) => n[member])])];
}

/** The status values of each state, read as namesOf reads member names. */
export function statusesOf(settings: ExchangeSessionSettings): Statuses {
  const own = settings.orderRecord.statuses;
  const values = (state: keyof Statuses) => (stated(`orderRecord.statuses.${state}`) ? own[state] : [...new Set([...own[state], ...RECORD_STATES.flatMap((r) => r.statuses[state])])]);
  return { open: values('open'), filled: values('filled'), cancelled: values('cancelled') };
}

export interface Observed {
  state: RecordState;
  /** Filled quantity in steps; undefined when the record does not say. */
  filled?: number;
  status: unknown;
  /** The member that held the status. */
  statusMember: string;
  reply: Reply;
  /** How many lookups did not find the order before one did (an acknowledgement that precedes the matching). */
  notFoundFirst: number;
}

/**
 * Whether a record shows what the model predicts. Only the filled quantity and whether the order still rests are
 * certain: a remainder "cancelled" after a partial fill may be shown as cancelled or as closed (states not shown).
 */
export function agrees(o: Observed, e: Expected): boolean {
  if (o.filled !== undefined && o.filled !== e.filled) return false;
  if (o.state === e.state) return true;
  return e.state === 'cancelled' && e.filled > 0 && o.state === 'filled';
}

export interface Expected {
  state: OrderState;
  filled: number;
  quantity: number;
}

/** A record as the profile (or, where it is silent, a listed reading) names its members. */
function read(ex: Exchange, r: Reply, notFoundFirst: number): Observed {
  const body = (r.json ?? {}) as Record<string, unknown>;
  const statusMember = namesOf(ex.settings, 'status').find((n) => body[n] !== undefined) ?? ex.settings.orderRecord.status;
  const filledMember = namesOf(ex.settings, 'quantityFilled').find((n) => body[n] !== undefined);
  const status = body[statusMember];
  return {
    state: stateOf(status, statusesOf(ex.settings)),
    filled: filledMember === undefined ? undefined : inSteps(body[filledMember], ex.settings.order.quantityStep),
    status,
    statusMember,
    reply: r,
    notFoundFirst,
  };
}

/**
 * "The current status of an order is read by polling the order lookup": a record that still shows the order open
 * while the model says it is done is asked again until `withinMs`, and so is an acknowledged order the lookup does not
 * find yet (a deployment may acknowledge before it matches); a record in a final state is taken at once. A lookup
 * still refused at the end, or a record without a status value of the profile (or a listed reading), breaks
 * A-ORDER-STATUS.
 */
export async function settle(ex: Exchange, key: string, order: Placed, e: Expected, withinMs: number): Promise<Observed> {
  const started = performance.now();
  let misses = 0;
  for (let pause = 20; ; pause = Math.min(500, pause * 2)) {
    const r = await ex.lookup(key, order.id, order.account);
    const late = performance.now() - started + pause > withinMs;
    // Only the API's refusal is "not found yet": a throttle or a server error is never read as the order's absence
    // (thrown, the check is inconclusive).
    const notFound = refused(r, `the lookup of order ${order.id}`);
    if (notFound && !late) {
      misses++;
      await new Promise((resolve) => setTimeout(resolve, pause));
      continue;
    }
    // A lookup refused to the end may want more than the document shows (A-NS-LOOKUP-ACCOUNT: the order's trading
    // account, say): a failure only where the profile states what the lookup needs (its extras, even none).
    if (notFound && !stated('extras')) {
      throw new NotTested(`the lookup of order ${order.id} was refused (${r.status} ${r.text.slice(0, 120)}) over ${Math.round(performance.now() - started)} ms: a deployment may need more than the document shows to look an order up (a trading account id): state what it needs in settings.extras ("GET /trading-api/v2/orders/{orderId}"), or extras: {} for nothing more`);
    }
    const o = read(ex, r, misses);
    if (notFound || o.state === 'unknown') {
      const why = notFound ? `answered ${r.status}${misses ? ` (and ${misses} times before, over ${Math.round(performance.now() - started)} ms)` : ''}` : `its ${o.statusMember} is ${JSON.stringify(o.status)}`;
      const values = statusesOf(ex.settings);
      throw new RequirementViolation('A-ORDER-STATUS', `the lookup of order ${order.id} ${why}`, `200 with ${namesOf(ex.settings, 'status').join(' or ')} one of ${[...values.open, ...values.filled, ...values.cancelled].join(', ')}`, [r.exchange]);
    }
    if (agrees(o, e) || o.state !== 'open' || late) return o;
    await new Promise((resolve) => setTimeout(resolve, pause));
  }
}

/** The readings of A-NS-ORDER-RECORD and A-NS-ORDER-STATES a record shows (where it shows a listed one). */
export function recordReadings(o: Observed): Array<[point: string, reading: string]> {
  const names = RECORD_NAMES.find((n) => n.status === o.statusMember)?.reading;
  const states = RECORD_STATES.find((r) => Object.values(r.statuses).some((v: readonly string[]) => v.includes(String(o.status))))?.reading;
  return [...(names ? [['A-NS-ORDER-RECORD', names] as [string, string]] : []), ...(states ? [['A-NS-ORDER-STATES', states] as [string, string]] : [])];
}

export function describe(o: Observed): string {
  return `${JSON.stringify(o.status)} with ${o.filled ?? 'an unstated number of'} step(s) filled`;
}
