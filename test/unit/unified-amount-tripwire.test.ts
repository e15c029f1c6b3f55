import { test } from 'node:test';
import assert from 'node:assert/strict';
import { outsideProfile } from '../../mocks/unified-exchange/funds/amount-tripwire.ts';

const amounts = { transfer: '1.5', withdraw: '2.5', loan: '30', repay: '2', copyTransfer: '1.25' };

test('the amount tripwire lets through the amounts the profile sets, and a transfer of a whole multiple of its own', () => {
  assert.equal(outsideProfile(amounts, 'transfer', { amount: '4.5' }), undefined);
  assert.equal(outsideProfile(amounts, 'transfer', { amount: 3 }), undefined);
  assert.equal(outsideProfile(amounts, 'withdraw', { size: '2.5' }), undefined);
  assert.equal(outsideProfile(amounts, 'borrow', { loanAmount: '30' }), undefined);
  assert.equal(outsideProfile(amounts, 'repayLoan', { repayAll: 'yes' }), undefined, 'a repayment of the whole loan names no amount of the profile');
  assert.equal(outsideProfile(amounts, 'subscribeEarn', { amount: '0.01' }), undefined, 'an earn product sets its own minimum');
});

test('the amount tripwire names any other amount', () => {
  assert.match(outsideProfile(amounts, 'transfer', { amount: '1' }) ?? '', /transfer moved 1, not a whole multiple of settings\.amounts\.transfer \(1\.5\)/);
  assert.match(outsideProfile(amounts, 'withdraw', { size: '5' }) ?? '', /settings\.amounts\.withdraw/);
  assert.match(outsideProfile(amounts, 'borrow', { loanAmount: '100' }) ?? '', /settings\.amounts\.loan/);
  assert.match(outsideProfile(amounts, 'repayLoan', { repayAll: 'no', amount: '1' }) ?? '', /settings\.amounts\.repay/);
  assert.match(outsideProfile(amounts, 'copyTransfer', { amount: '1' }) ?? '', /settings\.amounts\.copyTransfer/);
});
