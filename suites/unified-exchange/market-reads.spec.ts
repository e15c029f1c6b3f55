/**
 * Public market-data reads beyond the book and the candles: tickers, instruments and fills asked for one symbol, the
 * fills' limit, the current funding rate ("data is an array"), the funding history paged, the candles' type ("MARKET
 * (default)"), the required parameters and the category values an operation lists, and the value lists of filters
 * (fee-group's group, the loan history's and the broker sub-list's status). A few reads each; every refusal is
 * judged beside its control, the same request with the one thing made right.
 */
import { accepted, mustAccept, mustBeRefused, needAccepted } from '../../harness/answers.ts';
import { deviation, NotTested } from '../../harness/verdicts.ts';
import type { Reply, RequestSpec } from '../../harness/http/client.ts';
import type { Category } from '../../interfaces/unified-exchange/settings.ts';
import { test } from './test.ts';
import { reqTags } from './tags.ts';
import { hasRole } from './auth.ts';
import { askValid, sendPatiently, takeBrokerRate } from './patient.ts';
import { settingsOf, stated } from './profile.ts';
import { BOOK_CATEGORIES, recentWindow, withQuery, type Settings } from './requests.ts';
import { holdsNoRecords, rowsOf } from './market.ts';
import { guarded } from './guarded.ts';

const M = '/api/v3/market';
const FUTURES: Category[] = ['USDT-FUTURES', 'COIN-FUTURES', 'USDC-FUTURES'];
const dataOf = (r: Reply): unknown => (r.json as { data?: unknown } | undefined)?.data;
const get = (path: string, label: string, o: Partial<RequestSpec> = {}): RequestSpec => ({ method: 'GET', path, label, ...o });

/** The rows of a list answer, where the profile says they are (settings.lists), else data or its only array. */
function rows(profile: Parameters<typeof stated>[0], s: Settings, operationId: string, r: Reply): unknown[] {
  return rowsOf(dataOf(r), stated(profile, 'lists') ? s.lists?.[operationId] : undefined);
}

/**
 * The rows that name another symbol than the one asked for. Which member names a record's symbol is open for some
 * records (U-NS-RECORD-MEMBERS): a member is taken to name it where some row holds the symbol asked for in it; a row
 * holding another text in that member is another symbol's. `named` says whether any row named the symbol at all.
 */
function otherSymbols(list: unknown[], symbol: string): { named: boolean; others: string[] } {
  const objects = list.filter((row): row is Record<string, unknown> => Boolean(row) && typeof row === 'object' && !Array.isArray(row));
  const members = new Set(objects.flatMap((row) => Object.keys(row).filter((k) => row[k] === symbol)));
  const others = objects.flatMap((row) => [...members].filter((k) => typeof row[k] === 'string' && row[k] !== symbol).map((k) => `${k} ${String(row[k])}`));
  return { named: members.size > 0, others };
}

test.describe('one symbol asked for', () => {
  test('tickers with symbol hold that symbol only', { tag: reqTags('U-MKT-TICKERS-SYMBOL') }, async ({ api, profile, verify }) => {
    const s = settingsOf(profile);
    await verify('U-MKT-TICKERS-SYMBOL', async () => {
      for (const category of BOOK_CATEGORIES) {
        const symbol = s.markets.symbols[category];
        const path = withQuery(`${M}/tickers`, { category, symbol });
        const r = await askValid(api, get(path, `the ${category} ticker of ${symbol}`), s);
        mustAccept(r, `GET ${path}`, { expected: `the ticker of ${symbol}` });
        const list = rows(profile, s, 'getTickers', r);
        const named = list.filter((row) => (row as { symbol?: unknown } | null)?.symbol === symbol);
        const others = list.filter((row) => (row as { symbol?: unknown } | null)?.symbol !== symbol).map((row) => JSON.stringify((row as { symbol?: unknown } | null)?.symbol));
        if (others.length) throw deviation(`GET ${path} holds ${others.length} ticker(s) of other symbols: ${others.slice(0, 5).join(', ')}`, `only the ticker of ${symbol}`, [r.exchange]);
        if (named.length === 0) throw deviation(`GET ${path} holds no ticker of ${symbol}`, `the ticker of ${symbol} (symbol, lastPr)`, [r.exchange]);
      }
    });
  });

  test('instruments of each category; with symbol, that instrument only', { tag: reqTags('U-MKT-INSTRUMENTS') }, async ({ api, profile, verify }) => {
    const s = settingsOf(profile);
    await verify('U-MKT-INSTRUMENTS', async (seen) => {
      for (const category of ['SPOT', 'MARGIN', ...FUTURES] as Category[]) {
        const all = await askValid(api, get(withQuery(`${M}/instruments`, { category }), `the ${category} instruments`), s);
        mustAccept(all, `the ${category} instruments`, { expected: 'a success' });
      }
      for (const category of ['SPOT', 'USDT-FUTURES'] as Category[]) {
        const symbol = s.markets.symbols[category];
        const path = withQuery(`${M}/instruments`, { category, symbol });
        const r = await askValid(api, get(path, `the ${category} instrument ${symbol}`), s);
        mustAccept(r, `GET ${path}`, { expected: `the instrument ${symbol}` });
        const { named, others } = otherSymbols(rows(profile, s, 'getInstruments', r), symbol);
        if (!named) continue; // no record names its symbol: which instrument it is cannot be told
        seen('an instrument that names its symbol');
        if (others.length) throw deviation(`GET ${path} holds instruments of other symbols: ${others.slice(0, 5).join(', ')}`, `only the instrument of ${symbol}`, [r.exchange]);
      }
    }, { needs: ['an instrument that names its symbol'] });
  });
});

