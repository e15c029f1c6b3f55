/**
 * "Amounts, prices, quantities and time stamps are strings; time stamps are Unix milliseconds. The response payload
 * is in a member named `data`." The response-schema check already holds every answer to the spec's schemas; this
 * test names the conventions' requirements and judges them over the reads the suite can get cheaply, one of each
 * kind of record the document names an amount or a time of. The envelope's other members are open (U-NS-ENVELOPE):
 * the success indicator is judged only where the profile states it.
 */
import { isAccepted, refused } from '../../harness/answers.ts';
import { deviation, Inconclusive, NotTested } from '../../harness/verdicts.ts';
import type { Reply } from '../../harness/http/client.ts';
import { guarded } from './guarded.ts';
import { undecidedWhy as decidesNothing } from '../../harness/answers.ts';
import { test } from './test.ts';
import { reqTags } from './tags.ts';
import { hasRole } from './auth.ts';
import { sendPatiently } from './patient.ts';
import { settingsOf, stated } from './profile.ts';
import { BOOK_CATEGORIES, withQuery, type Settings } from './requests.ts';
import { CATEGORIES } from '../../interfaces/unified-exchange/settings.ts';
import { rowsOf } from './market.ts';

const DECIMAL = /^-?\d+(\.\d+)?$/;
const MILLIS = /^\d{13}$/;

interface Read {
  operationId: string;
  path: string;
  role?: string;
  /** Members of each row (or of data itself: `rows` false) that are amounts and times; a candle's by index. */
  amounts: Array<string | number>;
  times: Array<string | number>;
  rows: boolean;
}

/** One read of each kind of record whose amounts or times the document names. */
function reads(s: Settings): Read[] {
  const sym = s.markets.symbols;
  const candle = (op: string, path: string): Read => ({ operationId: op, path: withQuery(path, { category: 'SPOT', symbol: sym.SPOT, interval: '1m', limit: 10 }), amounts: [1, 2, 3, 4, 5], times: [0], rows: true });
  return [
    { operationId: 'getServerTime', path: '/api/v3/public/time', amounts: [], times: ['serverTime'], rows: false },
    ...BOOK_CATEGORIES.map((category): Read => ({ operationId: 'getTickers', path: withQuery('/api/v3/market/tickers', { category }), amounts: ['lastPr'], times: [], rows: true })),
    ...CATEGORIES.map((category): Read => ({ operationId: 'getMarketFills', path: withQuery('/api/v3/market/fills', { category, limit: 10 }), amounts: ['price', 'size'], times: [], rows: true })),
    candle('getCandles', '/api/v3/market/candles'),
    candle('getHistoryCandles', '/api/v3/market/history-candles'),
    { operationId: 'getFundingRateHistory', path: withQuery('/api/v3/market/history-fund-rate', { category: 'USDT-FUTURES', symbol: sym['USDT-FUTURES'], limit: 10 }), amounts: [], times: ['fundingTime'], rows: true },
    { operationId: 'getOngoingLoans', path: '/api/v3/loan/borrow-ongoing', role: 'trade', amounts: ['loanAmount'], times: [], rows: true },
    { operationId: 'getEarnProducts', path: '/api/v3/earn/elite-product', role: 'trade', amounts: ['minSubscribeAmount'], times: [], rows: true },
    // The account snapshots: no amount the document names, but their payload is in data too.
    { operationId: 'getAccountAssets', path: '/api/v3/account/assets', role: 'trade', amounts: [], times: [], rows: false },
    { operationId: 'getFundingAssets', path: withQuery('/api/v3/account/funding-assets', { coin: s.markets.coins.quote }), role: 'trade', amounts: [], times: [], rows: false },
    { operationId: 'listP2pAds', path: withQuery('/api/v3/p2p/ad-list', { token: s.markets.coins.quote, fiat: 'USD', side: 'buy', pageNum: s.p2p.firstPage, limit: 10 }), role: 'trade', amounts: ['price', 'quantity'], times: [], rows: true },
  ];
}

