/**
 * The parts of a grouped run that decide which run a test belongs to (harness/group/manifest.ts), keep a module's state
 * per run (harness/run-scoped.ts), and how many Playwright workers the self-test lets run at once (scripts/worker-budget.ts).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { configurationOfTest, groupGrep, type GroupManifest } from '../../harness/group/manifest.ts';
import { interfaceOfTest } from '../../harness/paths.ts';
import { runScoped } from '../../harness/run-scoped.ts';
import { ENV } from '../../harness/options.ts';
import { WorkerBudget } from '../../scripts/worker-budget.ts';

const manifest = (greps: Array<string | undefined>): GroupManifest => ({
  dir: '/tmp/g',
  workers: 2,
  configurations: greps.map((grep, index) => ({ index, env: {}, interfaces: ['chat'], ...(grep ? { grep } : {}) })),
});

test("a test's run is its stand-in's folder, and its interface the folder under suites/, as in a run of its own", () => {
  const grouped = ['config-12/suites/chat/chat.spec.ts', 'the limit', 'a case'];
  assert.equal(configurationOfTest(grouped), 12);
  assert.equal(interfaceOfTest(grouped), 'chat');
  assert.equal(interfaceOfTest(['chat/limit.spec.ts', 'the limit']), 'chat');
  assert.equal(configurationOfTest(['chat/limit.spec.ts', 'the limit']), undefined);
  assert.equal(configurationOfTest(['config-1/other/chat.spec.ts', 'x']), undefined, 'a folder that is no stand-in of an interface');
});

test("the group's grep selects, per run, the tests its own grep selects, and every test of a run without one", () => {
  const grep = new RegExp(groupGrep(manifest(['@E-LIMIT-ALLOWED(?![A-Z0-9-])', undefined]))!, 'i');
  // Playwright matches the title path joined by spaces, the stand-in file's path among it, and the tags after it.
  const title = (config: number, tags: string) => ` group config-${config}/suites/chat/chat.spec.ts the limit a case ${tags}`;
  assert.ok(grep.test(title(0, '@E-LIMIT-ALLOWED')));
  assert.ok(!grep.test(title(0, '@E-LIMIT-ALLOWED-NOT')));
  assert.ok(!grep.test(title(0, '@E-WINDOW-SLIDING')));
  assert.ok(grep.test(title(1, '@E-WINDOW-SLIDING')));
  assert.ok(!grep.test(title(10, '@E-LIMIT-ALLOWED')), 'config-1 is not config-10');
  assert.equal(groupGrep(manifest([undefined, undefined])), undefined);
});

test('state kept per run: each run id gets its own, and finds it again', () => {
  const before = process.env[ENV.runId];
  const counter = runScoped(() => ({ n: 0 }));
  try {
    process.env[ENV.runId] = 'run-a';
    counter().n += 2;
    process.env[ENV.runId] = 'run-b';
    assert.equal(counter().n, 0);
    counter().n += 1;
    process.env[ENV.runId] = 'run-a';
    assert.equal(counter().n, 2);
  } finally {
    if (before === undefined) delete process.env[ENV.runId];
    else process.env[ENV.runId] = before;
  }
});

test('the worker budget grants in the order asked: a large taker is not passed over by small ones', async () => {
  const budget = new WorkerBudget(4);
  const order: string[] = [];
  await budget.take(3);
  const large = budget.take(4).then(() => order.push('large'));
  const small = budget.take(1).then(() => order.push('small'));
  await new Promise((r) => setTimeout(r, 10));
  assert.deepEqual(order, [], 'one worker is free, but the large taker asked first');
  budget.give(3);
  await large;
  assert.deepEqual(order, ['large']);
  budget.give(4);
  await small;
  assert.deepEqual(order, ['large', 'small']);
  budget.give(1);
  await budget.take(9); // more than the budget: the whole of it, once free
});
