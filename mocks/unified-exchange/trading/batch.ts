/**
 * What the two batch operations share: the items of the body, the largest batch (U-NS-BATCH-SIZE) and how a batch
 * with bad items is answered (U-NS-BATCH-RESULT): one result per item, in order, with a code and msg of its own for
 * a failed item; or the whole batch refused when any item is bad, and nothing done.
 */
import { accepted, refused, type Outcome } from '../contract.ts';
import { isRefusal, text, type Ctx } from './context.ts';

/** The body's items. The routing hands a JSON array body over as params itself (or under `body`, `items`). */
export function itemsOf(params: unknown): unknown[] | undefined {
  if (Array.isArray(params)) return params;
  if (params && typeof params === 'object') {
    for (const member of ['body', 'items', 'list']) {
      const v = (params as Record<string, unknown>)[member];
      if (Array.isArray(v)) return v;
    }
  }
  return undefined;
}

export function batchSizeRefusal(ctx: Ctx, items: unknown[] | undefined): Outcome | undefined {
  if (!items) return refused('validation', 'the body must be an array of items');
  if (items.length === 0) return refused('validation', 'the batch is empty');
  const max = ctx.reading('U-NS-BATCH-SIZE') === 'up-to-fifty' ? 50 : 20;
  if (items.length > max) return refused('validation', `at most ${max} items in a batch`);
  return undefined;
}

/** An item checked and ready to apply, or why it failed. */
export type Checked<P> = { ok: true; plan: P } | { ok: false; item: Record<string, unknown>; failure: Outcome & { ok: false } };

/** Codes of failed items (the error codes are not shown: these are the reference's own). */
const ITEM_CODES = { validation: '40019', state: '43001', 'not-found': '43001' } as Record<string, string>;

/**
 * Answers a batch whose items were checked: all-or-nothing refuses it whole at the first failure; per-item applies the
 * good ones and reports each.
 */
export function answerBatch<P>(ctx: Ctx, checked: Array<Checked<P>>, apply: (plan: P) => Record<string, unknown>): Outcome {
  if (ctx.reading('U-NS-BATCH-RESULT') === 'all-or-nothing') {
    const bad = checked.findIndex((c) => !c.ok);
    if (bad >= 0) {
      const failure = (checked[bad] as { failure: Outcome & { ok: false } }).failure;
      return refused(failure.kind, `item ${bad}: ${failure.msg}`);
    }
  }
  return accepted(
    checked.map((c) => {
      if (c.ok) return apply(c.plan);
      const { item, failure } = c;
      return {
        orderId: text(item.orderId) ?? '',
        clientOid: text(item.clientOid) ?? '',
        code: failure.code ?? ITEM_CODES[failure.kind] ?? '40000',
        msg: failure.msg,
      };
    }),
  );
}

/** An item as an object, or the failure of one that is not. */
export function asItem(item: unknown): Record<string, unknown> | Outcome {
  if (item && typeof item === 'object' && !Array.isArray(item)) return item as Record<string, unknown>;
  return refused('validation', 'an item must be an object');
}

export const failed = (item: unknown, failure: Outcome): Checked<never> => {
  if (!isRefusal(failure)) throw new Error('failed() takes a refusal');
  return { ok: false, item: item && typeof item === 'object' ? (item as Record<string, unknown>) : {}, failure };
};
