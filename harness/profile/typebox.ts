import { createRequire } from 'node:module';

/**
 * TypeBox's `Type` builder, from the package's CommonJS build. Its ES-module build is some 270 small files, and every
 * process of a run (the command, Playwright's runner, each worker) loads them through a loader hook, which made
 * TypeBox the largest single part of a process's start-up; the CommonJS build loads in about half the time. Types
 * (`Static`, `TSchema`) still come from the package itself, as type-only imports.
 */
export const Type = (createRequire(import.meta.url)('@sinclair/typebox') as typeof import('@sinclair/typebox')).Type;
