import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from '../paths.ts';
import { makeAjv } from '../validation/ajv.ts';

/** The published schema of summary.json (schemas/summary.schema.json, written by `npm run generate` from ./summary-types.ts). */
export const SUMMARY_SCHEMA_FILE = path.join(ROOT, 'schemas', 'summary.schema.json');

let validate: ReturnType<ReturnType<typeof makeAjv>['compile']> | undefined;

/** The problems of a summary against the published schema, one line each (empty when it fits). */
export function summaryProblems(summary: unknown): string[] {
  validate ??= makeAjv().compile(JSON.parse(readFileSync(SUMMARY_SCHEMA_FILE, 'utf8')));
  if (validate(summary)) return [];
  return (validate.errors ?? []).map((e) => `${e.instancePath || '(top level)'}: ${e.message}${e.params && 'additionalProperty' in e.params ? ` (${e.params.additionalProperty})` : ''}`);
}
