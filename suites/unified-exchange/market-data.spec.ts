/**
 * Public market data: the order book ("bids, asks: lists of price levels, index 0 is the best"; "levels per side;
 * default 150"), the candles ("at most 1000"; the ten intervals; history-candles "reaches further back in time") and
 * the server time. The rules over requests a client may choose (a limit, an interval, a window) are properties over
 * generated requests; each is cheap, one read a case.
 */
import fc from 'fast-check';
import { fitTimeout } from '../../harness/budget.ts';
import { depthFactor } from '../../harness/options.ts';
import { accepted, answerKind, controlAccepted, describeAnswer, mustAccept, needAccepted } from '../../harness/answers.ts';
import { deviation, NotTested, RequirementViolation } from '../../harness/verdicts.ts';
import type { Reply } from '../../harness/http/client.ts';
import type { Category } from '../../interfaces/unified-exchange/settings.ts';
import { test } from './test.ts';
import { reqTags, type RequirementId } from './tags.ts';
import { settingsOf, stated } from './profile.ts';
import { BOOK_CATEGORIES, withQuery } from './requests.ts';
import { mayBeThrottled, sendPatiently } from './patient.ts';
import { candleTimes, INTERVAL_MS, INTERVALS, levelPrices, type Interval } from './market.ts';
import { undecidedWhy as decidesNothing } from '../../harness/answers.ts';
import { guarded } from './guarded.ts';

const RUNS = 100;
const BOOK = '/api/v3/market/orderbook';
const CANDLES = { candles: '/api/v3/market/candles', history: '/api/v3/market/history-candles' } as const;

