/** The last line of a run says how much of each interface it judged, where that is less than all that applies. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { judgedShare } from '../../harness/after-run.ts';
import type { RunSummary } from '../../harness/reporter/summary.ts';

const summaryOf = (...judged: Array<[string, number, number]>) =>
  ({ interfaces: judged.map(([name, j, applicable]) => ({ name, exercised: { judged: j, applicable, share: applicable ? j / applicable : 0 } })) }) as unknown as RunSummary;

test('a run that judged every applicable requirement says nothing more', () => {
  assert.equal(judgedShare(summaryOf(['chat', 40, 40], ['game-bridge', 36, 36])), '');
});

test('an interface judged in part is named with its share, even on exit 0', () => {
  const line = judgedShare(summaryOf(['chat', 40, 40], ['unified-exchange', 141, 256]));
  assert.match(line, /unified-exchange 141 of 256 applicable \(55%\)/);
  assert.doesNotMatch(line, /chat/);
});

test('a --grep run is left to its exit reason, which says how much it judged', () => {
  assert.equal(judgedShare({ ...summaryOf(['unified-exchange', 4, 217]), grep: 'countdown' }), '');
});
