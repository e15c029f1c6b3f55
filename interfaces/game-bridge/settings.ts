import { builtOnce } from '../kit/lazy.ts';
import { profileEntry, schemaKit } from '../kit/profile-entry.ts';

/**
 * The game-bridge entry of a target profile (interfaces.game-bridge): declared once, its type derived from it. Where
 * the document leaves a choice open that a tester of a deployment knows, a setting states it; a check holds the
 * target to such a setting only where the profile states it (`statedReadings`), never to its default (suites/game-bridge/stated.ts).
 */
export const bridgeEntry = builtOnce(() => {
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
    credentials: Type.Object({ authKey: EnvName }, { additionalProperties: false, examples: [{ authKey: 'BRIDGE_AUTH_KEY' }] }),
    settings: Type.Object(
      {
        maxList: Type.Integer({ minimum: 0, description: "The deployment's players.max-list: the most player names a players answer lists.", examples: [50] }),
        endpoints: Type.Object(
          { log: Type.Boolean(), status: Type.Boolean(), players: Type.Boolean(), info: Type.Boolean() },
          { additionalProperties: false, description: 'Which v2 endpoints the deployment has enabled (its v2-endpoints.* switches).', examples: [{ log: true, status: true, players: true, info: true }] },
        ),
        platform: Type.Optional(Type.String({ minLength: 1, description: 'The lowercase platform identifier /v2/info must report (paper, say).' })),
        onlinePlayers: Type.Optional(Type.Integer({ minimum: 0, description: 'The true number of players online during the run, if you know it.' })),
        // C-NS-CONTENT-TYPE: the document only recommends Content-Type application/json. True: POST /v2/log reads a body
        // only when it is labelled with a JSON media type, so one sent without Content-Type counts as absent.
        logRequiresContentType: Type.Optional(Type.Boolean({ default: false, description: 'True: POST /v2/log reads a body only when its Content-Type names JSON.' })),
      },
      { additionalProperties: false },
    ),
  });
});
