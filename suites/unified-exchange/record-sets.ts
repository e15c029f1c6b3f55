/**
 * Answers that must select different records, compared whatever their members are named (U-NS-RECORD-MEMBERS): a
 * record is its whole JSON, so one found in two of them was selected by a range or filter value it does not meet.
 */
import type { RequirementId } from '../../generated/unified-exchange.ts';
import type { Reply } from '../../harness/http/client.ts';
import { RequirementViolation } from '../../harness/verdicts.ts';
import { rowsOf } from './fund-requests.ts';
import type { Settings } from './requests.ts';

export interface Asked {
  what: string;
  reply: Reply;
  operationId: string;
}

/**
 * Fails `id` with both exchanges where two answers share a record; returns whether any answer held one (a pass needs
 * records to compare).
 */
export function shareNone(id: RequirementId, asked: readonly Asked[], s: Settings): boolean {
  const holder = new Map<string, Asked>();
  let any = false;
  for (const a of asked) {
    for (const row of rowsOf(a.reply.json, a.operationId, s)) {
      any = true;
      const key = JSON.stringify(row);
      const other = holder.get(key);
      if (other && other !== a) {
        throw new RequirementViolation(id, `${other.what} and ${a.what} both hold ${key.slice(0, 200)}`, 'no record in both: each meets one of them at most', [other.reply.exchange, a.reply.exchange]);
      }
      holder.set(key, a);
    }
  }
  return any;
}
