import { test } from 'node:test';
import assert from 'node:assert/strict';
import { failuresOf } from '../../scripts/test-failures.ts';

test("the end of npm test names each failed test by its titles, with why, and not its failed parents again", () => {
  const tap = [
    'TAP version 13',
    '# Subtest: /repo/test/integration/a.test.ts',
    '    # Subtest: a group',
    '        # Subtest: passes',
    '        ok 1 - passes',
    '        # Subtest: fails',
    '        not ok 2 - fails',
    '          ---',
    "          error: 'one is not two'",
    '          ...',
    '    not ok 1 - a group',
    '      ---',
    "      error: '1 subtest failed'",
    '      ...',
    'not ok 1 - /repo/test/integration/a.test.ts',
    '  ---',
    "  error: 'test failed'",
    '  ...',
  ].join('\n');
  const failures = failuresOf(tap, 'integration.tap');
  assert.deepEqual(failures.map((f) => f.titles), [['/repo/test/integration/a.test.ts', 'a group', 'fails']]);
  assert.deepEqual(failures[0]!.detail, ["error: 'one is not two'"]);
});