test('fills with limit n hold at most n fills', { tag: reqTags('U-MKT-FILLS-LIMIT') }, async ({ api, profile, verify }) => {
  const s = settingsOf(profile);
  const category: Category = 'SPOT';
  const symbol = s.markets.symbols[category];
  await verify('U-MKT-FILLS-LIMIT', async (seen) => {
    // How many fills there are to serve: a limit below that count is one the answer could overrun.
    const all = await askValid(api, get(withQuery(`${M}/fills`, { category, symbol }), `the ${category} fills of ${symbol}`), s);
    needAccepted(all, 'the fills without limit');
    const available = rows(profile, s, 'getMarketFills', all).length;
    for (const limit of [1, 3].filter((n) => n < available)) {
      const path = withQuery(`${M}/fills`, { category, symbol, limit });
      const r = await askValid(api, get(path, `the ${category} fills, limit ${limit}`), s);
      mustAccept(r, `GET ${path}`, { expected: `at most ${limit} fills` });
      const n = rows(profile, s, 'getMarketFills', r).length;
      seen('a limit below the fills there are');
      if (n > limit) throw deviation(`GET ${path} holds ${n} fills`, `at most ${limit}`, [r.exchange]);
    }
  }, { needs: ['a limit below the fills there are'] });
});

test('the current funding rate is an array whose every element carries fundingRate', { tag: reqTags('U-MKT-FUND-RATE') }, async ({ api, profile, verify }) => {
  const s = settingsOf(profile);
  await verify('U-MKT-FUND-RATE', async () => {
    for (const category of FUTURES) {
      const path = withQuery(`${M}/current-fund-rate`, { symbol: s.markets.symbols[category] });
      const r = await askValid(api, get(path, `the current funding rate of the ${category} symbol`), s);
      mustAccept(r, `GET ${path}`, { expected: 'data, an array of funding rates' });
      const data = dataOf(r);
      if (!Array.isArray(data)) throw deviation(`GET ${path}: data is ${data === null ? 'null' : typeof data}: ${JSON.stringify(data)?.slice(0, 200)}`, 'an array (the document: "data is an array")', [r.exchange]);
      const without = data.filter((e) => !e || typeof e !== 'object' || !('fundingRate' in e));
      if (without.length) throw deviation(`GET ${path}: ${without.length} element(s) without fundingRate`, 'every element carries fundingRate', [r.exchange]);
    }
  });
});

test('the funding-rate history paged gives each row once', { tag: reqTags('U-MKT-FUND-HISTORY-PAGING') }, async ({ api, profile, verify }) => {
  const s = settingsOf(profile);
  const category: Category = 'USDT-FUTURES';
  const symbol = s.markets.symbols[category];
  const limit = 5;
  await verify('U-MKT-FUND-HISTORY-PAGING', async (seen) => {
    const times = new Map<string, number>();
    let cursor: string | undefined;
    for (let page = 1; page <= 3; page++) {
      const path = withQuery(`${M}/history-fund-rate`, { category, symbol, limit, cursor });
      const r = await askValid(api, get(path, `the funding history, page ${page}`), s);
      mustAccept(r, `GET ${path}`, { expected: `a page of at most ${limit} rows` });
      const list = rows(profile, s, 'getFundingRateHistory', r) as Array<{ fundingTime?: unknown } | null>;
      if (list.length > limit) throw deviation(`GET ${path} holds ${list.length} rows`, `at most ${limit}`, [r.exchange]);
      if (list.length === 0) break;
      for (const row of list) {
        const t = String(row?.fundingTime);
        if (times.has(t)) throw deviation(`fundingTime ${t} is on page ${times.get(t)} and again on page ${page}`, 'each row once', [r.exchange]);
        times.set(t, page);
      }
      if (page > 1) seen('a second page');
      // The next cursor: where the answer hands one out (data.cursor), else the last row's fundingTime (U-NS-CURSOR-PAGING).
      const data = dataOf(r) as { cursor?: unknown } | unknown[] | undefined;
      const given = !Array.isArray(data) && data && typeof data === 'object' ? (data as { cursor?: unknown }).cursor : undefined;
      if (given === '' || given === null) break; // the last page
      cursor = typeof given === 'string' || typeof given === 'number' ? String(given) : String(list[list.length - 1]?.fundingTime);
    }
  }, { needs: ['a second page'] });
});

