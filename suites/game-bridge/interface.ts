import { defineInterface, type InterfaceDescriptor } from '../../harness/interface.ts';
import { notTheApi } from '../../harness/probe.ts';
import { builtOnce } from '../../harness/lazy.ts';
import { profileEntry, schemaKit } from '../../harness/profile/schema-parts.ts';
import { faults } from '../../mocks/game-bridge/faults.ts';
import { readings } from '../../mocks/game-bridge/readings.ts';
import { expectedMs } from '../../harness/budget.ts';
import type { BridgeSettings } from '../../harness/profile/types.ts';
import { matrixScope } from './bridge.ts';
import { MATRIX_RUNS } from './cases.ts';

const READS = ['status', 'info', 'players'] as const;

/** The interface's entry of a target profile (interfaces.game-bridge): declared once, its type derived from it. */
const bridgeEntry = builtOnce(() => {
  const { Type, EnvName } = schemaKit();
  return profileEntry({
    reference: Type.Object(
      {
        game: Type.Optional(Type.String()),
        version: Type.Optional(Type.String()),
        checkOrder: Type.Optional(Type.Array(Type.Union([Type.Literal('auth'), Type.Literal('method'), Type.Literal('enabled')]), { minItems: 3, maxItems: 3, uniqueItems: true })),
        bodyFirst: Type.Optional(Type.Boolean()),
        writeTripwire: Type.Optional(Type.Boolean()),
        // A front limiter of the reference (the reading per-client-429 of C-NS-RATE-LIMITS): requests per client address per window.
        rateLimit: Type.Optional(Type.Object({ requests: Type.Integer({ minimum: 1 }), windowMs: Type.Integer({ minimum: 1 }) }, { additionalProperties: false })),
      },
      { additionalProperties: false },
    ),
    credentials: Type.Object({ authKey: EnvName }, { additionalProperties: false }),
    settings: Type.Object(
      {
        maxList: Type.Integer({ minimum: 0 }),
        endpoints: Type.Object({ log: Type.Boolean(), status: Type.Boolean(), players: Type.Boolean(), info: Type.Boolean() }, { additionalProperties: false }),
        platform: Type.Optional(Type.String({ minLength: 1 })),
        onlinePlayers: Type.Optional(Type.Integer({ minimum: 0 })),
      },
      { additionalProperties: false },
    ),
  });
});

// Annotated, so that the profile's types (derived from the registry) never wait on this initializer.
export const gameBridge: InterfaceDescriptor<'game-bridge', ReturnType<typeof bridgeEntry>> = defineInterface({
  name: 'game-bridge',
  title: 'Interface C of 002_e31f548efc8ec0bb.txt, the game-server bridge (/v2/...)',
  reference: { start: async (options) => (await import('../../mocks/game-bridge/server.ts')).start(options), faults, readings },
  profileSchema: bridgeEntry,
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
