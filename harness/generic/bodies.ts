import { deref } from '../spec/load.ts';

/** A minimal valid value for a schema: its example where it gives one, else required members with plain values. */
export function validValue(doc: unknown, rawSchema: unknown, depth = 0): unknown {
  const schema = deref<any>(doc, rawSchema) ?? {};
  if (depth > 8) return null;
  if (schema.example !== undefined) return schema.example;
  if (Array.isArray(schema.examples) && schema.examples.length) return schema.examples[0];
  if (schema.const !== undefined) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length) return schema.enum[0];
  if (schema.default !== undefined) return schema.default;
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  if (type === 'object' || schema.properties) {
    const out: Record<string, unknown> = {};
    for (const name of schema.required ?? []) out[name] = validValue(doc, schema.properties?.[name] ?? {}, depth + 1);
    return out;
  }
  if (type === 'array') return [validValue(doc, schema.items ?? {}, depth + 1)];
  if (type === 'integer' || type === 'number') return schema.minimum ?? 1;
  if (type === 'boolean') return true;
  if (type === 'null') return null;
  return '[conformance-harness] generic check';
}

export interface BadBody {
  label: string;
  body: string;
  /** Certainly refused by a server that follows the schema: safe to send where writes are not allowed. */
  certainlyRefused: boolean;
}

/**
 * Bodies a schema refuses: broken JSON, the wrong JSON type, required members absent or of the wrong type.
 * `certainlyRefused` only where the schema itself rules the body out, since such bodies are sent even where
 * the profile forbids writes.
 */
export function badBodies(doc: unknown, rawSchema: unknown, bodyRequired = true): BadBody[] {
  const schema = deref<any>(doc, rawSchema) ?? {};
  const types: string[] = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  const onlyObject = types.length > 0 ? types.every((t) => t === 'object') : Boolean(schema.properties);
  const out: BadBody[] = [
    { label: 'not JSON', body: '{"broken": ', certainlyRefused: true },
    { label: 'empty body', body: '', certainlyRefused: bodyRequired },
    { label: 'JSON null', body: 'null', certainlyRefused: onlyObject },
    { label: 'JSON array', body: '[]', certainlyRefused: onlyObject },
    { label: 'JSON number', body: '42', certainlyRefused: onlyObject },
  ];
  const required: string[] = schema.required ?? [];
  if (required.length) out.push({ label: 'required members absent', body: '{}', certainlyRefused: true });
  const valid = validValue(doc, schema) as Record<string, unknown>;
  for (const name of required) {
    const member = deref<any>(doc, schema.properties?.[name] ?? {});
    const type = Array.isArray(member.type) ? member.type[0] : member.type;
    const wrong = type === 'string' ? { nested: true } : type === 'array' ? 'not an array' : type === 'object' ? ['not', 'an', 'object'] : 'not a number';
    // A server may coerce a wrong type rather than refuse it: such a request is not certainly refused.
    out.push({ label: `${name} of the wrong type`, body: JSON.stringify({ ...valid, [name]: wrong }), certainlyRefused: false });
  }
  return out;
}
