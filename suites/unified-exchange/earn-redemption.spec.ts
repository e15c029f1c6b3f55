/**
 * An earn subscription redeemed (issue 24). The check subscribes the minimum of a product, then asks to redeem far more
 * than any subscription holds (U-EARN-REDEEM-HELD: refused), then the amount it subscribed, which must be accepted
 * (U-EARN-REDEEM) and is the subscription's undo. Last, the earn records of type subscribe, redeem and interest must
 * share no record (U-RECORDS-FILTERED), nor the subscription records of the last week and the week before
 * (U-RECORDS-IN-RANGE): the subscription and the redemption just made are among them.
 *
 * What a redemption names as productSubId is open (U-NS-EARN-PRODUCTS): the sub-product subscribed to, or the
 * subscription itself by its orderId. The profile may state it (settings.earn.products); otherwise the redemption
 * information is asked, and whichever of the two ids it shows is named. Where it shows neither, both are tried, and a
 * refused redemption fails nothing: which id it lacked cannot be told.
 */
import type { RequirementId } from '../../generated/unified-exchange.ts';
import { accepted, isAccepted, mustBeRefused, needAccepted } from '../../harness/answers.ts';
import { fitTimeout } from '../../harness/budget.ts';
import type { Reply } from '../../harness/http/client.ts';
import { NotTested, RequirementViolation } from '../../harness/verdicts.ts';
import { BEYOND_ANY_BALANCE, minimumEarnProduct, redemptionIds } from './fund-requests.ts';
import { FUNDS_LEASE, takeLease } from './leases.ts';
import { askValid } from './patient.ts';
import { flatEarnProducts, rolesOf, settingsOf } from './profile.ts';
import { shareNone, type Asked } from './record-sets.ts';
import { orderIdOf, recentWindow, servedOp, withQuery } from './requests.ts';
import { uxScope } from './scope.ts';
import { announce, type Announced } from './fund-undo.ts';
import { reqTags } from './tags.ts';
import { guarded } from './guarded.ts';
import { test } from './test.ts';

const REQUIREMENTS: RequirementId[] = ['U-EARN-REDEEM-HELD', 'U-EARN-REDEEM'];
const HELD = 'records in one of the earn records compared';
const REDEEMED = 'a redemption of the amount just subscribed, accepted';
const DAY = 24 * 3600_000;