test('candles without type are the MARKET candles; MARK and INDEX are answered', { tag: reqTags('U-MKT-CANDLES-TYPE') }, async ({ api, profile, verify }) => {
  const s = settingsOf(profile);
  // A closed window an hour back: its candles no longer change.
  const minute = 60_000;
  const endTime = Math.floor(Date.now() / minute) * minute - 3600_000;
  const query = (type?: string) => withQuery(`${M}/candles`, { category: 'SPOT', symbol: s.markets.symbols.SPOT, interval: '1m', startTime: endTime - 9 * minute, endTime, limit: 10, type });
  await verify('U-MKT-CANDLES-TYPE', async () => {
    const answers: Record<string, Reply> = {};
    for (const type of [undefined, 'MARKET', 'MARK', 'INDEX']) {
      const r = await askValid(api, get(query(type), `1m candles, ${type ? `type ${type}` : 'no type'}`), s);
      mustAccept(r, `GET ${query(type)}`, { expected: 'candles' });
      answers[type ?? 'none'] = r;
    }
    // The first six elements (timestamp, open, high, low, close, volume), in time order: either order is a reading.
    const six = (r: Reply) => JSON.stringify((Array.isArray(dataOf(r)) ? (dataOf(r) as unknown[]) : []).map((c) => (Array.isArray(c) ? c.slice(0, 6).map(String) : c)).sort());
    const market = answers.MARKET!;
    const none = answers.none!;
    if ((dataOf(market) as unknown[] | undefined)?.length === 0) throw new NotTested('the MARKET candles of the window are none: nothing to compare');
    if (six(none) !== six(market)) throw deviation(`the candles without type differ from the MARKET candles: ${six(none).slice(0, 160)} vs ${six(market).slice(0, 160)}`, 'the same candles as type MARKET (the default)', [none.exchange, market.exchange]);
  });
});

