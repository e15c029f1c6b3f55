/**
 * How the usage-events suite reads answers whose shape the document leaves open (suites/usage-events/paging.ts,
 * answers.ts) and where it lets statistics intervals start (model.ts judgeRows): each reading of the spec's open
 * points is read as it is meant, and nothing a reading does is taken for the end of a list or a missing member.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Reply } from '../../harness/http/client.ts';
import { NotTested } from '../../harness/verdicts.ts';
import { eventOf, ingestMembers, statisticsRows } from '../../suites/usage-events/answers.ts';
import { HOUR, DAY, judgeIngestAnswer, judgeRows, type ModelEvent, type StatsCase } from '../../suites/usage-events/model.ts';
import { readAllPages, type PagingRules } from '../../suites/usage-events/paging.ts';

const PAGING = { style: 'page', page: 'page', limit: 'limit', offset: 'offset', cursor: 'cursor', size: 100, items: '/items', total: '/pagination/total_count', nextCursor: '/next_cursor' } as const;
const events = (n: number) => Array.from({ length: n }, (_, i) => ({ id: `e${i}` }));
const reply = (json: unknown): Reply => ({ status: 200, headers: {}, text: JSON.stringify(json), json, sentAt: 0, receivedAt: 0, exchange: {} }) as unknown as Reply;

/** A list server of `n` events in one of the paging readings, serving at most `cap` a page; counts its requests. */
function lister(n: number, answer: (all: Array<{ id: string }>, params: Record<string, string>, cap: number) => unknown, cap = 100) {
  const all = events(n);
  const asked: Array<Record<string, string>> = [];
  return { asked, fetch: async (params: Record<string, string>) => (asked.push(params), reply(answer(all, params, cap))) };
}
const pageLimit = (all: Array<{ id: string }>, p: Record<string, string>, cap: number) => {
  const limit = Math.min(Number(p.limit ?? 10), cap);
  const page = Number(p.page ?? 1);
  return { items: all.slice((page - 1) * limit, page * limit), pagination: { total_count: all.length, max_page: Math.ceil(all.length / limit) } };
};
const rules = (over: Partial<PagingRules> = {}): PagingRules => ({ paging: { ...PAGING }, itemsStated: false, totalStated: false, sizeStated: false, eventId: 'id', ...over });