test.describe('order book', () => {
  const BOOK_RULES: RequirementId[] = ['U-MKT-BOOK', 'U-MKT-BOOK-BEST-FIRST', 'U-MKT-BOOK-NOT-CROSSED', 'U-MKT-BOOK-LIMIT'];
  test('property: each side best first, at most the limit asked, never crossed', { tag: reqTags(...BOOK_RULES) }, async ({ api, profile, target, property, reading }, testInfo) => {
    const s = settingsOf(profile);
    // Up to 150 every reading serves (it is the default); beyond it only as deep as the profile states (U-NS-BOOK-MAX-DEPTH).
    const maxLimit = stated(profile, 'book.maxDepth') ? s.book.maxDepth : 150;
    fitTimeout(testInfo, { requests: RUNS * depthFactor() * 2 }, profile, !target.reference);
    await property({
      id: 'unified-exchange-book',
      requirements: BOOK_RULES,
      arbitrary: fc.record({ category: fc.constantFrom(...BOOK_CATEGORIES), limit: fc.option(fc.integer({ min: 1, max: maxLimit }), { nil: undefined }) }),
      testing: () => BOOK_RULES,
      runs: RUNS,
      check: async ({ category, limit }, skip, saw) => {
        const path = withQuery(BOOK, { category, symbol: s.markets.symbols[category], limit });
        const r = await sendPatiently(api, { method: 'GET', path, label: `the ${category} book${limit ? `, ${limit} levels` : ''}` }, s);
        // A throttle (the profile's throttle status among them), a server error, a page that is not the API: the case
        // decides nothing of the book's rules, and says so.
        const nothing = decidesNothing(r, `GET ${path}`) ?? (mayBeThrottled(r, s) ? `GET ${path} was answered ${r.status}, the profile's throttle status (settings.refusalStatus.throttle): it decides nothing` : undefined);
        if (nothing) return BOOK_RULES.filter((id) => !skip.has(id)).forEach((id) => saw(id, nothing));
        const taken = answerKind(r) === 'accepted';
        // A book of the profile's symbol refused where the profile leaves the symbols to the defaults may rest on the
        // spelling (U-NS-MARKETS: BTC-USDT, say): no verdict from this case.
        if (!taken && !stated(profile, 'markets.symbols')) return;
        const judge = (id: RequirementId, ok: boolean, message: string, expected: string) => {
          if (skip.has(id)) return;
          if (!ok) throw new RequirementViolation(id, message, expected, [r.exchange]);
          saw(id);
        };
        const data = (r.json as { data?: { bids?: unknown; asks?: unknown } } | undefined)?.data;
        judge('U-MKT-BOOK', taken && Array.isArray(data?.bids) && Array.isArray(data?.asks), `GET ${path} was answered ${describeAnswer(r)} ${r.text.slice(0, 200)}`, 'data.bids and data.asks, lists of price levels');
        if (!taken || !Array.isArray(data?.bids) || !Array.isArray(data?.asks)) return;
        const bids = levelPrices(data.bids as unknown[]);
        const asks = levelPrices(data.asks as unknown[]);
        if (bids.shape) reading('U-NS-BOOK-LEVEL', bids.shape);
        if (limit !== undefined) judge('U-MKT-BOOK-LIMIT', data.bids.length <= limit && data.asks.length <= limit, `GET ${path} answered ${data.bids.length} bids and ${data.asks.length} asks`, `at most ${limit} per side`);
        // A level whose price cannot be read (neither shape of U-NS-BOOK-LEVEL) leaves the order unjudged.
        if (!bids.prices || !asks.prices) return;
        const falling = bids.prices.every((p, i) => i === 0 || p <= bids.prices![i - 1]);
        const rising = asks.prices.every((p, i) => i === 0 || p >= asks.prices![i - 1]);
        if (bids.prices.length > 1 || asks.prices.length > 1) {
          judge('U-MKT-BOOK-BEST-FIRST', falling && rising, `GET ${path}: ${falling ? '' : `bids not in falling order (${bids.prices.slice(0, 5).join(', ')}...)`}${rising ? '' : ` asks not in rising order (${asks.prices.slice(0, 5).join(', ')}...)`}`, 'bids falling, asks rising: index 0 the best');
        }
        if (bids.prices.length && asks.prices.length) judge('U-MKT-BOOK-NOT-CROSSED', bids.prices[0] < asks.prices[0], `GET ${path}: best bid ${bids.prices[0]}, best ask ${asks.prices[0]}`, 'the best bid below the best ask');
      },
    });
  });

  test('without limit: at most 150 levels a side, and 150 where the book is deeper', { tag: reqTags('U-LIMIT-BOOK-DEFAULT') }, async ({ api, profile, verify }) => {
    const s = settingsOf(profile);
    // Deeper than the default: as deep as the profile states, else 200 (the public exchange's; a refusal says nothing).
    const deep = stated(profile, 'book.maxDepth') ? s.book.maxDepth : 200;
    await verify('U-LIMIT-BOOK-DEFAULT', async (seen) => {
      for (const category of BOOK_CATEGORIES) {
        const symbol = s.markets.symbols[category];
        const deeper = await sendPatiently(api, { method: 'GET', path: withQuery(BOOK, { category, symbol, limit: deep }), label: `the ${category} book, ${deep} levels: is it deeper than 150?` }, s);
        const r = await sendPatiently(api, { method: 'GET', path: withQuery(BOOK, { category, symbol }), label: `the ${category} book without limit` }, s);
        needAccepted(r, `the ${category} book without limit`);
        const data = (r.json as { data?: Record<string, unknown> } | undefined)?.data ?? {};
        const deepData = answerKind(deeper) === 'accepted' ? ((deeper.json as { data?: Record<string, unknown> } | undefined)?.data ?? {}) : {};
        for (const side of ['bids', 'asks'] as const) {
          const n = Array.isArray(data[side]) ? (data[side] as unknown[]).length : 0;
          if (n > 150) throw deviation(`the ${category} book without limit has ${n} ${side}`, 'at most 150 levels a side', [r.exchange]);
          const available = Array.isArray(deepData[side]) ? (deepData[side] as unknown[]).length : 0;
          if (available > 150) {
            seen('a side deeper than 150 levels');
            if (n !== 150) throw deviation(`the ${category} book holds ${available} ${side} (asked for ${deep}), but without limit answered ${n}`, '150 levels: the documented default', [deeper.exchange, r.exchange]);
          }
        }
      }
    }, { needs: ['a side deeper than 150 levels'] });
  });
});