test.describe('required parameters and listed values', () => {
  test('orderbook, candles and history-candles without symbol are refused', { tag: reqTags('U-MKT-BOOK-REQUIRED') }, async ({ api, profile, verify }) => {
    const s = settingsOf(profile);
    await verify('U-MKT-BOOK-REQUIRED', async () => {
      for (const op of ['orderbook', 'candles', 'history-candles']) {
        const q = { category: 'SPOT', ...(op === 'orderbook' ? {} : { interval: '1m', limit: 5 }) };
        const r = await api.send(get(withQuery(`${M}/${op}`, q), `${op} without symbol`));
        const control = await askValid(api, get(withQuery(`${M}/${op}`, { ...q, symbol: s.markets.symbols.SPOT }), `${op} with symbol: the control`), s);
        mustBeRefused('U-MKT-BOOK-REQUIRED', r, `GET ${op} without symbol`, { control });
      }
    });
  });

  test('a category the operation does not list is refused or answered with no records', { tag: reqTags('U-MKT-CATEGORY-UNLISTED') }, async ({ api, profile, verify }) => {
    const s = settingsOf(profile);
    const sym = s.markets.symbols;
    const unlistedStated = stated(profile, 'unlistedCategory') ? s.unlistedCategory : undefined;
    // Each operation with a category value it does not list, and the same request with one it lists (the control).
    const cases: Array<{ op: string; unlisted: Record<string, string | number>; listed: Record<string, string | number> }> = [
      { op: 'tickers', unlisted: { category: 'MARGIN' }, listed: { category: 'SPOT' } },
      { op: 'orderbook', unlisted: { category: 'MARGIN', symbol: sym.MARGIN }, listed: { category: 'SPOT', symbol: sym.SPOT } },
      { op: 'candles', unlisted: { category: 'MARGIN', symbol: sym.MARGIN, interval: '1m', limit: 5 }, listed: { category: 'SPOT', symbol: sym.SPOT, interval: '1m', limit: 5 } },
      { op: 'history-fund-rate', unlisted: { category: 'SPOT', symbol: sym.SPOT }, listed: { category: 'USDT-FUTURES', symbol: sym['USDT-FUTURES'] } },
      { op: 'open-interest', unlisted: { category: 'SPOT' }, listed: { category: 'USDT-FUTURES' } },
      { op: 'position-tier', unlisted: { category: 'SPOT' }, listed: { category: 'USDT-FUTURES' } },
    ];
    await verify('U-MKT-CATEGORY-UNLISTED', async () => {
      for (const c of cases) {
        const what = `GET ${c.op} with category ${c.unlisted.category}, which it does not list`;
        const r = await sendPatiently(api, get(withQuery(`${M}/${c.op}`, c.unlisted), `${c.op}, category ${c.unlisted.category}`), s);
        if (accepted(r, what)) {
          if (unlistedStated === 'refused') throw deviation(`${what} was accepted (${r.status})`, 'a refusal (settings.unlistedCategory: refused)', [r.exchange]);
          if (!holdsNoRecords(dataOf(r))) throw deviation(`${what} was answered with records: ${r.text.slice(0, 200)}`, unlistedStated === 'empty' ? 'no records (settings.unlistedCategory: empty)' : 'a refusal, or no records', [r.exchange]);
          continue;
        }
        if (unlistedStated === 'empty') throw deviation(`${what} was refused (${r.status})`, 'a success with no records (settings.unlistedCategory: empty)', [r.exchange]);
        const control = await askValid(api, get(withQuery(`${M}/${c.op}`, c.listed), `${c.op}, category ${c.listed.category}: the control`), s);
        mustBeRefused('U-MKT-CATEGORY-UNLISTED', r, what, { control });
      }
    });
  });

  test('fee-group without category, or with a group it does not list, is refused', { tag: reqTags('U-MKT-FEE-GROUP-REQUIRED') }, async ({ api, profile, verify }) => {
    const s = settingsOf(profile);
    await verify('U-MKT-FEE-GROUP-REQUIRED', async () => {
      const none = await api.send(get(withQuery(`${M}/fee-group`, {}), 'fee-group without category'));
      const spot = await askValid(api, get(withQuery(`${M}/fee-group`, { category: 'SPOT' }), 'fee-group, category SPOT: the control'), s);
      mustBeRefused('U-MKT-FEE-GROUP-REQUIRED', none, 'GET fee-group without category', { control: spot });
      const odd = await api.send(get(withQuery(`${M}/fee-group`, { category: 'SPOT', group: 'GROUP_Z' }), 'fee-group, group GROUP_Z'));
      const listed = await askValid(api, get(withQuery(`${M}/fee-group`, { category: 'SPOT', group: 'GROUP_A' }), 'fee-group, group GROUP_A: the control'), s);
      mustBeRefused('U-MKT-FEE-GROUP-REQUIRED', odd, 'GET fee-group with group GROUP_Z', { control: listed });
    });
  });

  test('a loan history status outside ROLLBACK, FORCE and REPAY is refused', { tag: reqTags('U-LOAN-HISTORY-STATUS') }, async ({ api, profile, verify }) => {
    const s = settingsOf(profile);
    const path = (status: string) => withQuery('/api/v3/loan/borrow-history', { ...recentWindow(), status });
    await verify('U-LOAN-HISTORY-STATUS', async () => {
      const r = await api.send(get(path('EXPIRED'), 'the loan history, status EXPIRED', { authenticate: true }));
      const control = await sendPatiently(api, get(path('REPAY'), 'the loan history, status REPAY: the control', { authenticate: true }), s);
      mustBeRefused('U-LOAN-HISTORY-STATUS', r, 'GET borrow-history with status EXPIRED', { control });
    });
  });

  test('a broker sub-list status outside normal and freeze is refused', { tag: reqTags('U-BROKER-LIST-STATUS') }, async ({ api, profile, secrets, spec, identity, verify, notApplicable, recorder }, testInfo) => guarded(recorder, testInfo, async () => {
    if (!hasRole(secrets, 'broker')) return notApplicable('U-BROKER-LIST-STATUS', 'the profile names no key of a broker master account (credentials.broker)');
    const s = settingsOf(profile);
    const op = spec.operations.find((o) => o.operationId === 'listBrokerSubAccounts');
    const path = (status: string) => withQuery(op?.path ?? '/api/v3/broker/sub-list', { limit: 1, status });
    const release = await takeBrokerRate(identity, 'the broker sub-list status');
    await verify('U-BROKER-LIST-STATUS', async () => {
      const r = await api.send(get(path('closed'), 'broker sub-accounts, status closed', { authenticate: true, credential: 'broker' }));
      const control = await sendPatiently(api, get(path('normal'), 'broker sub-accounts, status normal: the control', { authenticate: true, credential: 'broker' }), s);
      mustBeRefused('U-BROKER-LIST-STATUS', r, 'GET broker sub-list with status closed', { control });
    }).finally(release);
  }));
});
