import type { SchemaOptions, TUnsafe } from '@sinclair/typebox';
import { typeBox } from '../../interfaces/kit/typebox.ts';

/**
 * A TypeBox schema for one value out of a fixed list, its type derived from the list. Published as JSON Schema's
 * `enum`: TypeBox's union of literals would say the same as an anyOf of consts, harder to read, and Ajv would report
 * every branch of it.
 */
export function choice<const V extends readonly (string | number)[]>(values: V, options: SchemaOptions = {}): TUnsafe<V[number]> {
  return typeBox().Unsafe<V[number]>({ ...options, enum: [...values] });
}
