/**
 * JSON Schema of a target profile. Settings an interface document makes configurable live under
 * `interfaces.<name>.settings`; `reference` marks an interface served by the embedded reference.
 */
const envName = { type: 'string', pattern: '^[A-Za-z_][A-Za-z0-9_]*$', description: 'name of an environment variable' };

const bridge = {
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
};

const chat = {
  type: 'object',
  additionalProperties: false,
  required: ['settings'],
  properties: {
    baseUrl: { type: 'string', format: 'uri', pattern: '^https?://' },
    reference: {
      type: 'object',
      additionalProperties: false,
      properties: { cleanupIntervalMs: { type: 'integer', minimum: 1 } },
    },
    credentials: { type: 'object', additionalProperties: envName },
    settings: {
      type: 'object',
      additionalProperties: false,
      required: ['windowMs', 'maxRequests'],
      properties: {
        windowMs: { type: 'integer', minimum: 1 },
        maxRequests: { type: 'integer', minimum: 1 },
        instances: { type: 'integer', minimum: 1, default: 1 },
        clientAddressesPreserved: { type: 'boolean', default: true },
        developmentMode: { type: 'boolean', default: false },
      },
    },
  },
  oneOf: [{ required: ['baseUrl'] }, { required: ['reference'] }],
};

export const profileSchema = {
  $id: 'target-profile',
  type: 'object',
  additionalProperties: false,
  required: ['name', 'interfaces'],
  properties: {
    name: { type: 'string', minLength: 1 },
    description: { type: 'string' },
    writes: { type: 'boolean', default: false, description: 'may the run send requests that change target state' },
    requestsPerSecond: { type: 'number', minimum: 0, default: 0, description: 'pacing against live targets; 0 = unpaced' },
    requestTimeoutMs: { type: 'integer', minimum: 100, maximum: 120000, default: 5000 },
    probeTimeoutMs: { type: 'integer', minimum: 100, maximum: 60000, default: 5000 },
    interfaces: {
      type: 'object',
      additionalProperties: false,
      minProperties: 1,
      properties: { 'game-bridge': bridge, chat },
    },
  },
} as const;
