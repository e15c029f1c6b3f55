import { defineGenericChecks } from '../../harness/generic/define.ts';

// Credentials go through the descriptor's authentication step (X-Auth-Key); a read the profile switches off answers 403.
defineGenericChecks('game-bridge', {
  enabled: (op, profile) => !op.enabledBy || profile.interfaces['game-bridge']?.settings.endpoints[op.enabledBy as 'log'] !== false,
  whenDisabled: [403],
});
