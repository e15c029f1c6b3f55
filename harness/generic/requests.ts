import type { RequestSpec } from '../http/client.ts';
import type { LoadedSpec, Operation } from '../spec/types.ts';
import { validValue } from './bodies.ts';

/**
 * A request valid by the spec for one operation: path, query and header parameters and the body drawn from their
 * schemas, except the values the target must supply (an id an earlier request created), which a suite's hook gives.
 * Only required parameters are sent: an optional one is a reading the document may not force.
 */
export function validRequest(spec: LoadedSpec, op: Operation, supplied: Record<string, unknown> = {}): RequestSpec {
  const value = (name: string, schema: unknown) => (name in supplied ? supplied[name] : validValue(spec.doc, schema ?? { type: 'string', minLength: 1 }));
  const params = op.parameters.filter((p) => p.required);
  const path = op.path.replace(/\{([^}]+)\}/g, (_m, name: string) => encodeURIComponent(String(value(name, params.find((p) => p.in === 'path' && p.name === name)?.schema))));
  const query = new URLSearchParams();
  for (const p of params.filter((p) => p.in === 'query')) query.append(p.name, String(value(p.name, p.schema)));
  const headers: Record<string, string> = {};
  for (const p of params.filter((p) => p.in === 'header')) headers[p.name] = String(value(p.name, p.schema));
  const q = query.toString();
  return {
    method: op.method,
    path: q ? `${path}?${q}` : path,
    headers,
    ...(op.hasRequestBody ? { json: validValue(spec.doc, op.requestSchema) } : {}),
  };
}
