import { generateSync, type JsonSchema } from 'json-schema-faker';
import { deref } from '../spec/load.ts';

/**
 * A value valid by a schema of the spec, drawn by json-schema-faker (formats, patterns, array sizes, oneOf and local
 * $refs included) with a fixed seed, so that the same spec always gives the same request. Where the spec gives an
 * example, the example is used: it is the value the spec's author chose as one every reading of the document accepts
 * (role "user" for chat, a console line that says where it comes from for the bridge). Optional members are left out.
 */
export function validValue(doc: unknown, rawSchema: unknown, seed = 1): unknown {
  const components = (doc as { components?: unknown } | undefined)?.components ?? {};
  const schema = preferExamples(rawSchema) as Record<string, unknown>;
  return generateSync({ ...(typeof schema === 'object' ? schema : {}), components: preferExamples(components) } as JsonSchema, { seed, optionalsProbability: 0 });
}

/** A copy of a schema where every subschema with an example becomes that constant. */
function preferExamples(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(preferExamples);
  if (!node || typeof node !== 'object') return node;
  const o = node as Record<string, unknown>;
  if (o.example !== undefined) return { const: o.example };
  if (Array.isArray(o.examples) && o.examples.length) return { const: o.examples[0] };
  return Object.fromEntries(Object.entries(o).map(([k, v]) => [k, k === 'properties' || k === 'schemas' || k === '$defs' ? mapValues(v) : preferExamples(v)]));
}

function mapValues(v: unknown): unknown {
  if (!v || typeof v !== 'object') return v;
  return Object.fromEntries(Object.entries(v as Record<string, unknown>).map(([k, x]) => [k, preferExamples(x)]));
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
