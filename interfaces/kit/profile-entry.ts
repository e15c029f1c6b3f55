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
      // Every reference takes the readings of open points it was asked for (mocks/readings.ts) beside its own options,
      // and can start in its noisy variant (mocks/noise.ts), which the behaviour diff must measure as noise.
      reference: Type.Optional(
        Type.Composite(
          [
            parts.reference,
            Type.Object({
              readings: Type.Optional(Type.Record(Type.String({ pattern: '^[A-Z]+-NS-[A-Z0-9-]+$' }), Type.String({ minLength: 1 }))),
              noise: Type.Optional(Type.Boolean({ description: 'answer about half the JSON objects with an extra member "jitter" of a random type: a deployment that varies where no client should care' })),
            }),
          ],
          { additionalProperties: false },
        ),
      ),
      credentials: Type.Optional(parts.credentials),
      settings: withExtras(parts.settings),
    },
    { additionalProperties: false, oneOf: [{ required: ['baseUrl'] }, { required: ['reference'] }] },
  );
}

/**
 * Every interface's settings may name what an operation needs beyond its document (`extras`): query parameters and
 * headers per operation ("GET /trading-api/v2/orders/{orderId}"), whose values may name values the run learns
 * ("{tradingAccountId}"); the client adds them to every request to that operation (harness/http/extras.ts).
 */
function withExtras<S extends TSchema>(settings: S) {
  const Type = typeBox();
  const Values = Type.Record(Type.String({ minLength: 1 }), Type.String());
  const Extras = Type.Record(
    Type.String({ pattern: '^[A-Z]+ /' }),
    Type.Object({ query: Type.Optional(Values), headers: Type.Optional(Values) }, { additionalProperties: false }),
    { description: 'per operation ("GET /path/{id}" as the spec writes it): query parameters and headers a deployment needs beyond its document; "{name}" in a value is a value the run learns, "{credential:name}" one of the entry\'s credentials' },
  );
  const options = { additionalProperties: false, ...(settings.default !== undefined ? { default: settings.default } : {}) };
  return Type.Composite([settings, Type.Object({ extras: Type.Optional(Extras) })], options);
}