describe('the list reader (D-NS-LIST-PAGING, D-NS-PAGE-SIZE)', () => {
  test('page paging with a total: one request when the first page holds everything; a capped page is not the end', async () => {
    const small = lister(30, pageLimit);
    assert.equal((await readAllPages(small.fetch, rules())).items.length, 30);
    assert.equal(small.asked.length, 1);
    const capped = lister(120, pageLimit, 50);
    const read = await readAllPages(capped.fetch, rules());
    assert.deepEqual(read.items.map((e) => e.id), events(120).map((e) => e.id));
    assert.equal(capped.asked.length, 3);
  });

  test('without a total: pages until one is shorter than a page served before, or brings nothing new', async () => {
    const noTotal = (all: Array<{ id: string }>, p: Record<string, string>, cap: number) => (pageLimit(all, p, cap) as { items: unknown[] }).items;
    const capped = await readAllPages(lister(120, noTotal, 50).fetch, rules({ paging: { ...PAGING, items: '' }, itemsStated: true }));
    assert.equal(capped.items.length, 120);
    assert.ok(capped.complete);
    // No paging at all: the second page repeats the first, which was short: the list had ended.
    const bare = lister(30, (all) => all);
    const read = await readAllPages(bare.fetch, rules());
    assert.equal(read.items.length, 30);
    assert.ok(read.complete);
    // A full page repeated: events may lie beyond it unseen. More than asked for: the target ignores the limit.
    assert.equal((await readAllPages(lister(150, (all) => all.slice(0, 100)).fetch, rules())).complete, false);
    const unlimited = lister(150, (all) => all);
    assert.equal((await readAllPages(unlimited.fetch, rules())).items.length, 150);
    assert.equal(unlimited.asked.length, 1);
  });

  test('a next cursor is followed, stated or not; an offset where the page parameter is ignored and a total is ahead', async () => {
    const cursor = (all: Array<{ id: string }>, p: Record<string, string>) => {
      const from = p.cursor ? Number(p.cursor) : 0;
      const to = from + Math.min(Number(p.limit), 40);
      return { data: all.slice(from, to), next_cursor: to < all.length ? String(to) : null };
    };
    for (const r of [rules(), rules({ style: 'cursor', paging: { ...PAGING, items: '/data' }, itemsStated: true })]) {
      const read = await readAllPages(lister(100, cursor).fetch, r);
      assert.equal(read.items.length, 100);
      assert.equal(read.style, 'cursor');
    }
    const offsetLimit = (all: Array<{ id: string }>, p: Record<string, string>) => ({ items: all.slice(Number(p.offset ?? 0), Number(p.offset ?? 0) + Math.min(Number(p.limit), 50)), total: all.length });
    // Unstated, the total is found where answers usually give it.
    const auto = await readAllPages(lister(120, offsetLimit).fetch, rules());
    assert.equal(auto.items.length, 120);
    const stated = lister(120, offsetLimit);
    assert.equal((await readAllPages(stated.fetch, rules({ style: 'offset', paging: { ...PAGING, total: '/total' } }))).items.length, 120);
    assert.equal(stated.asked[0]!.offset, '0');
  });

  test('style none: one request without paging parameters; an event shown again on a later page is kept once', async () => {
    const none = lister(30, (all) => all);
    await readAllPages(none.fetch, rules({ style: 'none', paging: { ...PAGING, items: '' }, itemsStated: true }));
    assert.deepEqual(none.asked, [{}]);
    // The list moved between two pages: the first event of page 2 is the last of page 1.
    const moved = lister(150, (all, p) => ({ items: p.page === '2' ? all.slice(99, 150) : all.slice(0, 100), pagination: { total_count: 151 } }));
    const read = await readAllPages(moved.fetch, rules());
    assert.equal(read.items.length, 150);
  });

  test('a page size the target refuses, unless stated, is left to the target; an answer that is not a list is never a failure', async () => {
    const refusing = lister(30, pageLimit);
    const fetch = async (params: Record<string, string>) => (params.limit ? ({ ...reply({}), status: 422 }) as Reply : refusing.fetch(params));
    assert.equal((await readAllPages(fetch, rules())).items.length, 30);
    assert.equal(refusing.asked.length, 3);
    await assert.rejects(readAllPages(fetch, rules({ sizeStated: true })), NotTested);
    await assert.rejects(readAllPages(async () => reply({ error: 'nope' }), rules({ itemsStated: true })), NotTested);
  });
});

describe('the ingest answer (D-NS-INGEST-SHAPE, D-NS-ERROR-ENTRIES)', () => {
  const names = { names: { inserted: 'inserted', errors: 'errors', errorIndex: 'index' }, indexStated: false };
  test('flat, wrapped in data, or with the errors left out when nothing failed', () => {
    assert.deepEqual(ingestMembers({ inserted: 2, errors: [{ index: 1 }] }, 3, names).indexes, [1]);
    const wrapped = ingestMembers({ data: { inserted: 2, errors: [{ index: 0 }] } }, 3, names);
    assert.deepEqual([wrapped.inserted, wrapped.indexes], [2, [0]]);
    assert.deepEqual(wrapped.readings, [{ point: 'D-NS-INGEST-SHAPE', reading: 'data-envelope' }]);
    assert.deepEqual(ingestMembers({ inserted: 3 }, 3, names).indexes, []);
    // Events failed, yet no errors array: there is none to read.
    assert.equal(ingestMembers({ inserted: 2 }, 3, names).indexes, undefined);
  });

  test('a position from the member, or from a loc path unless the member is stated', () => {
    const loc = { inserted: 1, errors: [{ loc: ['body', 'events', 2, 'name'], msg: 'bad' }] };
    assert.deepEqual(ingestMembers(loc, 2, names).indexes, [2]);
    assert.deepEqual(ingestMembers(loc, 2, { ...names, indexStated: true }).indexes, [undefined]);
  });

  test('the judgement: an entry per problem names an event twice; an all-invalid batch may be refused with its entries', () => {
    const invalid = new Map([[1, 'name' as const]]);
    assert.equal(judgeIngestAnswer(2, invalid, { ok: true, status: 207, inserted: 1, indexes: [1, 1], positionsStated: false }), undefined);
    const all = new Map([[0, 'name' as const], [1, 'timestamp' as const]]);
    assert.equal(judgeIngestAnswer(2, all, { ok: false, status: 422, inserted: 0, indexes: [0, 1], positionsStated: false }), undefined);
    assert.deepEqual(judgeIngestAnswer(2, invalid, { ok: false, status: 422, inserted: 0, indexes: [1], positionsStated: false })?.requirements, ['D-INGEST-ERRORS-EXACT']);
    // Positions that cannot be read, and a profile that does not name their member: the count is still judged.
    assert.equal(judgeIngestAnswer(2, invalid, { ok: true, status: 200, inserted: 1, indexes: [undefined], positionsStated: false }), undefined);
    assert.ok(judgeIngestAnswer(2, invalid, { ok: true, status: 200, inserted: 2, indexes: [undefined], positionsStated: false }));
    assert.ok(judgeIngestAnswer(2, invalid, { ok: true, status: 200, inserted: 1, indexes: [undefined], positionsStated: true }));
  });
});