test.describe('candles', () => {
  const CANDLE_RULES: RequirementId[] = ['U-LIMIT-CANDLES', 'U-LIMIT-CANDLES-OVER', 'U-MKT-CANDLES-LIMIT', 'U-MKT-CANDLES-RANGE', 'U-MKT-CANDLES-INTERVAL'];
  const candleCase = fc.record({
    op: fc.constantFrom<keyof typeof CANDLES>('candles', 'history'),
    category: fc.constantFrom<Category>(...BOOK_CATEGORIES),
    interval: fc.constantFrom<Interval>(...INTERVALS),
    // Most limits within 1000, some above it (U-LIMIT-CANDLES-OVER), some left out (the default count).
    limit: fc.oneof({ weight: 5, arbitrary: fc.integer({ min: 1, max: 1000 }) }, { weight: 3, arbitrary: fc.integer({ min: 1001, max: 5000 }) }, { weight: 2, arbitrary: fc.constant(undefined) }),
    // A window counted in intervals back from now: its end, and its length.
    window: fc.option(fc.record({ endBack: fc.integer({ min: 0, max: 500 }), span: fc.integer({ min: 1, max: 1500 }) }), { nil: undefined }),
  });

  test('property: never more than 1000 nor than the limit, inside the window, on the interval', { tag: reqTags(...CANDLE_RULES) }, async ({ api, profile, target, property, reading }, testInfo) => {
    const s = settingsOf(profile);
    const overStated = stated(profile, 'candles.overLimit') ? s.candles.overLimit : undefined;
    fitTimeout(testInfo, { requests: RUNS * depthFactor() * 2 }, profile, !target.reference);
    await property({
      id: 'unified-exchange-candles',
      requirements: CANDLE_RULES,
      arbitrary: candleCase,
      testing: (c) => (c.limit !== undefined && c.limit > 1000 ? ['U-LIMIT-CANDLES-OVER', 'U-LIMIT-CANDLES'] : CANDLE_RULES.filter((id) => id !== 'U-LIMIT-CANDLES-OVER')),
      runs: RUNS,
      check: async (c, skip, saw) => {
        const step = INTERVAL_MS[c.interval];
        const now = Date.now();
        const over = c.limit !== undefined && c.limit > 1000;
        // A limit above 1000 is asked without a window: only a count beyond 1000 candles can show the cap.
        const window = over ? undefined : c.window && { endTime: Math.floor(now - c.window.endBack * step), startTime: Math.floor(now - (c.window.endBack + c.window.span) * step) };
        const query = (limit: number | undefined) => withQuery(CANDLES[c.op], { category: c.category, symbol: s.markets.symbols[c.category], interval: c.interval, startTime: window?.startTime, endTime: window?.endTime, limit });
        // An over-limit request is sent once: a refusal is one of its answers. The others are asked again after a throttle.
        const what = `${c.op} ${c.category} ${c.interval}${c.limit ? `, limit ${c.limit}` : ''}`;
        const r = await sendPatiently(api, { method: 'GET', path: query(c.limit), label: what }, s, c.limit !== undefined && c.limit > 1000 ? 1 : 3);
        // A throttle, a server error (GEN-NO-5XX judges it), a page that is not the API: nothing of these rules.
        const nothing = decidesNothing(r, what);
        if (nothing) return (over ? (['U-LIMIT-CANDLES-OVER'] as RequirementId[]) : CANDLE_RULES).filter((id) => !skip.has(id)).forEach((id) => saw(id, nothing));
        const fail = (id: RequirementId, message: string, expected: string, exchanges = [r.exchange]) => {
          if (!skip.has(id)) throw new RequirementViolation(id, message, expected, exchanges);
        };
        const taken = answerKind(r) === 'accepted';
        if (over) {
          if (!taken) {
            reading('U-NS-CANDLE-LIMIT-OVER', 'refused');
            if (overStated === 'capped') fail('U-LIMIT-CANDLES-OVER', `a limit of ${c.limit} was refused (${r.status})`, 'at most 1000 candles (settings.candles.overLimit: capped)');
            // A refusal counts beside its control: the same request at the largest limit documented.
            const control = await sendPatiently(api, { method: 'GET', path: query(1000), label: 'the same at limit 1000: the control' }, s);
            try {
              controlAccepted(control, `a limit of ${c.limit}`);
              saw('U-LIMIT-CANDLES-OVER');
            } catch (e) {
              saw('U-LIMIT-CANDLES-OVER', (e as Error).message);
            }
            return;
          }
        }
        // A request within the documented limits refused says nothing of these rules (U-MKT-CANDLES judges it).
        if (!taken) return;
        const times = candleTimes((r.json as { data?: unknown } | undefined)?.data);
        if (!times) return;
        if (times.length > 1000) {
          // More than 1000 breaks both rules where the request asked for more (the same evidence), else the limit alone.
          const ids = (over ? (['U-LIMIT-CANDLES-OVER', 'U-LIMIT-CANDLES'] as RequirementId[]) : (['U-LIMIT-CANDLES'] as RequirementId[])).filter((id) => !skip.has(id));
          if (ids.length) throw new RequirementViolation(ids, `${c.op}${over ? ` with a limit of ${c.limit}` : ''} answered ${times.length} candles`, 'at most 1000', [r.exchange]);
        }
        if (over) {
          reading('U-NS-CANDLE-LIMIT-OVER', 'capped');
          if (overStated === 'refused') fail('U-LIMIT-CANDLES-OVER', `a limit of ${c.limit} was accepted (${r.status})`, 'a refusal (settings.candles.overLimit: refused)');
          else if (times.length <= 1000) saw('U-LIMIT-CANDLES-OVER');
        }
        if (times.length <= 1000) saw('U-LIMIT-CANDLES');
        if (c.limit !== undefined && !over) {
          if (times.length > c.limit) fail('U-MKT-CANDLES-LIMIT', `limit ${c.limit} was answered ${times.length} candles`, `at most ${c.limit}`);
          saw('U-MKT-CANDLES-LIMIT');
        }
        if (window && times.length) {
          // Every candle overlaps the window, whichever bounds are inclusive (U-NS-CANDLE-BOUNDS).
          const outside = times.filter((t) => t > window.endTime || t + step <= window.startTime);
          if (outside.length) fail('U-MKT-CANDLES-RANGE', `${outside.length} candle(s) outside ${window.startTime}..${window.endTime}, e.g. ${outside[0]}`, `candles with timestamp <= endTime whose ${c.interval} ends after startTime`);
          saw('U-MKT-CANDLES-RANGE');
        }
        // Consecutive candles a whole number of intervals apart, in either order (U-NS-CANDLE-ORDER), gaps allowed; where
        // the grid lies is open (U-NS-CANDLE-ALIGNMENT), so only the spacing is judged.
        const sorted = [...times].sort((a, b) => a - b);
        if (sorted.length > 1) {
          const bad = sorted.findIndex((t, i) => i > 0 && (t === sorted[i - 1] || (t - sorted[i - 1]) % step !== 0));
          if (bad > 0) fail('U-MKT-CANDLES-INTERVAL', `${c.interval} candles at ${sorted[bad - 1]} and ${sorted[bad]}, ${sorted[bad] - sorted[bad - 1]} ms apart`, `a whole, non-zero multiple of ${step} ms`);
          saw('U-MKT-CANDLES-INTERVAL');
        }
      },
    });
  });

  test('history-candles reaches further back than candles', { tag: reqTags('U-MKT-HISTORY-CANDLES-REACH') }, async ({ api, profile, verify }) => {
    const s = settingsOf(profile);
    const symbol = s.markets.symbols.SPOT;
    const reach = s.candles.reachMs?.['1m'];
    const day = 24 * 3600_000;
    // How far back to look: just beyond the stated reach of 1m candles, else further and further until candles has nothing.
    const backs = reach ? [reach + day] : [2 * day, 40 * day, 400 * day];
    await verify('U-MKT-HISTORY-CANDLES-REACH', async () => {
      for (const back of backs) {
        const endTime = Date.now() - back;
        const window = { startTime: endTime - 100 * 60_000, endTime };
        const ask = (op: keyof typeof CANDLES): Promise<Reply> => sendPatiently(api, { method: 'GET', path: withQuery(CANDLES[op], { category: 'SPOT', symbol, interval: '1m', ...window, limit: 100 }), label: `${op}, 1m, ${Math.round(back / day)} days back` }, s);
        const recent = await ask('candles');
        const served = accepted(recent, `candles ${Math.round(back / day)} days back`) ? (candleTimes((recent.json as { data?: unknown } | undefined)?.data) ?? []) : [];
        if (served.length) continue; // candles still reaches this far
        const history = await ask('history');
        mustAccept(history, `history-candles ${Math.round(back / day)} days back, where candles serves nothing,`, { expected: 'the candles of that window' });
        const older = candleTimes((history.json as { data?: unknown } | undefined)?.data) ?? [];
        if (older.length === 0) throw deviation(`history-candles served no 1m candle ${Math.round(back / day)} days back, where candles serves none either`, 'candles older than the oldest candles serves', [recent.exchange, history.exchange]);
        return;
      }
      throw new NotTested(`candles itself serves 1m candles ${Math.round(backs[backs.length - 1] / day)} days back: no window beyond its reach was found (state settings.candles.reachMs)`);
    });
  });
});

