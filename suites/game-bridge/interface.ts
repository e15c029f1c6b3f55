import { defineInterface } from '../../harness/interface.ts';
import { notTheApi } from '../../harness/probe.ts';
import { envName } from '../../harness/profile/schema-parts.ts';
import { start } from '../../mocks/game-bridge/server.ts';
import { faults } from '../../mocks/game-bridge/faults.ts';
import { expectedMs } from '../../harness/budget.ts';
import type { BridgeSettings } from '../../harness/profile/types.ts';
import { matrixScope } from './bridge.ts';
import { MATRIX_RUNS } from './cases.ts';

const READS = ['status', 'info', 'players'] as const;

export const gameBridge = defineInterface({
  name: 'game-bridge',
  title: 'Interface C of 002_e31f548efc8ec0bb.txt, the game-server bridge (/v2/...)',
  reference: { start: start as never, faults },
  profileSchema: {
    type: 'object',
    additionalProperties: false,
    required: ['settings'],
    properties: {
      baseUrl: { type: 'string', format: 'uri', pattern: '^https?://' },
      reference: {
        type: 'object',
        additionalProperties: false,
        properties: {
          game: { type: 'string' },
          version: { type: 'string' },
          checkOrder: { type: 'array', items: { enum: ['auth', 'method', 'enabled'] }, minItems: 3, maxItems: 3, uniqueItems: true },
          bodyFirst: { type: 'boolean' },
          writeTripwire: { type: 'boolean' },
        },
      },
      credentials: { type: 'object', additionalProperties: false, required: ['authKey'], properties: { authKey: envName } },
      settings: {
        type: 'object',
        additionalProperties: false,
        required: ['maxList', 'endpoints'],
        properties: {
          maxList: { type: 'integer', minimum: 0 },
          endpoints: {
            type: 'object',
            additionalProperties: false,
            required: ['log', 'status', 'players', 'info'],
            properties: { log: { type: 'boolean' }, status: { type: 'boolean' }, players: { type: 'boolean' }, info: { type: 'boolean' } },
          },
          platform: { type: 'string', minLength: 1 },
          onlinePlayers: { type: 'integer', minimum: 0 },
        },
      },
    },
    oneOf: [{ required: ['baseUrl'] }, { required: ['reference'] }],
  },
  // "every request carries header X-Auth-Key whose value equals auth.key": the key is the whole authentication.
  authenticate: (req, secrets) => ({ ...req, headers: { ...req.headers, 'X-Auth-Key': secrets.get('authKey') } }),
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
