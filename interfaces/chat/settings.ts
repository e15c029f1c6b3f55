import { builtOnce } from '../kit/lazy.ts';
import { profileEntry, schemaKit } from '../kit/profile-entry.ts';

/**
 * The chat entry of a target profile (interfaces.chat). Interface E gives the limiter's window and limit (defaults 20
 * per 60000 ms); what it leaves open and a tester of one deployment knows is stated here too: how long an allowed
 * reply takes (E-NS-REPLY-TIME) and what a chat request needs beside its messages (E-NS-EXTRA-INPUT). The loader fills
 * in every default; the two settings added for open points are optional in the type all the same, so that settings
 * written out in code (tests, a reference started by hand) need not name them.
 */
export const chatEntry = builtOnce(() => {
  const { Type, EnvName } = schemaKit();
  return profileEntry({
    reference: Type.Object(
      {
        cleanupIntervalMs: Type.Optional(Type.Integer({ minimum: 1 })),
        // The document's "in development mode localhost connections are allowed" has two readings; the reference
        // can be started with either (the harness must accept both).
        developmentModeReading: Type.Optional(Type.Union([Type.Literal('client-id'), Type.Literal('connection')])),
      },
      { additionalProperties: false },
    ),
    // Named by the profile's extras where a deployment asks for a key the document does not show (E-NS-AUTH):
    // "Authorization: Bearer {credential:apiKey}".
    credentials: Type.Record(Type.String(), EnvName),
    settings: Type.Object(
      {
        windowMs: Type.Integer({ minimum: 1, description: 'Length of the rate-limit window, in milliseconds.', examples: [60000] }),
        maxRequests: Type.Integer({ minimum: 1, description: 'Requests allowed per client identifier in one window.', examples: [20] }),
        instances: Type.Integer({ minimum: 1, default: 1, description: 'Instances behind the load balancer; each instance keeps its own counters.' }),
        clientAddressesPreserved: Type.Boolean({ default: true, description: 'False when a proxy in front rewrites X-Forwarded-For, so client addresses are not preserved.' }),
        developmentMode: Type.Boolean({ default: false, description: 'True when the deployment runs in development mode.' }),
        /**
         * How long the deployment takes to answer an allowed chat request, in ms (its model's time; E-NS-REPLY-TIME):
         * where a client's allowance would take a good part of the window one reply after another, the counting
         * checks send it at once, and they plan their time for it. 0: at once. Unstated, the checks go by the
         * replies they measure.
         */
        replyMs: Type.Optional(Type.Integer({ minimum: 0, default: 0, description: "How long the deployment takes to answer an allowed chat request (its model's time), in ms." })),
        /**
         * Members every chat request the harness sends carries beside `messages`, for a deployment that asks for
         * more than the document's body (E-NS-EXTRA-INPUT: the model to answer with, say).
         */
        requestMembers: Type.Optional(Type.Record(Type.String(), Type.Unknown(), { default: {}, description: 'Members every chat request must carry beside messages (the model to answer with, say).' })),
      },
      { additionalProperties: false },
    ),
  });
});