test.describe('earn redemption', () => {
  test(
    'earn redemption: more than any subscription holds is refused beside the amount just subscribed, redeemed; the records of each type share none',
    { tag: reqTags(...REQUIREMENTS, 'U-RECORDS-FILTERED', 'U-RECORDS-IN-RANGE') },
    async ({ api, spec, profile, target, writes, identity, verify, notApplicable, note, recorder }, testInfo) => guarded(recorder, testInfo, async () => {
      const s = settingsOf(profile);
      const roles = rolesOf(profile);
      const scope = uxScope(s, { writes: profile.writes && writes.allowed, roles });
      const out = REQUIREMENTS.filter((id) => scope.requirements[id]);
      for (const id of out) notApplicable(id, scope.requirements[id]!);
      if (out.length === REQUIREMENTS.length) return;
      fitTimeout(testInfo, { requests: 20, waitMs: 3_000 }, profile, !target.reference);
      const path = (operationId: string) => servedOp(spec, operationId).path;
      const send = (operationId: string, json: unknown, label: string) => api.send({ method: 'POST', path: path(operationId), json, authenticate: true, credential: 'trade', label });
      const read = (operationId: string, query: Record<string, string | number>, label: string) => askValid(api, { method: 'GET', path: withQuery(path(operationId), query), authenticate: true, credential: 'trade', label }, s);

      // Subscribing takes from the account's balance: no other check compares balances meanwhile.
      const release = await takeLease(identity, FUNDS_LEASE, 'the earn redemption');
      let journal: Announced | undefined;
      try {
        const products = await read('getEarnProducts', {}, 'an earn product and its minimum');
        const flatStated = flatEarnProducts(profile);
        const product = minimumEarnProduct(products.json, s, flatStated === true);
        // Journalled before it is sent: redeemed when the test ends unless the control below redeems it.
        journal = product ? announce(writes, api, servedOp(spec, 'subscribeEarn').key, { kind: 'earn-subscription', credential: 'trade', productId: product.productId, productSubId: product.productSubId, amount: product.min, flat: flatStated }, `an earn subscription of ${product.min}`) : undefined;
        const subscribed = product ? await send('subscribeEarn', { productSubId: product.productSubId, amount: product.min }, `an earn subscription of the minimum ${product.min}, to redeem`) : undefined;
        const orderId = subscribed && isAccepted(subscribed) ? orderIdOf(subscribed.json) : undefined;
        if (orderId) journal?.made(orderId);
        let control: Reply | undefined;
        let known = false;
        await verify('U-EARN-REDEEM-HELD', async (seen) => {
          needAccepted(products, 'the earn products', { untested: true, why: 'no product to subscribe to' });
          if (!product) throw new NotTested('no earn product of one coin with a minSubscribeAmount was listed');
          needAccepted(subscribed!, `the subscription of the minimum ${product.min}`, { untested: true, why: 'nothing to redeem' });
          if (!orderId) throw new NotTested(`the subscription of the minimum ${product.min} was accepted without an orderId: nothing to redeem`);
          const info = flatStated === undefined ? await read('getEarnRedeemInfo', { productId: product.productId }, `the redemption information of product ${product.productId}`) : undefined;
          const ids = redemptionIds(product.productSubId, orderId, flatStated, info && isAccepted(info) ? (info.json as { data?: unknown } | undefined)?.data : undefined);
          known = ids.length === 1;
          for (const [i, productSubId] of ids.entries()) {
            const body = { productId: product.productId, productSubId, redeemType: 'fast', amount: BEYOND_ANY_BALANCE, receiveAccount: 'unified' };
            const what = `a fast redemption of ${BEYOND_ANY_BALANCE} from ${productSubId}, more than any subscription holds`;
            const wrong = await send('redeemEarn', body, what);
            if (accepted(wrong, what)) throw new RequirementViolation('U-EARN-REDEEM-HELD', `${what} was accepted`, 'refused', [subscribed!.exchange, wrong.exchange]);
            control = await send('redeemEarn', { ...body, amount: product.min }, `the same redemption of the ${product.min} just subscribed (control)`);
            if (isAccepted(control)) journal?.undone();
            if (isAccepted(control) || i === ids.length - 1) {
              mustBeRefused('U-EARN-REDEEM-HELD', wrong, what, { control });
              seen('a redemption beyond the holdings, refused beside its control');
              return;
            }
          }
        }, { needs: ['a redemption beyond the holdings, refused beside its control'] });

        await verify('U-EARN-REDEEM', (seen) => {
          if (!control) throw new NotTested('no redemption of a subscription was sent (see U-EARN-REDEEM-HELD)');
          if (accepted(control, `the redemption of the ${product!.min} just subscribed`)) return seen(REDEEMED);
          if (known) {
            throw new RequirementViolation('U-EARN-REDEEM', `the redemption of the ${product!.min} just subscribed was answered ${control.status}`, 'accepted', [subscribed!.exchange, control.exchange]);
          }
          note(`the earn subscription ${orderId} could not be redeemed (${control.status}): the end of the test tries again`);
          throw new NotTested(`the redemption of the subscription was answered ${control.status}, and which id it names is open (U-NS-EARN-PRODUCTS): state settings.earn.products`);
        }, { needs: [REDEEMED] });
      } finally {
        // Not redeemed by the control: redeemed now, while no other check compares balances.
        await journal?.undoNow('redeem the subscription (undo)');
        release();
      }

      const week = recentWindow();
      const weekBefore = { startTime: String(Number(week.startTime) - 7 * DAY), endTime: String(Number(week.startTime) - 1) };
      const records = async (id: RequirementId, asks: Array<[Record<string, string>, string]>) => {
        await verify(id, async (seen) => {
          const asked: Asked[] = [];
          for (const [query, what] of asks) {
            const reply = await read('getEarnRecords', { ...query, limit: s.paging.maxLimit }, what);
            needAccepted(reply, what, { untested: true });
            asked.push({ what, reply, operationId: 'getEarnRecords' });
          }
          if (shareNone(id, asked, s)) seen(HELD);
        }, { needs: [HELD] });
      };
      await records('U-RECORDS-FILTERED', ['subscribe', 'redeem', 'interest'].map((type) => [{ type, ...week }, `the earn records of type ${type} of the last week`]));
      await records('U-RECORDS-IN-RANGE', [[{ type: 'subscribe', ...week }, 'the earn subscription records of the last week'], [{ type: 'subscribe', ...weekBefore }, 'the earn subscription records of the week before']]);
    }),
  );
});