test('amounts, prices, quantities and times are strings; the payload is in data', { tag: reqTags('U-CONV-STRINGS', 'U-CONV-MILLIS', 'U-CONV-DATA', 'U-ENV-INDICATOR') }, async ({ api, secrets, profile, verify, notApplicable, recorder }, testInfo) => guarded(recorder, testInfo, async () => {
  const s = settingsOf(profile);
  const listsStated = stated(profile, 'lists');
  const answers: Array<{ read: Read; r: Reply }> = [];
  for (const read of reads(s)) {
    if (read.role && !hasRole(secrets, read.role)) continue;
    answers.push({ read, r: await sendPatiently(api, { method: 'GET', path: read.path, authenticate: Boolean(read.role), credential: read.role, label: `${read.operationId}: its amounts and times` }, s) });
  }
  const accepted = answers.filter(({ r }) => isAccepted(r));
  // Nothing answered but by trouble (a throttle, a server error): the rules are undecided, not "no read accepted".
  const trouble = answers.map(({ read, r }) => decidesNothing(r, read.operationId)).find((why) => why !== undefined);
  if (accepted.length === 0 && trouble) throw new Inconclusive(trouble);

  /** Every value of the members named, over the answers' rows, that is not a string of the form. */
  const judge = (kind: 'amounts' | 'times', form: RegExp, seen: (what: string) => void) => {
    const bad: string[] = [];
    const evidence = [];
    for (const { read, r } of accepted) {
      const data = (r.json as { data?: unknown } | undefined)?.data;
      const rows = read.rows ? rowsOf(data, listsStated ? s.lists?.[read.operationId] : undefined) : [data];
      for (const row of rows) {
        for (const member of read[kind]) {
          const v = (row as Record<string | number, unknown> | null)?.[member];
          if (v === undefined || v === null) continue; // absent: the schema check's to judge
          seen(`a documented ${kind === 'amounts' ? 'amount' : 'time stamp'} in an answer`);
          if (typeof v !== 'string' || !form.test(v)) {
            bad.push(`${read.operationId} ${member}: ${JSON.stringify(v)}`);
            evidence.push(r.exchange);
          }
        }
      }
    }
    if (bad.length) throw deviation(`${bad.length} value(s) not ${kind === 'amounts' ? 'decimal strings' : 'strings of Unix milliseconds'}: ${[...new Set(bad)].slice(0, 8).join('; ')}`, kind === 'amounts' ? 'a JSON string holding a decimal number' : 'a JSON string of 13 digits', [...new Set(evidence)]);
  };
  await verify('U-CONV-STRINGS', (seen) => judge('amounts', DECIMAL, seen), { needs: ['a documented amount in an answer'] });
  await verify('U-CONV-MILLIS', (seen) => judge('times', MILLIS, seen), { needs: ['a documented time stamp in an answer'] });

  await verify('U-CONV-DATA', () => {
    if (accepted.length === 0) throw new NotTested('no read was accepted');
    const bare = accepted.filter(({ r }) => !r.json || typeof r.json !== 'object' || Array.isArray(r.json) || !('data' in (r.json as object)));
    if (bare.length) throw deviation(`${bare.length} success answer(s) without a member data: ${bare.map(({ read, r }) => `${read.operationId}: ${r.text.slice(0, 100)}`).join('; ')}`, 'a JSON object whose payload is in data', bare.map(({ r }) => r.exchange));
  });

  if (!stated(profile, 'envelope')) {
    notApplicable('U-ENV-INDICATOR', 'the profile does not state the success indicator (settings.envelope; U-NS-ENVELOPE): nothing beyond data is asserted');
    return;
  }
  await verify('U-ENV-INDICATOR', async () => {
    if (accepted.length === 0) throw new NotTested('no read was accepted');
    // A refusal every reading gives: a private read without any credential.
    const refusal = await api.send({ method: 'GET', path: '/api/v3/account/info', label: 'a refusal: account information without credentials' });
    // refused() throws for a throttle or a server error: false is an acceptance.
    if (!refused(refusal, 'a private read without credentials')) throw new NotTested(`a private read without credentials was accepted (${refusal.status}): no refusal to look at`);
    if (s.envelope !== 'code-00000') return; // http-status-only: the status is the indicator, and the answers are classified by it
    const codeOf = (r: Reply) => (r.json as { code?: unknown } | undefined)?.code;
    const without = accepted.filter(({ r }) => codeOf(r) !== '00000');
    if (without.length) throw deviation(`${without.length} success answer(s) without code "00000": ${without.map(({ read, r }) => `${read.operationId}: code ${JSON.stringify(codeOf(r))}`).join('; ')}`, 'code "00000" (settings.envelope: code-00000)', without.map(({ r }) => r.exchange));
    if (codeOf(refusal) === '00000') throw deviation(`a refusal (${refusal.status}) carries code "00000"`, 'a code of its own', [refusal.exchange]);
  });
}));
