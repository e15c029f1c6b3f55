/**
 * Reading a request's parameters. The routing validates them against the spec's schemas, but a query parameter may
 * still arrive as the text the request carried ("150") or as the number the validation coerced it to (150), and a part
 * must not trust the routing to have refused every conditional rule: each helper takes either, and says `undefined` for
 * what is absent or not of its kind, so that a handler refuses rather than computes with NaN.
 */

/** A parameter that is present (not undefined, null or the empty string). */
export const given = (v: unknown): boolean => v !== undefined && v !== null && v !== '';

/** A non-empty string parameter, or undefined. */
export function text(v: unknown): string | undefined {
  return typeof v === 'string' && v.length > 0 ? v : undefined;
}

/** A whole number sent as an integer or a string of digits (with an optional minus sign), or undefined. */
export function whole(v: unknown): number | undefined {
  if (typeof v === 'number') return Number.isInteger(v) ? v : undefined;
  if (typeof v === 'string' && /^-?[0-9]{1,16}$/.test(v)) return Number(v);
  return undefined;
}

/** A Unix-milliseconds time stamp (a string of digits, or a number), or undefined. */
export function millis(v: unknown): number | undefined {
  const n = whole(v);
  return n !== undefined && n >= 0 ? n : undefined;
}

/** A decimal string "12.5" (the document's amounts are strings), or undefined. */
export function decimal(v: unknown): number | undefined {
  if (typeof v !== 'string' || !/^[0-9]+(\.[0-9]+)?$/.test(v)) return undefined;
  const n = Number(v);
  return Number.isFinite(n) ? n : undefined;
}

/**
 * A number as the decimal string every answer carries (the document: amounts, prices, quantities are strings): at most
 * `digits` fraction digits, trailing zeros dropped, never an exponent.
 */
export function dec(n: number, digits = 8): string {
  if (!Number.isFinite(n)) return '0';
  const fixed = n.toFixed(digits);
  const trimmed = fixed.includes('.') ? fixed.replace(/0+$/, '').replace(/\.$/, '') : fixed;
  return trimmed === '-0' ? '0' : trimmed;
}

/** A small deterministic hash of text to [0, 1): seeded data that is the same on every run and every machine. */
export function unit(seed: string): number {
  let h = 2166136261;
  for (let i = 0; i < seed.length; i++) {
    h ^= seed.charCodeAt(i);
    h = Math.imul(h, 16777619);
  }
  h ^= h >>> 13;
  h = Math.imul(h, 0x5bd1e995);
  h ^= h >>> 15;
  return (h >>> 0) / 4294967296;
}
