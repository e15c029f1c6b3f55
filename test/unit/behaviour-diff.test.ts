import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Exchange } from '../../harness/http/exchange.ts';
import { caseOf, membersOf, observe, type Observation } from '../../harness/diff/observation.ts';
import { compare, measureNoise, noiseMatcher, summarise } from '../../harness/diff/compare.ts';
import { attributeBySpec } from '../../harness/diff/attribute.ts';
import { testKey } from '../../harness/planned-tests.ts';
import { applyDiffGate } from '../../harness/diff/diff-run.ts';
import type { DiffRow, DifferenceWaiver } from '../../harness/diff/diff-types.ts';

const exchange = (label: string, status: number, body: unknown, headers: Record<string, string> = {}, durationMs = 10): Exchange => ({
  label,
  operation: 'POST /orders',
  request: { method: 'POST', url: 'http://t/orders', headers: [] },
  response: { status, headers, body: typeof body === 'string' ? body : JSON.stringify(body) },
  startedAt: 0,
  durationMs,
});

const side = (...exchanges: Exchange[]): Observation[] =>
  observe(exchanges, { interfaceName: 'shop', test: 'orders', requirements: ['S-ORDER'], headers: () => ['retry-after', 'x-kind'] });

test('a case is named by its label without its numbers and ids, and counted within its test', () => {
  assert.equal(caseOf('order 5178113226234 of 3, at 1.5'), 'order # of #, at #');
  assert.equal(caseOf('lookup 0b0c6a1e-7d7e-4f6b-9a39-2f4d2c1b9e10'), 'lookup #');
  assert.equal(caseOf('cancel order uxmwz4xzw2af9c1cde by clientOid'), 'cancel order # by clientOid');
  assert.equal(caseOf('the events of 0c1abbef-2-3 (page 2), document at bdbbcaea'), 'the events of # (page #), document at #');
  const o = side(exchange('order 17', 200, {}), exchange('order 18', 200, {}));
  assert.deepEqual(o.map((x) => [x.label, x.ordinal]), [['order #', 0], ['order #', 1]]);
});

test('an answer is kept as its member paths and types; the elements of a list share one path', () => {
  assert.deepEqual(membersOf({ data: { list: [{ id: 1 }, { id: 2, price: '3' }] }, ok: true }), {
    $: 'object', data: 'object', 'data.list': 'array', 'data.list[]': 'object', 'data.list[].id': 'number', 'data.list[].price': 'string', ok: 'boolean',
  });
});

test('two runs that behave alike differ nowhere, whatever their ids, times and values', () => {
  const a = side(exchange('order 1', 200, { id: 'a1', price: '10' }, {}, 10));
  const b = side(exchange('order 2', 200, { id: 'b9', price: '12' }, {}, 14));
  assert.deepEqual(compare(a, b, { timingToleranceMs: () => 50 }), []);
});

test('a status, a refusal status, a member, a named header and a duration are each a difference of their own kind', () => {
  const a = side(exchange('order', 200, { id: 'x' }), exchange('bad order', 400, {}), exchange('slow', 200, {}, {}, 10));
  const b = side(exchange('order', 201, { id: 1, extra: true }), exchange('bad order', 422, {}), exchange('slow', 200, {}, { 'x-kind': 'two', 'retry-after': '1' }, 900));
  const kinds = compare(a, b, { timingToleranceMs: () => 100 }).map((d) => `${d.kind}: ${d.detail}`);
  assert.deepEqual(kinds, [
    'status: 200 against 201',
    'members: id: string against number; extra: absent against boolean',
    'refusal-status: 400 against 422',
    'headers: retry-after: absent against present; x-kind: absent against present',
  ]);
});

test("timing is an operation's median moved beyond the tolerance, never one slow answer", () => {
  const durations = (...ms: number[]) => side(...ms.map((d, i) => exchange(`order ${i}`, 200, {}, {}, d)));
  assert.deepEqual(compare(durations(10, 12, 11), durations(10, 900, 11), { timingToleranceMs: () => 100 }), []);
  assert.deepEqual(compare(durations(10, 12, 11), durations(400, 500, 450), { timingToleranceMs: () => 100 }).map((d) => d.detail), ['shop POST /orders: median 11 ms against 450 ms over 3 cases (tolerance 100 ms)']);
});

