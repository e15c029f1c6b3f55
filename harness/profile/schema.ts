import { DEFINITIONS } from '../../interfaces/registry.ts';
import { builtOnce } from '../../interfaces/kit/lazy.ts';

/**
 * JSON Schema of a target profile. Each interface's section (`interfaces.<name>`) comes from its definition
 * (interfaces/<name>/): the settings its document makes configurable, `baseUrl` for a live deployment or `reference`
 * for the embedded one.
 * Built when a profile is first checked, the interfaces' sections with it.
 */
export const profileSchema = builtOnce(() => ({
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
    depth: {
      anyOf: [{ enum: ['quick', 'default', 'deep'] }, { type: 'number', exclusiveMinimum: 0 }],
      description: 'how many generated cases the properties run when --depth is not given (a nightly profile: deep)',
    },
    recordSigningKey: {
      type: 'string',
      pattern: '^[A-Za-z_][A-Za-z0-9_]*$',
      description: 'the environment variable holding the Ed25519 private key that signs acceptance records (--record)',
    },
    maxRunMinutes: { type: 'number', exclusiveMinimum: 0, description: 'refuse to start a run whose planned work cannot fit in this many minutes' },
    interfaces: {
      type: 'object',
      additionalProperties: false,
      minProperties: 1,
      properties: Object.fromEntries(DEFINITIONS.map((d) => [d.name, d.profileSchema()])),
    },
  },
}) as const);
