import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BrokerWindow } from '../../suites/unified-exchange/broker-window.ts';

const at = (ms: number, accepted = true) => ({ from: ms, to: ms + 2, accepted, exchange: undefined });

test('a request must be let through only while both readings have room: under 20 in the second before it and in its whole second', () => {
  const w = new BrokerWindow();
  for (let i = 0; i < 19; i++) w.record(at(10_900 + i));
  assert.ok(w.mustLetThrough(10_950), '19 before it: the 20th has room in either reading');
  w.record(at(10_950));
  assert.ok(!w.mustLetThrough(10_960), 'the 21st may be throttled');
  assert.ok(!w.mustLetThrough(11_100), 'a new whole second, but a sliding one still holds the 20');
  assert.ok(w.mustLetThrough(11_960), 'a second later, both windows are empty');
});

test('refused requests count too: a whole second counts every request, and the model cannot tell which reading it meets', () => {
  const w = new BrokerWindow();
  for (let i = 0; i < 20; i++) w.record(at(20_000 + i, i < 5));
  assert.ok(!w.mustLetThrough(20_500));
});

test('a whole second holding more than 20 accepted requests is overfull once it has ended, and only requests surely inside it count', () => {
  const w = new BrokerWindow();
  for (let i = 0; i < 21; i++) w.record(at(30_000 + i * 40));
  assert.equal(w.overfull(30_900), undefined, 'the second has not ended');
  assert.equal(w.overfull(31_001)?.accepted.length, 21);
  const straddling = new BrokerWindow();
  for (let i = 0; i < 20; i++) straddling.record(at(40_000 + i * 40));
  straddling.record({ from: 40_999, to: 41_003, accepted: true, exchange: undefined });
  assert.equal(straddling.overfull(42_000), undefined, 'one that may lie in the next second is not counted');
});
