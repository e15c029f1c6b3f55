// Prices and quantities as fixed-point integers: binary floating point would make 0.1 + 0.2 fill 0.30000000000000004,
// and a book that compares such sums leaves dust resting. 18 decimals is more than any market's tick or step.

export const DECIMALS = 18;
const SCALE = 10n ** BigInt(DECIMALS);

/** "12.5" → 12.5 × 10^18; undefined for anything that is not a plain non-negative decimal within 18 decimals. */
export function parseDecimal(text: string): bigint | undefined {
  const m = /^(\d+)(?:\.(\d+))?$/.exec(text);
  if (!m) return undefined;
  const fraction = m[2] ?? '';
  if (fraction.length > DECIMALS) return undefined;
  return BigInt(m[1]) * SCALE + BigInt(fraction.padEnd(DECIMALS, '0') || '0');
}

/** A JSON number as the decimal text it stands for (no exponent), or undefined when it is not a finite number. */
export function numberText(value: number): string | undefined {
  if (!Number.isFinite(value)) return undefined;
  const plain = String(value);
  if (!/e/i.test(plain)) return plain;
  // 1e-7 and 1e21 print with an exponent; toFixed/BigInt give the digits without one.
  if (Math.abs(value) >= 1) return BigInt(value).toString();
  return value.toFixed(DECIMALS).replace(/0+$/, '').replace(/\.$/, '');
}

/** The shortest decimal text of a scaled value: 1.5 × 10^18 → "1.5", 0 → "0". */
export function formatDecimal(value: bigint): string {
  const negative = value < 0n;
  const abs = negative ? -value : value;
  const whole = abs / SCALE;
  const fraction = (abs % SCALE).toString().padStart(DECIMALS, '0').replace(/0+$/, '');
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}

export const minDecimal = (a: bigint, b: bigint): bigint => (a < b ? a : b);
