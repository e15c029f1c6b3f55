/**
 * The paged lists of the account, funds, earn, P2P and broker groups (issue 24): walked in small pages, a list must give
 * each record once, no page beyond its limit, and the same records as one page large enough to hold them all (taken
 * just before, while no other check adds to the list: the funds lease, leases.ts). Cursor lists (sub-accounts, broker
 * sub-accounts, financial records, earn records) go on from the cursor the answer hands out, or from the last id seen
 * (U-NS-CURSOR-PAGING, settings.paging.cursor); the advertisements page by pageNum from the first page the profile
 * states (U-NS-P2P-PAGING). Records are told apart by their whole JSON, whatever their members are named
 * (U-NS-RECORD-MEMBERS). Where the profile names the operation in settings.fundWrites, the walk first makes records of
 * its own (three sub-accounts, three broker sub-accounts, three earn subscriptions at the minimum, two transfers), so
 * that a list spans pages, and the sub-accounts just created must each be found once.
 */
import type { RequirementId } from '../../generated/unified-exchange.ts';
import { isAccepted, needAccepted } from '../../harness/answers.ts';
import { fitTimeout } from '../../harness/budget.ts';
import type { Reply } from '../../harness/http/client.ts';
import { NotTested, RequirementViolation } from '../../harness/verdicts.ts';
import type { KeyRole } from '../../interfaces/unified-exchange/settings.ts';
import { findMember, idText, minimumEarnProduct, pairTransfer, reverseTransfer, rowsOf } from './fund-requests.ts';
import { FUNDS_LEASE, takeLease } from './leases.ts';
import { askValid, sendPatiently, takeBrokerRate } from './patient.ts';
import { serverClock } from './server-clock.ts';
import { flatEarnProducts, rolesOf, settingsOf } from './profile.ts';
import { freshSubName, orderIdOf, servedOp, withQuery, type Settings } from './requests.ts';
import { announce } from './fund-undo.ts';
import { uxScope } from './scope.ts';
import { reqTags } from './tags.ts';
import { guarded } from './guarded.ts';
import { test } from './test.ts';

/** The page size of a walk: small enough that a few records span pages. */
const SMALL = 2;
const MAX_PAGES = 60;

interface Listing {
  requirement: RequirementId;
  operationId: string;
  credential: KeyRole;
  query: Record<string, string | number>;
  /** The member a row names itself by (what a last-id cursor carries), in the order tried. */
  ids: string[];
  what: string;
  /**
   * Records are asked from a few seconds before the walk's own were made (startTime): an account whose other checks
   * have filled the list (the conservation property's transfers) still has a list one page can hold.
   */
  recent?: true;
}

const LISTINGS = (s: Settings): Listing[] => [
  { requirement: 'U-SUB-LISTED', operationId: 'listSubAccounts', credential: 'trade', query: {}, ids: ['uid'], what: 'the sub-accounts' },
  { requirement: 'U-BROKER-LISTED', operationId: 'listBrokerSubAccounts', credential: 'broker', query: {}, ids: ['subUid'], what: 'the broker sub-accounts' },
  { requirement: 'U-FIN-RECORDS-PAGING', operationId: 'getFinancialRecords', credential: 'trade', query: { category: 'SPOT' }, ids: ['id', 'billId'], what: 'the SPOT financial records', recent: true },
  { requirement: 'U-EARN-RECORDS-PAGING', operationId: 'getEarnRecords', credential: 'trade', query: { type: 'subscribe' }, ids: ['orderId', 'id'], what: 'the earn subscription records', recent: true },
  { requirement: 'U-P2P-LIST-PAGING', operationId: 'listP2pAds', credential: 'trade', query: { token: s.markets.coins.quote, fiat: 'USD', side: 'sell' }, ids: ['advId'], what: 'the sell advertisements' },
];

const key = (row: unknown) => JSON.stringify(row);
const SPANNED = 'a list walked over two pages or more';
/**
 * How far before its own records a recent walk asks from, beyond the uncertainty of the server clock's offset: little,
 * since the check just before may have made a hundred records in its last second (the conservation property).
 */
const SINCE_MS = 50;

