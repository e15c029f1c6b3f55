import { defineGenericChecks } from '../../harness/generic/define.ts';
import { answered } from '../../harness/answers.ts';
import { test } from './test.ts';

// Credentials go through the suite's authentication step (X-Auth-Key). An operation the profile switches off, or one
// that answers the document's own answer of a switched-off operation (403 forbidden, "endpoint disabled by its flag"),
// is C-DISABLED-403's alone: what a switched-off endpoint answers (that 403, or a real bridge's 404 page) is no evidence
// for the key, the method or the schema.
defineGenericChecks(test, {
  enabled: (op, profile) => !op.enabledBy || profile.interfaces['game-bridge']?.settings.endpoints[op.enabledBy as 'log'] !== false,
  answersDisabled: (op, reply) => Boolean(op.enabledBy) && answered(reply, 403) && reply.json?.error === 'forbidden',
});
