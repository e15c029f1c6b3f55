import { test } from 'node:test';
import assert from 'node:assert/strict';
import { countedFailures, mergeStatus, type InterfaceResult, type RunSummary } from '../../harness/reporter/summary.ts';
import { renderHtml } from '../../harness/reporter/html.ts';

test('one failure anywhere fails the requirement; a flag outranks a pass; not applicable only without a verdict', () => {
  assert.equal(mergeStatus([{ id: 'X', status: 'passed' }, { id: 'X', status: 'failed' }]), 'failed');
  assert.equal(mergeStatus([{ id: 'X', status: 'passed' }, { id: 'X', status: 'flagged' }]), 'flagged');
  assert.equal(mergeStatus([{ id: 'X', status: 'not-applicable' }, { id: 'X', status: 'passed' }]), 'passed');
  assert.equal(mergeStatus([{ id: 'X', status: 'not-applicable' }]), 'not-applicable');
  assert.equal(mergeStatus([]), 'not-tested');
});

const req = (id: string, level: 'must' | 'should' | 'advisory', status: InterfaceResult['requirements'][number]['status']) => ({
  id, level, status, text: `${id} text`, source: `${id} <source>`, generic: false, observable: true, tests: [], failures: [],
});

const iface: InterfaceResult = {
  name: 'chat',
  title: 'Chat',
  spec: { file: 'specs/chat.yaml', sha256: 'ab'.repeat(32), document: 'd.txt', section: 'E' },
  target: { baseUrl: 'http://127.0.0.1:1', reference: true },
  requirements: [req('E-A', 'must', 'failed'), req('E-B', 'should', 'failed'), req('E-C', 'advisory', 'flagged'), req('E-D', 'must', 'passed')],
  notShown: [],
  totals: { passed: 1, failed: 2, 'not-applicable': 0, flagged: 1, 'not-tested': 0 },
  exercised: { documentRequirements: 4, exercised: 4, share: 1 },
};

test('the exit code counts failed musts, and failed shoulds only under --strict; advisories never', () => {
  assert.deepEqual(countedFailures([iface], false), ['E-A']);
  assert.deepEqual(countedFailures([iface], true), ['E-A', 'E-B']);
});

test('the HTML report escapes what it shows and marks each requirement with its verdict', () => {
  const summary: RunSummary = {
    harness: { name: 'h', version: '1' }, startedAt: '', finishedAt: '', durationMs: 0,
    profile: { name: '<script>alert(1)</script>', file: 'f', writes: false }, seed: 1, depth: 'default', strict: false,
    interfaces: [iface], notes: [], writes: [], failedCounted: ['E-A'], verdict: 'failed', brokenTests: [], timing: [],
  };
  const html = renderHtml(summary);
  assert.match(html, /data-requirement="E-A" data-status="failed"/);
  assert.match(html, /data-requirement="E-C" data-status="flagged"/);
  assert.ok(!html.includes('<script>') && html.includes('&lt;script&gt;alert(1)'), 'profile name escaped');
  assert.ok(html.includes('E-A &lt;source&gt;'), 'sources escaped');
});