test('server time: Unix milliseconds as a string, close to the harness clock', { tag: reqTags('U-MKT-TIME', 'U-MKT-TIME-CLOSE') }, async ({ api, profile, verify, note, recorder }, testInfo) => guarded(recorder, testInfo, async () => {
  const before = Date.now();
  // Asked again after a throttle: the midpoint then lies a second or two off, well within the tolerance.
  const r = await sendPatiently(api, { method: 'GET', path: '/api/v3/public/time', label: 'the server time' }, settingsOf(profile));
  const after = Date.now();
  const serverTime = (r.json as { data?: { serverTime?: unknown } } | undefined)?.data?.serverTime;
  await verify('U-MKT-TIME', () => {
    mustAccept(r, 'GET /api/v3/public/time', { expected: 'data.serverTime' });
    if (typeof serverTime !== 'string' || !/^\d{13}$/.test(serverTime)) throw deviation(`data.serverTime is ${JSON.stringify(serverTime)}`, 'a string of Unix milliseconds (13 digits)', [r.exchange]);
  });
  const TOLERANCE_MS = 5 * 60_000;
  await verify('U-MKT-TIME-CLOSE', () => {
    if (typeof serverTime !== 'string' || !/^\d+$/.test(serverTime)) throw new NotTested('no server time to compare');
    const offset = Number(serverTime) - (before + after) / 2;
    note(`server time minus the harness's clock: ${Math.round(offset)} ms (the request took ${after - before} ms; tolerance ${TOLERANCE_MS / 1000} s)`);
    if (Math.abs(offset) > TOLERANCE_MS) throw deviation(`the server time is ${Math.round(offset / 1000)} s away from the harness's clock`, `within ${TOLERANCE_MS / 1000} s`, [r.exchange]);
  });
}));
