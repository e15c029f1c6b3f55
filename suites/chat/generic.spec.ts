import { defineGenericChecks } from '../../harness/generic/define.ts';

// Every chat request is counted: each generic check speaks as a client address of its own.
defineGenericChecks('chat', {
  baseHeaders: (identity) => ({ 'X-Forwarded-For': identity.address() }),
});
