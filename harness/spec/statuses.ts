import type { Operation } from './types.ts';

/** Whether the spec documents a status for an operation, ranges ("2XX", "4XX") included. */
export function documents(op: Operation, status: number): boolean {
  return Object.keys(op.responses).some((s) => s === String(status) || (/^[1-5]XX$/i.test(s) && s[0] === String(status)[0]));
}
