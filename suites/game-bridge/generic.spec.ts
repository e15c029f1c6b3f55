import { defineGenericChecks } from '../../harness/generic/define.ts';

defineGenericChecks('game-bridge', {
  credentials: (_op, secrets) => ({ 'X-Auth-Key': secrets.get('authKey') }),
  wrongCredentials: (_op, secrets) => ({ 'X-Auth-Key': secrets.harmless('conformance-wrong-key') }),
  enabled: (op, profile) => !op.enabledBy || profile.interfaces['game-bridge']?.settings.endpoints[op.enabledBy as 'log'] !== false,
  whenDisabled: [403],
});
