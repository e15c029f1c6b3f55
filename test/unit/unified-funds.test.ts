import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FundsModel } from '../../suites/unified-exchange/funds-model.ts';
import { putBack } from '../../suites/unified-exchange/restore.ts';

test('the funds model moves an accepted transfer and holds a read to it', () => {
  const m = new FundsModel(0);
  m.start('spot', 100);
  m.start('p2p');
  assert.ok(m.canMove('spot', 3));
  assert.ok(!m.canMove('p2p', 1), 'a type no read shows holds at least nothing');
  m.transfer('spot', 'p2p', 3);
  assert.ok(m.agrees('spot', 97, 0.01));
  assert.ok(m.canMove('p2p', 3), 'what it was given, it can give back');
  assert.ok(!m.agrees('spot', 100, 0.01), 'a transfer that debited nothing breaks it');
});

test('with a fee allowed, the source may lose up to the fee beyond the amount, never more, and the read narrows it', () => {
  const m = new FundsModel(0.001);
  m.start('spot', 100);
  m.start('uta', 50);
  m.transfer('spot', 'uta', 10);
  assert.equal(m.expected('spot'), 'between 89.99 and 90');
  assert.ok(!m.agrees('spot', 89.9, 0.01));
  assert.ok(m.agrees('spot', 89.99, 0.01));
  assert.ok(m.agrees('uta', 60, 0.01), 'the destination gets exactly the amount');
  assert.equal(m.expected('spot'), '89.99');
});

test('an earn subscription takes exactly its amount; its fast redemption gives it back less at most the kept fee', () => {
  const m = new FundsModel(0);
  m.start('uta', 100);
  m.take('uta', 10);
  assert.ok(!m.agrees('uta', 100, 0.01), 'a subscription that took nothing creates its amount');
  assert.ok(m.agrees('uta', 90, 0.01));
  m.give('uta', 10, 0.001);
  assert.equal(m.expected('uta'), 'between 99.99 and 100');
  assert.ok(!m.agrees('uta', 110, 0.01), 'a redemption credited twice');
  assert.ok(m.agrees('uta', 99.99, 0.01));
});

test('a loan repaid in full takes the amount back with at most the allowed interest', () => {
  const m = new FundsModel(0);
  m.start('spot', 50);
  m.give('spot', 20);
  assert.ok(m.agrees('spot', 70, 0.01));
  m.take('spot', 20, 0.01);
  assert.ok(!m.agrees('spot', 70, 0.01), 'a repayment that took nothing');
  assert.ok(m.agrees('spot', 49.9, 0.01), 'interest within the allowed share');
});

test('putting back nets the transfers: a hundred moves cost a move per type that gained', async () => {
  const moves = Array.from({ length: 100 }, (_, i) => (i % 2 ? { fromType: 'p2p', toType: 'spot', amount: '1' } : { fromType: 'spot', toType: 'p2p', amount: '2' }));
  moves.push({ fromType: 'spot', toType: 'uta', amount: '3' });
  const sent: string[] = [];
  const refused = await putBack(moves, 0, async (from, to, amount) => {
    sent.push(`${amount} ${from}>${to}`);
    return true;
  });
  assert.deepEqual(refused, []);
  assert.deepEqual(sent.sort(), ['3 uta>spot', '50 p2p>spot'].sort());
});

test('putting back goes the way the transfers went, through a type between, and tries less the largest fee when refused', async () => {
  const sent: string[] = [];
  const refused = await putBack([{ fromType: 'uta', toType: 'spot', amount: '2' }, { fromType: 'spot', toType: 'p2p', amount: '2' }], 0.5, async (from, to, amount) => {
    sent.push(`${amount} ${from}>${to}`);
    return !(from === 'p2p' && amount === 2);
  });
  assert.deepEqual(refused, []);
  assert.deepEqual(sent, ['2 p2p>spot', `${Math.floor((2 / 1.5) * 1e8) / 1e8} p2p>spot`, '2 spot>uta']);
});
