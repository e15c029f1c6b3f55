import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MissingRunValue, withExtras } from '../../harness/http/extras.ts';
import { loadSpec } from '../../harness/spec/load.ts';

const spec = loadSpec('exchange-session');
const lookup = 'GET /trading-api/v2/orders/{orderId}';

test("an operation's extras are added to its requests, with the values the run learnt", () => {
  const extras = { [lookup]: { query: { tradingAccountId: '{tradingAccountId}' }, headers: { 'X-Venue': 'spot' } } };
  const out = withExtras({ method: 'GET', path: '/trading-api/v2/orders/42' }, spec, extras, new Map([['tradingAccountId', '111']]));
  assert.equal(out.path, '/trading-api/v2/orders/42?tradingAccountId=111');
  assert.deepEqual(out.headers, { 'X-Venue': 'spot' });
});

test('what a request already has is kept, and other operations are left alone', () => {
  const extras = { [lookup]: { query: { tradingAccountId: '{tradingAccountId}', a: 'b' }, headers: { 'X-Venue': 'spot' } } };
  const kept = withExtras({ method: 'GET', path: '/trading-api/v2/orders/42?tradingAccountId=9', headers: { 'x-venue': 'perp' } }, spec, extras, new Map());
  assert.equal(kept.path, '/trading-api/v2/orders/42?tradingAccountId=9&a=b');
  assert.deepEqual(kept.headers, { 'x-venue': 'perp' });
  const other = { method: 'GET', path: '/trading-api/v1/nonce' };
  assert.equal(withExtras(other, spec, extras, new Map()), other);
});

test('a value the run has not learnt is named, as the harness\'s trouble', () => {
  const extras = { [lookup]: { query: { tradingAccountId: '{tradingAccountId}' } } };
  assert.throws(() => withExtras({ method: 'GET', path: '/trading-api/v2/orders/42' }, spec, extras, new Map()), (e: unknown) => e instanceof MissingRunValue && /tradingAccountId/.test((e as Error).message));
});

test('a credential named in an extra is filled from the profile\'s credentials, and an unknown one is named', () => {
  const extras = { [lookup]: { headers: { Authorization: 'Bearer {credential:apiKey}' } } };
  const out = withExtras({ method: 'GET', path: '/trading-api/v2/orders/42' }, spec, extras, new Map(), (n) => (n === 'apiKey' ? 'k-1' : undefined));
  assert.deepEqual(out.headers, { Authorization: 'Bearer k-1' });
  assert.throws(() => withExtras({ method: 'GET', path: '/trading-api/v2/orders/42' }, spec, extras, new Map(), () => undefined), /not one of its credentials/);
});
