import { createRequire } from 'node:module';
import type * as TypeBox from '@sinclair/typebox';

let loaded: typeof TypeBox.Type | undefined;

/**
 * TypeBox's `Type` builder, loaded the first time a profile schema is built: only a process that checks a profile
 * needs it. TypeBox was the largest single part of a test worker's start-up, and workers take the profile as the
 * command checked it. From the package's CommonJS build: its ES-module build is some 270 small files that a loader
 * hook would see one by one. Types (`Static`, `TSchema`) come from the package itself, as type-only imports.
 */
export function typeBox(): typeof TypeBox.Type {
  return (loaded ??= (createRequire(import.meta.url)('@sinclair/typebox') as typeof TypeBox).Type);
}

/** A schema built by `build` the first time it is asked for, and kept. */
export function builtOnce<T>(build: () => T): () => T {
  let schema: T | undefined;
  return () => (schema ??= build());
}