test('the media type of an answer counts by its value', () => {
  const a = side(exchange('order', 200, {}, { 'content-type': 'application/json; charset=utf-8' }));
  const b = side(exchange('order', 200, {}, { 'content-type': 'text/plain' }));
  assert.deepEqual(compare(a, b).map((d) => d.detail), ['content-type: application/json against text/plain']);
  assert.deepEqual(compare(a, side(exchange('order', 200, {}, { 'content-type': 'application/json' }))), []);
});

test('a case only one side made is named as such', () => {
  const d = compare(side(exchange('order', 200, {}), exchange('again', 200, {})), side(exchange('order', 200, {})));
  assert.deepEqual(d.map((x) => [x.kind, x.label]), [['only-one-side', 'again']]);
});

test('declared noise is never compared: * is one path segment, ** any run of them (none too)', () => {
  const m = noiseMatcher(['member:data.*.ts', 'member:**.requestTime', 'header:x-request-id']);
  assert.ok(m('member:data.order.ts'));
  assert.ok(!m('member:data.order.fill.ts'));
  assert.ok(m('member:requestTime') && m('member:a.b.requestTime') && !m('member:a.brequestTime'));
  assert.ok(m('header:x-request-id') && !m('header:retry-after'));
  const a = side(exchange('order', 200, { data: { order: { ts: 1 } } }));
  const b = side(exchange('order', 200, { data: { order: { ts: '1' } } }));
  assert.equal(compare(a, b).length, 1);
  assert.deepEqual(compare(a, b, { declared: () => noiseMatcher(['member:data.*.ts']) }), []);
});

test('a list empty on one side shows no member of its elements: those are not compared', () => {
  const a = side(exchange('list', 200, { data: { list: [{ id: 1, px: '2' }] } }));
  const b = side(exchange('list', 200, { data: { list: [] } }));
  assert.deepEqual(compare(a, b), []);
  const c = side(exchange('list', 200, { data: { list: [{ id: 1 }] } }));
  assert.deepEqual(compare(a, c).map((d) => d.detail), ['data.list[].px: string against absent']);
});

test('what the baseline varies on its own is measured noise, with its rate, and not a difference', () => {
  const random = (n: number) => side(exchange('order', 200, { id: 'x', [`nonce${n % 2}`]: n }), exchange('list', 200, { items: [] }));
  const noise = measureNoise(random(1), random(2));
  assert.deepEqual(noise.entries, [
    { interfaceName: 'shop', key: 'member:nonce1', differed: 1, compared: 2 },
    { interfaceName: 'shop', key: 'member:nonce0', differed: 1, compared: 2 },
  ]);
  const candidate = side(exchange('order', 200, { id: 'x', nonce0: 5 }), exchange('list', 200, { items: [], more: true }));
  const d = compare(random(1), candidate, { measured: noise.noisy });
  assert.deepEqual(d.map((x) => x.detail), ['more: absent against boolean']);
});

test('a status the baseline varied, or a case it made once only, is noise in that test only, never for the whole interface', () => {
  const inTest = (test: string, obs: Observation[]) => obs.map((x) => ({ ...x, test }));
  const first = [...inTest('rate limit', side(exchange('limited', 200, {}), exchange('poll', 200, {}))), ...inTest('orders', side(exchange('order', 200, {})))];
  const second = [...inTest('rate limit', side(exchange('limited', 429, {}))), ...inTest('orders', side(exchange('order', 200, {})))];
  const { noisy, entries } = measureNoise(first, second);
  assert.deepEqual(entries.map((e) => `${e.key} ${e.differed}`).sort(), ['case 1', 'status 1']);
  const candidate = [...inTest('rate limit', side(exchange('limited', 200, {}), exchange('poll', 200, {}), exchange('poll', 200, {}))), ...inTest('orders', side(exchange('order', 500, {})))];
  assert.deepEqual(compare(first, candidate, { measured: noisy }).map((x) => `${x.label}: ${x.detail}`), ['order: 200 against 500']);
});

