/**
 * "| clientOid | no | client id for idempotency and tracking |": a second placement with the clientOid of an open
 * order makes no second order (refused, beside the same order with a fresh clientOid accepted; or answered with the
 * first order's id: U-NS-CLIENTOID-REPEAT), and the
 * clientOid reaches the order its orderId names - cancel-order by clientOid cancels it, and a lookup by clientOid, where
 * the deployment takes one (the document shows only orderId), finds it.
 */
import type { RequirementId } from '../../generated/unified-exchange.ts';
import { answerKind, judged, mustAccept, mustBeRefused, refused } from '../../harness/answers.ts';
import { fitTimeout } from '../../harness/budget.ts';
import { NotTested, RequirementViolation } from '../../harness/verdicts.ts';
import { FUTURES, type Category } from './model.ts';
import { freshClientOid, prepare, LEASE_WAIT_MS, orderIdOf, ordersOf, reqTags, type Observed, type OrderRef } from './orders.ts';
import { guarded } from './guarded.ts';
import { test } from './test.ts';

const RULES: RequirementId[] = ['U-ORDER-CLIENTOID-IDEMPOTENT', 'U-ORDER-CLIENTOID-TRACK', 'U-CANCEL-BY-CLIENTOID'];

test('clientOid: a repeated clientOid places no second order; lookup and cancel by clientOid reach the order its orderId names', { tag: reqTags(...RULES) }, async ({ api, profile, target, writes, identity, verify, notApplicable, reading, recorder }, testInfo) => guarded(recorder, testInfo, async () => {
  const orders = ordersOf({ api, profile, target, writes });
  fitTimeout(testInfo, { requests: 40, waitMs: LEASE_WAIT_MS }, profile, orders.live);
  if ((await prepare(RULES, { profile, writes, identity, notApplicable, recorder }, 'clientOid')).length === 0) return;

  // A spot order and a futures one: categories may keep their orders apart.
  const placed: Array<{ ref: OrderRef & { orderId: string; clientOid: string }; body: Record<string, unknown> }> = [];
  for (const category of ['SPOT', FUTURES[0]] as Category[]) {
    const body = orders.far(category, 'buy');
    const label = `a ${category} order with clientOid ${String(body.clientOid)}`;
    const { reply, ref } = await orders.place(body, { label });
    if (ref?.orderId && ref.clientOid) placed.push({ ref: ref as OrderRef & { orderId: string; clientOid: string }, body });
    else if (judged(reply, label) === 'refused') testInfo.annotations.push({ type: 'note', description: `the ${category} order was refused (${reply.status})` });
  }
  const none = () => new NotTested('no order with a clientOid was acknowledged with an orderId (see the exchanges)');

  await verify('U-ORDER-CLIENTOID-IDEMPOTENT', async () => {
    if (placed.length === 0) throw none();
    for (const { ref, body } of placed) {
      // The same request again, as a client's retry sends it.
      const what = `the same ${ref.category} order again, clientOid ${ref.clientOid}`;
      const again = await orders.place(body, { label: what });
      if (refused(again.reply, what)) {
        // A refusal says "no second order" only where the same order with a clientOid of its own is accepted.
        const fresh = await orders.place({ ...body, clientOid: freshClientOid() }, { label: `the same ${ref.category} order with a fresh clientOid (control)` });
        mustBeRefused('U-ORDER-CLIENTOID-IDEMPOTENT', again.reply, what, { control: fresh.reply });
        reading('U-NS-CLIENTOID-REPEAT', undefined, 'refused while the first order is open (refused-duplicate or reusable-once-finished)');
        continue;
      }
      const id = orderIdOf(again.reply);
      if (id === ref.orderId) {
        reading('U-NS-CLIENTOID-REPEAT', 'same-answer');
        continue;
      }
      // Another id: a second order, unless the lookup shows it is not open (it is, all the same, not the first order's id).
      // Its lookup is shown beside the evidence where it can be read; the second id is the deviation either way.
      const second = id === undefined ? undefined : await orders.lookup({ ...ref, orderId: id }).then(orders.read).catch(() => undefined);
      throw new RequirementViolation(
        'U-ORDER-CLIENTOID-IDEMPOTENT',
        `a second ${ref.category} order with clientOid ${ref.clientOid} was accepted as order ${id ?? '(no orderId)'}, not the first order ${ref.orderId}${second ? `; its lookup shows ${JSON.stringify(second.status)}` : ''}`,
        'refused, or answered with the first order\'s orderId',
        [again.reply.exchange, ...(second ? [second.reply.exchange] : [])],
      );
    }
  });

  // The lookup by clientOid is the public exchange's, not the document's: only an order it does return is judged. It
  // is asked while the order is open, before the cancel below.
  // Per order: what its lookup by clientOid showed, or undefined where the deployment did not answer that form.
  const byClientOid = new Map<string, Observed | undefined>();
  await verify('U-CANCEL-BY-CLIENTOID', async () => {
    if (placed.length === 0) throw none();
    let cancelled = 0;
    for (const { ref } of placed) {
      // The rule is about a live order: one the lookup does not show yet (an acknowledgement ahead of the book, the
      // asynchronous reading) would read "gone" after the cancel whatever the cancel did.
      if ((await orders.settle(ref, (o) => o.state === 'open')).state !== 'open') continue;
      cancelled += 1;
      // The document shows only the lookup by orderId: one by clientOid not taken (refused, or answered by trouble) is
      // not judged, and says nothing of the order.
      const lookup = await orders.lookup(ref, 'clientOid');
      byClientOid.set(ref.orderId, answerKind(lookup) === 'accepted' ? orders.read(lookup) : undefined);
      const r = await orders.cancel(ref, 'clientOid');
      // cancel-order by clientOid cancels the order its orderId names: a failure here fails the tracking too.
      mustAccept(r, `cancel-order by clientOid ${ref.clientOid} (order ${ref.orderId})`, { rule: ['U-CANCEL-BY-CLIENTOID', 'U-ORDER-CLIENTOID-TRACK'] });
      const after = await orders.settle(ref, (o) => o.state !== 'open');
      if (after.state === 'open') {
        throw new RequirementViolation(['U-CANCEL-BY-CLIENTOID', 'U-ORDER-CLIENTOID-TRACK'], `order ${ref.orderId} still shows ${JSON.stringify(after.status)} after cancel-order by its clientOid ${ref.clientOid} was accepted`, 'no longer live', [r.exchange, after.reply.exchange]);
      }
    }
    if (cancelled === 0) throw new NotTested(`no order of the check showed live in its lookup within ${orders.settleMs} ms, so no cancel could be judged`);
  });
  if (!recorder.judged('U-ORDER-CLIENTOID-TRACK')) {
    await verify('U-ORDER-CLIENTOID-TRACK', async () => {
      if (placed.length === 0) throw none();
      if (byClientOid.size < placed.length) throw new NotTested('the cancels by clientOid could not be judged');
      for (const { ref } of placed) {
        const found = byClientOid.get(ref.orderId);
        if (found && found.state !== 'absent' && found.orderId !== undefined && found.orderId !== ref.orderId) {
          throw new RequirementViolation('U-ORDER-CLIENTOID-TRACK', `the lookup by clientOid ${ref.clientOid} returned order ${found.orderId}, not ${ref.orderId}`, `order ${ref.orderId}`, [found.reply.exchange]);
        }
      }
    });
  }
}));
