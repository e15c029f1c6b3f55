import { defineGenericChecks } from '../../harness/generic/define.ts';
import { test } from './test.ts';

// Credentials go through the suite's authentication step (X-Auth-Key); a read the profile switches off answers 403.
defineGenericChecks(test, {
  enabled: (op, profile) => !op.enabledBy || profile.interfaces['game-bridge']?.settings.endpoints[op.enabledBy as 'log'] !== false,
  whenDisabled: [403],
});