describe('one event and the statistics rows (D-NS-EVENT-ENVELOPE, D-NS-STATS-SHAPE)', () => {
  test('an event itself or in an envelope', () => {
    assert.deepEqual(eventOf({ id: 'a', name: 'x' }, 'id').event, { id: 'a', name: 'x' });
    assert.deepEqual(eventOf({ data: { id: 'a' } }, 'id'), { event: { id: 'a' }, reading: { point: 'D-NS-EVENT-ENVELOPE', reading: 'data-envelope' } });
  });

  test('rows: the answer, the stated member, or an object\'s only array unless another is stated', () => {
    assert.deepEqual(statisticsRows([{ value: 1 }], '', false).rows, [{ value: 1 }]);
    assert.deepEqual(statisticsRows({ meter_id: 'm', periods: [] }, '/periods', true).rows, []);
    assert.deepEqual(statisticsRows({ meter_id: 'm', periods: [] }, '', false).rows, []);
    assert.equal(statisticsRows({ meter_id: 'm', periods: [] }, '', true).rows, undefined);
  });
});

describe('where statistics intervals start (D-NS-STATS-TIME-ZONE, D-NS-INTERVAL-ALIGNMENT)', () => {
  const start = Date.UTC(2024, 0, 1);
  const event = (at: number): ModelEvent => ({ seq: `s${at}`, name: 'conformance.api_call', external_customer_id: 'x', at, properties: { units: 1 } });
  const meter = { id: 'all', filter: { conjunction: 'and' as const, clauses: [] } };
  const c: StatsCase = { interval: 'day', aggregation: 'count', property: 'units', start, end: start + 2 * DAY - 61_000, meter, events: [event(start + 2 * HOUR), event(start + 23 * HOUR + 30 * 60_000), event(start + DAY + 5 * HOUR)] };
  const none = () => {};

  test('UTC days, or the days of the zone the rows are written in', () => {
    assert.equal(judgeRows([{ timestamp: '2024-01-01T00:00:00Z', value: 2 }, { timestamp: '2024-01-02T00:00:00Z', value: 1 }], c, none).finding, undefined);
    // In UTC+01:00 the event at 23:30 UTC is on the next day.
    const plusOne = [{ timestamp: '2024-01-01T00:00:00+01:00', value: 1 }, { timestamp: '2024-01-02T00:00:00+01:00', value: 2 }, { timestamp: '2024-01-03T00:00:00+01:00', value: 0 }];
    const judged = judgeRows(plusOne, c, none);
    assert.equal(judged.finding, undefined);
    assert.ok(judged.readings.some((r) => r.reading === 'fixed-offset'));
    // Labelled an hour late in UTC: neither a UTC day nor a day from start_timestamp.
    assert.deepEqual(judgeRows([{ timestamp: '2024-01-01T01:00:00Z', value: 1 }], c, none).finding?.requirements, ['D-STATS-INTERVALS']);
  });

  test('intervals from start_timestamp, written in another zone', () => {
    const fromStart = [{ timestamp: '2024-01-01T01:00:00+01:00', value: 2 }, { timestamp: '2024-01-02T01:00:00+01:00', value: 1 }];
    const judged = judgeRows(fromStart, c, none);
    assert.equal(judged.finding, undefined);
    assert.ok(judged.readings.some((r) => r.point === 'D-NS-INTERVAL-ALIGNMENT' && r.reading === 'from-start'));
  });
});
