import { withHeaderUnlessGiven } from '../../harness/http/given-header.ts';
import { defineSuite } from '../../harness/interface.ts';
import { gameBridge } from '../../interfaces/game-bridge/definition.ts';
import { notTheApi } from '../../harness/probe.ts';
import { showed } from '../../harness/answers.ts';
import { expectedMs } from '../../harness/budget.ts';
import type { BridgeSettings } from '../../harness/profile/types.ts';
import { matrixScope } from './bridge.ts';
import { MATRIX_RUNS } from './cases.ts';

const READS = ['status', 'info', 'players'] as const;

/** What the game-bridge suite does with its interface: how it authenticates, probes and plans. */
export const suite = defineSuite(gameBridge, {
  // "every request carries header X-Auth-Key whose value equals auth.key": the key is the whole authentication.
  authenticate: (req, secrets) => withHeaderUnlessGiven(req, 'X-Auth-Key', secrets.get('authKey')),
  // The authenticated liveness check proves the credential too; a read the profile switches off answers 403.
  probe: ({ settings, credentialEnv }) => {
    const s = settings as BridgeSettings;
    const read = READS.find((r) => s.endpoints[r] !== false) ?? 'status';
    const what = `GET /v2/${read} with the key of ${credentialEnv.authKey ?? 'the profile'}`;
    return {
      request: { method: 'GET', path: `/v2/${read}`, authenticate: true, label: 'probe' },
      judge: (reply) => {
        if (showed(reply, 401)) return `${what} was answered 401: the target refused the credential authKey (environment variable ${credentialEnv.authKey ?? '?'}); check its value`;
        return notTheApi(reply, what);
      },
    };
  },
  notApplicable: ({ profile, settings }) => {
    const s = settings as BridgeSettings;
    const operations: Record<string, string> = {};
    for (const [name, on] of Object.entries(s.endpoints)) {
      if (!on) operations[`${name === 'log' ? 'POST' : 'GET'} /v2/${name}`] = `endpoints.${name} is false in the profile`;
    }
    const requirements = Object.fromEntries(matrixScope(s, Boolean(profile.writes)).notApplicable);
    if (s.platform === undefined) requirements['C-INFO-PLATFORM-PROFILE'] = 'the profile names no platform (settings.platform)';
    return { operations, requirements };
  },
  // The matrix property (and its reruns after a failure), the table rows, the reads and the generic checks.
  plannedMs: ({ profile, depth, live, workers }) => expectedMs({ requests: MATRIX_RUNS * depth * 2 + 400 }, profile, live, workers),
});
