/**
 * The JSON Schemas the harness publishes under schemas/, made from the TypeBox declarations its own types come from:
 * `npm run generate` writes them, `npm run generate -- --check` fails when a committed one differs.
 */
import type { TSchema } from '@sinclair/typebox';
import { waiversSchema } from './gate.ts';
import { summarySchemas } from './reporter/summary-types.ts';
import { diffSchemas } from './diff/diff-types.ts';

const ID_BASE = 'https://conformance.invalid/schemas/';

/** Each published file (relative to the repository) and the declaration it comes from. */
export const PUBLISHED_SCHEMAS: ReadonlyArray<{ file: string; schema: () => TSchema }> = [
  { file: 'schemas/summary.schema.json', schema: () => summarySchemas().summary },
  { file: 'schemas/waivers.schema.json', schema: waiversSchema },
  { file: 'schemas/diff.schema.json', schema: () => diffSchemas().report },
];

/** The text of one published schema: the declaration, plain JSON, its keys in a fixed order, 2-space indents. */
export function publishedSchemaText(file: string, schema: TSchema): string {
  // JSON.stringify leaves out TypeBox's symbol keys ([Kind], [OptionalKind]): what remains is JSON Schema alone.
  const plain = JSON.parse(JSON.stringify(schema)) as Record<string, unknown>;
  const document = { $schema: 'https://json-schema.org/draft/2020-12/schema', $id: `${ID_BASE}${file.split('/').pop()}`, ...plain };
  return `${JSON.stringify(ordered(document), null, 2)}\n`;
}

/*
 * TypeBox writes a schema's options before its type, in whichever order it was built; the published files put what a
 * schema is before its constraints and its parts, so that a reader (and a diff) sees the same order whatever TypeBox's
 * version. Keys of maps (property names, $defs) keep the order they were declared in.
 */
const ORDER = ['$schema', '$id', '$ref', 'title', 'description', 'type', 'const', 'enum', 'format', 'pattern', 'minimum', 'maximum', 'minLength', 'minItems', 'required', 'additionalProperties', 'properties', 'patternProperties', 'items', '$defs'];
const rank = (key: string) => (ORDER.includes(key) ? ORDER.indexOf(key) : ORDER.length);
const SCHEMA_VALUED = new Set(['additionalProperties', 'items', 'not']);
const SCHEMA_LISTS = new Set(['anyOf', 'allOf', 'oneOf', 'prefixItems']);
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', '$defs']);

function ordered(schema: unknown): unknown {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return schema;
  const keys = Object.keys(schema).sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0));
  return Object.fromEntries(
    keys.map((key) => {
      const value = (schema as Record<string, unknown>)[key];
      if (SCHEMA_VALUED.has(key)) return [key, ordered(value)];
      if (SCHEMA_LISTS.has(key)) return [key, (value as unknown[]).map(ordered)];
      if (SCHEMA_MAPS.has(key)) return [key, Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([name, part]) => [name, ordered(part)]))];
      return [key, value];
    }),
  );
}
