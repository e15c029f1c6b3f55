import { defineGenericChecks } from '../../harness/generic/define.ts';
import { test } from './test.ts';

// Every chat request is counted: each generic check speaks as a client address of its own.
defineGenericChecks(test, {
  baseHeaders: (identity) => ({ 'X-Forwarded-For': identity.address() }),
});