test('a difference falls on the open points of its test, and on those the two sides read differently where they are known', () => {
  const points = new Map([['shop', [
    { id: 'S-NS-STATUS', text: '', source: '', requirements: ['S-ORDER'] },
    { id: 'S-NS-BODY', text: '', source: '', requirements: ['S-ORDER', 'S-OTHER'] },
    { id: 'S-NS-ELSE', text: '', source: '', requirements: ['S-OTHER'] },
  ]]]);
  const a = side(exchange('order', 200, {}));
  const b = side(exchange('order', 201, {}));
  assert.deepEqual(compare(a, b, { attribute: attributeBySpec(points) })[0]!.openPoints, ['S-NS-STATUS', 'S-NS-BODY']);
  const seen = (status: string) => new Map([[testKey('shop', 'orders'), new Map([['S-NS-STATUS', status], ['S-NS-BODY', 'same']])]]);
  assert.deepEqual(compare(a, b, { attribute: attributeBySpec(points, { a: { seen: seen('ok-200') }, b: { seen: seen('created-201') } }) })[0]!.openPoints, ['S-NS-STATUS']);
  // Both sides' readings known (here as the references were started) and alike: the change is not an open point's.
  const configured = new Map([['shop', new Map([['S-NS-STATUS', 'ok-200'], ['S-NS-BODY', 'same']])]]);
  assert.deepEqual(compare(a, b, { attribute: attributeBySpec(points, { a: { seen: new Map(), configured }, b: { seen: new Map(), configured } }) })[0]!.openPoints, []);
  // A reading unknown on one side keeps its point named: the difference may be its.
  assert.deepEqual(compare(a, b, { attribute: attributeBySpec(points, { a: { seen: new Map(), configured }, b: { seen: new Map() } }) })[0]!.openPoints, ['S-NS-STATUS', 'S-NS-BODY']);
});

test('a long comparison keeps counts and a bounded sample per kind, operation and open points', () => {
  const a = side(...Array.from({ length: 50 }, (_, i) => exchange(`order ${i}`, 200, {})));
  const b = side(...Array.from({ length: 50 }, (_, i) => exchange(`order ${i}`, 201, {})));
  const rows = summarise(compare(a, b), 3);
  assert.equal(rows.length, 1);
  assert.equal(rows[0]!.count, 50);
  assert.equal(rows[0]!.samples.length, 3);
});

test('--fail-on-diff counts the rows it names; a waiver covers its open point, kind and target until it expires; an expired one fails by name, an unused one is listed', () => {
  const row = (kind: DiffRow['kind'], openPoints: string[], operation = 'POST /orders'): DiffRow => ({ kind, interface: 'shop', operation, openPoints, requirements: [], count: 2, samples: [] });
  const waiver = (on: string, expires: string, kind?: DiffRow['kind']): DifferenceWaiver => ({ on, reason: 'accepted', acceptedBy: 'qa', expires, ...(kind ? { kind } : {}) });
  const gate = (rows: DiffRow[], failOnDiff: string[], waivers: DifferenceWaiver[] = []) => applyDiffGate(rows, { failOnDiff, waivers, profileName: 'staging', today: '2026-11-27' });
  assert.equal(gate([row('status', ['S-NS-STATUS'])], ['S-NS-BODY']).failed, false, 'a difference elsewhere than --fail-on-diff looks');
  assert.equal(gate([row('status', ['S-NS-STATUS'])], ['POST /orders']).failed, true, 'named by its operation');
  const waived = gate([row('status', ['S-NS-STATUS']), row('members', ['S-NS-STATUS'])], ['all'], [waiver('S-NS-STATUS', '2026-12-31', 'status'), waiver('S-NS-OTHER', '2026-12-31')]);
  assert.equal(waived.failed, true, 'the waiver covers the status difference only');
  assert.equal(waived.waived, 2);
  assert.deepEqual(waived.unusedWaivers.map((w) => w.on), ['S-NS-OTHER']);
  const expired = gate([row('status', ['S-NS-STATUS'])], ['all'], [waiver('S-NS-STATUS', '2026-11-26')]);
  assert.equal(expired.failed, true);
  assert.match(expired.reason, /expired waivers: S-NS-STATUS/);
});
