/**
 * Records a time range or a filter selects (issue 24). Whatever a deployment names the members of a record
 * (U-NS-RECORD-MEMBERS), two answers that must select different records can be compared: a record is its whole JSON,
 * and one found in both answers was selected by a range or a filter value it does not meet.
 * - U-RECORDS-IN-RANGE: the deposit records and the financial records of the last week and of the week before share
 *   none. (Loan history is left out: a loan lives over a stretch of time, and a history may show it in every range its
 *   life meets.)
 * - U-RECORDS-FILTERED: the deposit records of the quote coin and of the base coin share none, nor those of two
 *   deposits' orderIds; the financial records of the two coins share none, nor those of SPOT and MARGIN; the loan
 *   history of status ROLLBACK, FORCE and REPAY shares none; the broker sub-accounts of status normal and freeze share
 *   none.
 *
 * A pass needs records in one of the answers compared. The reference's accounts start with deposits; where the profile
 * names the writes, the check first makes a loan it repays in full and a broker sub-account, so that the history and
 * the broker list hold one. (The earn records of each type are compared where a subscription is made and redeemed:
 * earn-redemption.spec.ts.)
 */
import type { RequirementId } from '../../generated/unified-exchange.ts';
import { isAccepted, needAccepted } from '../../harness/answers.ts';
import { fitTimeout } from '../../harness/budget.ts';
import type { KeyRole } from '../../interfaces/unified-exchange/settings.ts';
import { idText, loan, rowsOf } from './fund-requests.ts';
import { FUNDS_LEASE, takeLease } from './leases.ts';
import { askValid, takeBrokerRate } from './patient.ts';
import { rolesOf, settingsOf } from './profile.ts';
import { shareNone, type Asked } from './record-sets.ts';
import { freshSubName, orderIdOf, recentWindow, servedOp, withQuery } from './requests.ts';
import { uxScope } from './scope.ts';
import { announce, type Announced } from './fund-undo.ts';
import { reqTags } from './tags.ts';
import { guarded } from './guarded.ts';
import { test } from './test.ts';

const DAY = 24 * 3600_000;
const HELD = 'records in one of two answers that must not share any';

/** One question of a comparison: its operation, key and query. */
interface Question {
  operationId: string;
  credential: KeyRole;
  query: Record<string, string | number>;
  what: string;
}

