/**
 * The conditional and enumerated rules of the funds operations, checked here whatever the routing already checked: a
 * part answers for its own refusals (and a seeded fault that skips one must not be caught by the routing instead).
 */
import { refused } from '../contract.ts';
import { given } from '../market/params.ts';
import type { Refusal } from './paging.ts';

/** The refusal of the first required parameter that is absent. */
export function missing(params: Record<string, unknown>, names: readonly string[]): Refusal | undefined {
  const absent = names.find((n) => !given(params[n]));
  return absent ? (refused('validation', `${absent} is required`) as Refusal) : undefined;
}

/** The refusal of a parameter (present, or required) outside its listed values. */
export function outside(params: Record<string, unknown>, name: string, values: readonly string[], required = false): Refusal | undefined {
  const v = params[name];
  if (!given(v)) return required ? (refused('validation', `${name} is required`) as Refusal) : undefined;
  return values.includes(v as string) ? undefined : (refused('validation', `${name} must be one of ${values.join(', ')}`) as Refusal);
}

/** The first refusal of a list of checks, or undefined. */
export const first = (...checks: Array<Refusal | undefined>): Refusal | undefined => checks.find((c) => c !== undefined);

export const YES_NO = ['yes', 'no'] as const;