test.describe('paged lists', () => {
  test(
    'paged lists: walked two records a page, each record once, the same records as one page holding them all',
    { tag: reqTags(...LISTINGS({ markets: { coins: { quote: 'USDT' } } } as Settings).map((l) => l.requirement)) },
    async ({ api, spec, profile, target, writes, identity, verify, notApplicable, notTested, recorder }, testInfo) => guarded(recorder, testInfo, async () => {
      const s = settingsOf(profile);
      const roles = rolesOf(profile);
      const scope = uxScope(s, { writes: profile.writes && writes.allowed, roles });
      fitTimeout(testInfo, { requests: 5 * (MAX_PAGES + 10), waitMs: 60_000 }, profile, !target.reference);
      const listings = LISTINGS(s).filter((l) => {
        if (!roles.includes(l.credential)) {
          notApplicable(l.requirement, `the profile names no ${l.credential} key (credentials.${l.credential})`);
          return false;
        }
        // Created records are what U-SUB-LISTED and U-BROKER-LISTED are about: without them, not applicable.
        const why = l.requirement === 'U-SUB-LISTED' || l.requirement === 'U-BROKER-LISTED' ? scope.requirements[l.requirement] : undefined;
        if (why) notApplicable(l.requirement, why);
        return !why;
      });
      if (listings.length === 0) return;
      const path = (operationId: string) => servedOp(spec, operationId).path;
      const may = (op: string) => profile.writes && writes.allowed && s.funded && s.fundWrites.includes(op);
      // Sent patiently: the check before may have filled the operation's second (a throttled write was not made).
      const send = (credential: KeyRole, operationId: string, json: unknown, label: string) => sendPatiently(api, { method: 'POST', path: path(operationId), json, authenticate: true, credential, label }, s);
      // A walk of many pages may outrun a per-UID limit (U-NS-RATE-LIMITS): a page refused is asked again after a second.
      const get = (l: Listing, query: Record<string, string | number | undefined>, label: string) =>
        askValid(api, { method: 'GET', path: withQuery(path(l.operationId), { ...l.query, ...query }), authenticate: true, credential: l.credential, label }, s);

      const releaseFunds = await takeLease(identity, FUNDS_LEASE, 'the paged lists');
      try {
        for (const listed of listings) {
          let l = listed;
          const releaseBroker = l.credential === 'broker' ? await takeBrokerRate(identity, `${l.what} with the broker key`) : () => {};
          try {
            const since = l.recent ? await sinceOwnRecords(l.credential) : 0;
            const { ids: made, any } = await makeRecords(l);
            if (l.recent && any) l = { ...l, query: { ...l.query, startTime: String(since) } };
            await verify(l.requirement, async (seen) => {
              const all = await onePage(l);
              const walked = await walk(l, l.operationId === 'listP2pAds');
              const seenKeys = new Map<string, Reply>();
              for (const { row, reply } of walked.rows) {
                const k = key(row);
                const first = seenKeys.get(k);
                if (first) throw new RequirementViolation(l.requirement, `walked ${SMALL} a page, ${l.what} gave ${k.slice(0, 160)} twice`, 'each record once', [first.exchange, reply.exchange]);
                seenKeys.set(k, reply);
              }
              const missing = all.rows.filter((row) => !seenKeys.has(key(row)));
              if (missing.length) {
                throw new RequirementViolation(l.requirement, `walked ${SMALL} a page, ${l.what} never gave ${missing.length} of the ${all.rows.length} records one page holds, as ${key(missing[0]).slice(0, 160)}`, 'every record once', [all.reply.exchange, ...walked.replies.slice(-2).map((r) => r.exchange)]);
              }
              for (const id of made) {
                if (!walked.rows.some(({ row }) => l.ids.some((m) => idText(row[m]) === id))) {
                  throw new RequirementViolation(l.requirement, `${l.what} walked ${SMALL} a page never gave ${id}, created just before`, 'every record created found once', walked.replies.slice(-2).map((r) => r.exchange));
                }
              }
              if (walked.pages < 2) throw new NotTested(`${l.what} hold ${all.rows.length} record(s): fewer than two pages of ${SMALL}`);
              seen(SPANNED);
            }, { needs: [SPANNED] });
          } finally {
            releaseBroker();
          }
        }
      } finally {
        releaseFunds();
      }

      /** A moment just before now on the server's clock (the harness's, a second back, where the server's cannot be read). */
      async function sinceOwnRecords(credential: KeyRole): Promise<number> {
        const clock = await serverClock(api, credential);
        return Math.floor(clock ? Date.now() + clock.offset - clock.slack - SINCE_MS : Date.now() - 1000);
      }

      /** Records of the test's own, where the profile names the operation that makes them: whether any, and their ids where known. */
      async function makeRecords(l: Listing): Promise<{ ids: string[]; any: boolean }> {
        const ids: string[] = [];
        let any = false;
        if (l.operationId === 'listSubAccounts' && may('createSubAccount')) {
          for (let i = 0; i < 3; i++) {
            const r = await send('trade', 'createSubAccount', { username: freshSubName() }, `a sub-account to list (${i + 1} of 3)`);
            const id = isAccepted(r) ? findMember((r.json as { data?: unknown } | undefined)?.data, 'uid') : undefined;
            if (id) ids.push(id);
          }
        }
        if (l.operationId === 'listBrokerSubAccounts' && may('createBrokerSubAccount')) {
          for (let i = 0; i < 3; i++) {
            const r = await send('broker', 'createBrokerSubAccount', { subaccountName: freshSubName(), label: 'conformance' }, `a broker sub-account to list (${i + 1} of 3)`);
            const id = isAccepted(r) ? findMember((r.json as { data?: unknown } | undefined)?.data, 'subUid') : undefined;
            if (id) ids.push(id);
          }
        }
        if (l.operationId === 'getFinancialRecords' && may('transfer')) {
          // Two there and back: four entries at least, over two pages.
          for (let i = 0; i < 2; i++) {
            const there = await send('trade', 'transfer', pairTransfer(s), `a transfer, for records to list (${i + 1} of 2)`);
            if (isAccepted(there)) {
              any = true;
              await send('trade', 'transfer', reverseTransfer(pairTransfer(s)), 'the same transfer back (undo)');
            }
          }
        }
        if (l.operationId === 'getEarnRecords' && may('subscribeEarn')) {
          const products = await api.send({ method: 'GET', path: path('getEarnProducts'), authenticate: true, credential: 'trade', label: 'an earn product and its minimum' });
          const product = minimumEarnProduct(products.json, s, flatEarnProducts(profile) === true);
          for (let i = 0; product && i < 3; i++) {
            // Redeemed at once: its record stays among the subscriptions. (Journalled, for a run interrupted between.)
            const undo = announce(writes, api, servedOp(spec, 'subscribeEarn').key, { kind: 'earn-subscription', credential: 'trade', productId: product.productId, productSubId: product.productSubId, amount: product.min, flat: flatEarnProducts(profile) }, `an earn subscription of ${product.min}, listed`);
            const r = await send('trade', 'subscribeEarn', { productSubId: product.productSubId, amount: product.min }, `an earn subscription of the minimum ${product.min}, for records to list (${i + 1} of 3)`);
            const orderId = isAccepted(r) ? orderIdOf(r.json) : undefined;
            if (orderId) undo.made(orderId);
            await undo.undoNow('redeem it (undo)');
            any ||= isAccepted(r);
          }
        }
        return { ids, any: any || ids.length > 0 };
      }

      /** One page as large as the profile's largest (settings.paging.maxLimit), which must hold the whole list. */
      async function onePage(l: Listing): Promise<{ rows: Array<Record<string, unknown>>; reply: Reply }> {
        const max = s.paging.maxLimit;
        const reply = await get(l, l.operationId === 'listP2pAds' ? { pageNum: s.p2p.firstPage, limit: max } : { limit: max }, `${l.what}, one page of ${max}`);
        needAccepted(reply, `${l.what} in one page of ${max}`);
        const rows = rowsOf(reply.json, l.operationId, s);
        if (rows.length >= max) throw new NotTested(`${l.what} fill a page of ${max}: no page holds them all to compare with`);
        return { rows, reply };
      }

      type Walk = { rows: Array<{ row: Record<string, unknown>; reply: Reply }>; replies: Reply[]; pages: number };

      /**
       * Pages of SMALL until a short page: successive pageNum values from the first page (the advertisements), or each
       * page from the cursor the previous answer handed out, else the last id it held (a bare array cannot hand one out).
       */
      async function walk(l: Listing, byPageNum: boolean): Promise<Walk> {
        const out: Walk = { rows: [], replies: [], pages: 0 };
        let cursor: string | undefined;
        for (let page = 1; page <= MAX_PAGES; page++) {
          const pageNum = s.p2p.firstPage + page - 1;
          const where = byPageNum ? `pageNum ${pageNum}` : `page ${page}${cursor ? ` after ${cursor}` : ''}`;
          const reply = await get(l, byPageNum ? { pageNum, limit: SMALL } : { limit: SMALL, cursor }, `${l.what}, ${where} of ${SMALL}`);
          needAccepted(reply, `${l.what}, ${byPageNum ? `pageNum ${pageNum}` : `page ${page}`}`);
          const rows = pageRows(l, reply, page);
          out.replies.push(reply);
          out.pages = page;
          out.rows.push(...rows.map((row) => ({ row, reply })));
          if (rows.length < SMALL) break;
          if (byPageNum) continue;
          const data = (reply.json as { data?: unknown } | undefined)?.data;
          const handed = s.paging.cursor === 'next-cursor' && data && typeof data === 'object' && !Array.isArray(data) ? (data as { cursor?: unknown }).cursor : undefined;
          const next = handed !== undefined ? idText(handed) : lastId(l, rows);
          if (!next) break;
          cursor = next;
        }
        return out;
      }

      function pageRows(l: Listing, reply: Reply, page: number): Array<Record<string, unknown>> {
        const rows = rowsOf(reply.json, l.operationId, s);
        if (rows.length > SMALL) throw new RequirementViolation(l.requirement, `${l.what}, page ${page} of limit ${SMALL}, holds ${rows.length} records`, `at most ${SMALL}`, [reply.exchange]);
        return rows;
      }

      function lastId(l: Listing, rows: Array<Record<string, unknown>>): string | undefined {
        const last = rows[rows.length - 1];
        for (const m of l.ids) {
          const id = last ? idText(last[m]) : undefined;
          if (id) return id;
        }
        throw new NotTested(`${l.what}: the last record carries none of ${l.ids.join(', ')}, which a last-id cursor would carry`);
      }
    }),
  );
});
