import { withHeaderUnlessGiven } from '../../harness/http/given-header.ts';
import { defineInterface, type InterfaceDescriptor } from '../../harness/interface.ts';
import { notTheApi } from '../../harness/probe.ts';
import { faults } from '../../mocks/game-bridge/faults.ts';
import { readings } from '../../mocks/game-bridge/readings.ts';
import { expectedMs } from '../../harness/budget.ts';
import type { BridgeSettings } from '../../harness/profile/types.ts';
import { matrixScope } from './bridge.ts';
import { bridgeEntry } from './settings.ts';
import { MATRIX_RUNS } from './cases.ts';

const READS = ['status', 'info', 'players'] as const;

// Annotated, so that the profile's types (derived from the registry) never wait on this initializer.
export const gameBridge: InterfaceDescriptor<'game-bridge', ReturnType<typeof bridgeEntry>> = defineInterface({
  name: 'game-bridge',
  title: 'Interface C of 002_e31f548efc8ec0bb.txt, the game-server bridge (/v2/...)',
  reference: { start: async (options) => (await import('../../mocks/game-bridge/server.ts')).start(options), faults, readings },
  profileSchema: bridgeEntry,
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
        if (reply.status === 401) return `${what} was answered 401: the target refused the credential authKey (environment variable ${credentialEnv.authKey ?? '?'}); check its value`;
        return notTheApi(reply, what);
      },
    };
  },
  settingsHelp: [
    'game-bridge:',
    '  credentials: { authKey: BRIDGE_AUTH_KEY }   # the variable that holds auth.key of config.yaml',
    '  settings:',
    '    maxList: 50                               # players.max-list',
    '    endpoints: { log: true, status: true, players: true, info: true }   # v2-endpoints.*',
    '    platform: paper                           # the lowercase platform identifier /v2/info must report (optional)',
    '    onlinePlayers: 60                         # the true number of players online, if you know it (optional)',
    '    logRequiresContentType: false             # true: POST /v2/log reads a body only when Content-Type names JSON (state it either way)',
  ].join('\n'),
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
