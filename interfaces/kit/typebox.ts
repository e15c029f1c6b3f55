import type * as TypeBox from '@sinclair/typebox';
import type { Static, TSchema } from '@sinclair/typebox';
import { loadedOnFirstUse } from './lazy.ts';

const typeBoxPackage = loadedOnFirstUse<typeof TypeBox>('@sinclair/typebox');

/**
 * TypeBox's `Type` builder, loaded the first time a profile schema is built: only a process that checks a profile
 * needs it. TypeBox was the largest single part of a test worker's start-up, and workers take the profile as the
 * command checked it. From the package's CommonJS build: its ES-module build is some 270 small files that a loader
 * hook would see one by one. Types (`Static`, `TSchema`) come from the package itself, as type-only imports.
 */
export function typeBox(): typeof TypeBox.Type {
  return typeBoxPackage().Type;
}

/**
 * A pointer to one of a published schema's `$defs`, typed as the part it names (`part` is there for its type). The
 * root lists the parts under the same names; Ajv refuses to compile a pointer to a name it does not list.
 */
export const defRef = <T extends TSchema>(name: string, _part: T) => typeBox().Unsafe<Static<T>>({ $ref: `#/$defs/${name}` });
