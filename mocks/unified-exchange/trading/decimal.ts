/**
 * Decimal strings as scaled bigints (units of 1e-8), so that prices, quantities and order values never meet a
 * binary float: 0.1 + 0.2 must be 0.3 when a book adds up its levels. Eight fraction digits is the precision of the
 * default reading of U-NS-MARKET-PRECISION ("up to 8 fraction digits"); a value written finer is refused, not rounded.
 */

export type Dec = bigint;

export const DIGITS = 8;
export const ONE: Dec = 10n ** BigInt(DIGITS);

const DECIMAL = /^(\d+)(?:\.(\d+))?$/;

/** A sent amount: a decimal string (or a plain JSON number, should the routing let one through). */
export function parseDec(value: unknown): { ok: true; value: Dec } | { ok: false; why: string } {
  const text = typeof value === 'number' && Number.isFinite(value) ? String(value) : value;
  if (typeof text !== 'string') return { ok: false, why: 'is not a decimal string' };
  const m = DECIMAL.exec(text.trim());
  if (!m) return { ok: false, why: `"${text}" is not a decimal number` };
  const fraction = (m[2] ?? '').replace(/0+$/, '');
  if (fraction.length > DIGITS) return { ok: false, why: `"${text}" has more than ${DIGITS} fraction digits` };
  return { ok: true, value: BigInt(m[1]) * ONE + BigInt(fraction.padEnd(DIGITS, '0') || '0') };
}

/** Parses a constant the reference itself writes (settings, seeds): a mistake there is the reference's own bug. */
export function dec(text: string): Dec {
  const parsed = parseDec(text);
  if (!parsed.ok) throw new Error(`bad decimal constant ${text}: ${parsed.why}`);
  return parsed.value;
}

/** The shortest decimal string: "60050", "0.001" (never an exponent, never trailing zeros). */
export function fmt(value: Dec): string {
  const negative = value < 0n;
  const abs = negative ? -value : value;
  const whole = abs / ONE;
  const fraction = (abs % ONE).toString().padStart(DIGITS, '0').replace(/0+$/, '');
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}

/** price x quantity, in the same 1e-8 units (rounded down: a value is never overstated). */
export const times = (a: Dec, b: Dec): Dec => (a * b) / ONE;

/** a / b in 1e-8 units, rounded down (how much base a quote amount buys at a price). */
export const over = (a: Dec, b: Dec): Dec => (b === 0n ? 0n : (a * ONE) / b);

export const min = (a: Dec, b: Dec): Dec => (a < b ? a : b);

/** Whether value is a whole multiple of step (a step of 0 takes anything). */
export const multipleOf = (value: Dec, step: Dec): boolean => step === 0n || value % step === 0n;
