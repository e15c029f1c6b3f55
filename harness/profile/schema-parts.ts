import { typeBox } from './typebox.ts';
import type { TSchema } from '@sinclair/typebox';

/**
 * What an interface's profile schema is built with: TypeBox's builder and the pieces every entry uses. Asked inside
 * the function that builds the schema, so that TypeBox loads only where a profile is checked.
 */
export function schemaKit() {
  const Type = typeBox();
  return { Type, EnvName: Type.String({ pattern: '^[A-Za-z_][A-Za-z0-9_]*$', description: 'name of an environment variable' }) };
}

/**
 * An interface's entry of a target profile: `baseUrl` (a live deployment) or `reference` (the embedded one, with its
 * options), the names of the environment variables that hold its credentials, and the settings its document makes
 * configurable. Every object is closed: an unknown field is a mistake the loader names.
 */
export function profileEntry<R extends TSchema, C extends TSchema, S extends TSchema>(parts: { reference: R; credentials: C; settings: S }) {
  const Type = typeBox();
  return Type.Object(
    {
      baseUrl: Type.Optional(Type.String({ format: 'uri', pattern: '^https?://' })),
      reference: Type.Optional(parts.reference),
      credentials: Type.Optional(parts.credentials),
      settings: parts.settings,
    },
    { additionalProperties: false, oneOf: [{ required: ['baseUrl'] }, { required: ['reference'] }] },
  );
}