test.describe('records by range and filter', () => {
  test(
    'records: two ranges that do not meet, or two values of one filter, share no record',
    { tag: reqTags('U-RECORDS-IN-RANGE', 'U-RECORDS-FILTERED') },
    async ({ api, spec, profile, target, writes, identity, verify, notApplicable, note, recorder }, testInfo) => guarded(recorder, testInfo, async () => {
      const s = settingsOf(profile);
      const roles = rolesOf(profile);
      const reader: KeyRole | undefined = roles.includes('trade') ? 'trade' : roles.includes('read') ? 'read' : undefined;
      if (!reader) {
        for (const id of ['U-RECORDS-IN-RANGE', 'U-RECORDS-FILTERED'] as RequirementId[]) notApplicable(id, 'the profile names no key of the main account (credentials.trade or credentials.read)');
        return;
      }
      fitTimeout(testInfo, { requests: 40, waitMs: 5_000 }, profile, !target.reference);
      const scope = uxScope(s, { writes: profile.writes && writes.allowed, roles });
      const may = (op: string) => profile.writes && writes.allowed && s.funded && roles.includes('trade') && s.fundWrites.includes(op);
      const path = (operationId: string) => servedOp(spec, operationId).path;
      const ask = async (q: Question): Promise<Asked> => {
        const reply = await askValid(api, { method: 'GET', path: withQuery(path(q.operationId), q.query), authenticate: true, credential: q.credential, label: q.what }, s);
        needAccepted(reply, q.what);
        return { what: q.what, reply, operationId: q.operationId };
      };
      const compare = async (id: RequirementId, questions: Question[], seen: (o: string) => void) => {
        const asked: Asked[] = [];
        for (const q of questions) asked.push(await ask(q));
        if (shareNone(id, asked, s)) seen(HELD);
      };

      const now = Date.now();
      const lastWeek = { startTime: String(now - 7 * DAY), endTime: String(now) };
      const weekBefore = { startTime: String(now - 14 * DAY), endTime: String(now - 7 * DAY - 1) };
      const { quote, base } = s.markets.coins;

      await verify('U-RECORDS-IN-RANGE', async (seen) => {
        for (const [operationId, query, what] of [
          ['getDepositRecords', {}, 'deposit records'],
          ['getFinancialRecords', { category: 'SPOT', limit: s.paging.maxLimit }, 'SPOT financial records'],
        ] as const) {
          await compare('U-RECORDS-IN-RANGE', [
            { operationId, credential: reader, query: { ...query, ...lastWeek }, what: `the ${what} of the last week` },
            { operationId, credential: reader, query: { ...query, ...weekBefore }, what: `the ${what} of the week before` },
          ], seen);
        }
      }, { needs: [HELD] });

      // A loan repaid in full and a broker sub-account of the run's own, for the history and the broker list to hold.
      const releaseFunds = await takeLease(identity, FUNDS_LEASE, 'a loan for the loan history');
      let journal: Announced | undefined;
      try {
        if (may('borrow') && may('repayLoan')) {
          const send = (operationId: string, json: unknown, label: string) => api.send({ method: 'POST', path: path(operationId), json, authenticate: true, credential: 'trade', label });
          const undo = (journal = announce(writes, api, servedOp(spec, 'borrow').key, { kind: 'loan', credential: 'trade' }, 'a loan for the loan history'));
          const lent = await send('borrow', loan(s), `a loan of ${String(loan(s).loanAmount)} ${quote}, for the loan history`);
          const orderId = isAccepted(lent) ? orderIdOf(lent.json) : undefined;
          if (orderId) {
            undo.made(orderId);
            const repaid = await send('repayLoan', { orderId, method: 'borrowed_coin', repayAll: 'yes' }, `repay loan ${orderId} in full`);
            if (isAccepted(repaid)) undo.undone();
            else note(`loan ${orderId} could not be repaid (${repaid.status}): it is tried once more`);
          }
        }
      } finally {
        await journal?.undoNow('repay the loan in full (undo)');
        releaseFunds();
      }
      const broker = roles.includes('broker') && !scope.requirements['U-BROKER-LIST'];
      if (broker && may('createBrokerSubAccount')) {
        const release = await takeBrokerRate(identity, 'a broker sub-account for the status filter');
        try {
          await api.send({ method: 'POST', path: path('createBrokerSubAccount'), json: { subaccountName: freshSubName(), label: 'conformance' }, authenticate: true, credential: 'broker', label: 'a broker sub-account, for the status filter' });
        } finally {
          release();
        }
      }

      await verify('U-RECORDS-FILTERED', async (seen) => {
        // The last week up to now: the loan was made after the ranges above were set.
        const week = recentWindow();
        await compare('U-RECORDS-FILTERED', [quote, base].map((coin) => ({ operationId: 'getDepositRecords', credential: reader, query: { ...week, coin }, what: `the deposit records of ${coin} of the last week` })), seen);
        await compare('U-RECORDS-FILTERED', [quote, base].map((coin) => ({ operationId: 'getFinancialRecords', credential: reader, query: { ...week, category: 'SPOT', coin, limit: s.paging.maxLimit }, what: `the SPOT financial records of ${coin} of the last week` })), seen);
        await compare('U-RECORDS-FILTERED', ['SPOT', 'MARGIN'].map((category) => ({ operationId: 'getFinancialRecords', credential: reader, query: { ...week, category, limit: s.paging.maxLimit }, what: `the ${category} financial records of the last week` })), seen);
        // Two deposits' own orderIds (the member that carries it is open: orderId, or id where the profile's reading names it so).
        const all = await ask({ operationId: 'getDepositRecords', credential: reader, query: week, what: 'the deposit records of the last week, for two orderIds' });
        const ids = [...new Set(rowsOf(all.reply.json, 'getDepositRecords', s).map((row) => idText(row.orderId) ?? idText(row.id)).filter((id): id is string => id !== undefined))].slice(0, 2);
        if (ids.length === 2) await compare('U-RECORDS-FILTERED', ids.map((orderId) => ({ operationId: 'getDepositRecords', credential: reader, query: { ...week, orderId }, what: `the deposit records of orderId ${orderId}` })), seen);
        await compare('U-RECORDS-FILTERED', ['ROLLBACK', 'FORCE', 'REPAY'].map((status) => ({ operationId: 'getLoanHistory', credential: reader, query: { ...week, status }, what: `the loan history of status ${status} of the last week` })), seen);
        if (!broker) return;
        const release = await takeBrokerRate(identity, 'the broker sub-accounts by status');
        try {
          await compare('U-RECORDS-FILTERED', ['normal', 'freeze'].map((status) => ({ operationId: 'listBrokerSubAccounts', credential: 'broker' as const, query: { status, limit: s.paging.maxLimit }, what: `the broker sub-accounts of status ${status}` })), seen);
        } finally {
          release();
        }
      }, { needs: [HELD] });
    }),
  );
});
