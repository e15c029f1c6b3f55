import type * as TypeBox from '@sinclair/typebox';
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
