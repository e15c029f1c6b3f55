/** Reading orders back: acknowledgements, order records and decimal quantities, as the profile names them. */
import type { Reply } from '../../harness/http/client.ts';
import type { OrderState, TimeInForce } from '../../harness/models/limit-book.ts';
import { RequirementViolation } from '../../harness/verdicts.ts';
import type { Exchange } from './exchange.ts';
import { stateOf, type RecordState } from './model.ts';

export const TIF_REQUIREMENT: Record<TimeInForce, string> = { GTC: 'A-TIF-GTC', IOC: 'A-TIF-IOC', FOK: 'A-TIF-FOK' };

/** The orderId of an acknowledgement, or a violation of A-ORDER-ACK. */
export function acknowledged(r: Reply): string {
  const id = (r.json as { orderId?: unknown } | undefined)?.orderId;
  if (r.status !== 200 || (typeof id !== 'string' && typeof id !== 'number') || String(id) === '') {
    throw new RequirementViolation('A-ORDER-ACK', `the order was answered ${r.status} ${r.text.slice(0, 200)}`, 'HTTP 200 carrying orderId', [r.exchange]);
  }
  return String(id);
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

export interface Observed {
  state: RecordState;
  /** Filled quantity in steps; undefined when the record does not say. */
  filled?: number;
  status: unknown;
  reply: Reply;
}

/** Looks an order up; a lookup that is not 200, or a record without a documented status value, breaks A-ORDER-STATUS. */
export async function observe(ex: Exchange, key: string, orderId: string): Promise<Observed> {
  const r = await ex.lookup(key, orderId);
  const rec = ex.settings.orderRecord;
  const body = r.json as Record<string, unknown> | undefined;
  const status = body?.[rec.status];
  const state = stateOf(status, rec.statuses);
  if (r.status !== 200 || state === 'unknown') {
    const why = r.status !== 200 ? `answered ${r.status}` : `its ${rec.status} is ${JSON.stringify(status)}`;
    throw new RequirementViolation('A-ORDER-STATUS', `the lookup of order ${orderId} ${why}`, `200 with ${rec.status} one of ${[...rec.statuses.open, ...rec.statuses.filled, ...rec.statuses.cancelled].join(', ')}`, [r.exchange]);
  }
  return { state, filled: inSteps(body?.[rec.quantityFilled], ex.settings.order.quantityStep), status, reply: r };
}

export interface Expected {
  state: OrderState;
  filled: number;
  quantity: number;
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

/**
 * "The current status of an order is read by polling the order lookup": a record that still shows the order open
 * while the model says it is done is asked again until `withinMs`; a record in a final state is taken at once.
 */
export async function settle(ex: Exchange, key: string, orderId: string, e: Expected, withinMs: number): Promise<Observed> {
  const started = performance.now();
  for (let pause = 20; ; pause = Math.min(500, pause * 2)) {
    const o = await observe(ex, key, orderId);
    if (agrees(o, e) || o.state !== 'open' || performance.now() - started + pause > withinMs) return o;
    await new Promise((r) => setTimeout(r, pause));
  }
}

export function describe(o: Observed): string {
  return `${JSON.stringify(o.status)} with ${o.filled ?? 'an unstated number of'} step(s) filled`;
}
