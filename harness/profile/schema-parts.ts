import { Type } from '@sinclair/typebox';

/** Pieces of the target-profile schema that every interface's section uses (TypeBox: the types follow from them). */
export const EnvName = Type.String({ pattern: '^[A-Za-z_][A-Za-z0-9_]*$', description: 'name of an environment variable' });
/** @deprecated plain JSON Schema form of EnvName, for sections not yet declared with TypeBox. */
export const envName = { type: 'string', pattern: '^[A-Za-z_][A-Za-z0-9_]*$', description: 'name of an environment variable' } as const;
