import type { ValidateFunction } from 'ajv';
import { makeAjv } from './ajv.ts';
import { matchOperation } from '../spec/load.ts';
import type { LoadedSpec, OperationResponse } from '../spec/types.ts';

/** What a response got wrong against its spec, by the generic requirement each problem belongs to. */
export interface ResponseProblems {
  schema: string[];
  contentType: string[];
  headers: string[];
}

export interface ResponseToCheck {
  method: string;
  path: string;
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  /** The body already parsed, when the caller has parsed it (undefined: not JSON, or not parsed yet). */
  parsed?: { value: unknown };
}

const ajv = makeAjv();
const compiled = new Map<string, ValidateFunction>();
const registered = new Set<string>();

function baseId(spec: LoadedSpec): string {
  return `https://conformance.invalid/specs/${spec.name}.json`;
}

/** Compiles a schema of the spec once per process; its local references point into the spec's components. */
function validatorFor(spec: LoadedSpec, key: string, schema: unknown): ValidateFunction {
  const hit = compiled.get(key);
  if (hit) return hit;
  if (!registered.has(spec.name)) {
    ajv.addSchema({ $id: baseId(spec), components: spec.doc.components ?? {} });
    registered.add(spec.name);
  }
  const fn = ajv.compile(rebase(schema, baseId(spec)) as object);
  compiled.set(key, fn);
  return fn;
}

function rebase(node: unknown, base: string): unknown {
  if (Array.isArray(node)) return node.map((n) => rebase(n, base));
  if (!node || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node)) {
    out[k] = k === '$ref' && typeof v === 'string' && v.startsWith('#/') ? base + v : rebase(v, base);
  }
  return out;
}

/** Validators of every documented response, compiled ahead (so that the first check does not pay for them). */
export function precompile(spec: LoadedSpec): void {
  for (const op of spec.operations) {
    for (const r of Object.values(op.responses)) {
      if (r.schema) validatorFor(spec, `${spec.name} ${op.key} ${r.status}`, r.schema);
    }
  }
}

function documentedResponse(responses: Record<string, OperationResponse>, status: number): OperationResponse | undefined {
  return responses[String(status)] ?? responses[`${String(status)[0]}XX`] ?? responses.default;
}

/** Which of the generic checks a response to this request can be held to: those its documented status declares. */
export function checksApplied(spec: LoadedSpec, method: string, path: string, status: number): { schema: boolean; contentType: boolean; headers: boolean } {
  const { op } = matchOperation(spec, method, path);
  const documented = op ? documentedResponse(op.responses, status) : undefined;
  return { schema: Boolean(documented?.schema), contentType: Boolean(documented?.contentType), headers: Object.keys(documented?.headers ?? {}).length > 0 };
}

/** Checks one response against the spec. A status the spec does not document is not judged here. */
export function checkResponse(spec: LoadedSpec, r: ResponseToCheck): ResponseProblems & { documented: boolean } {
  const problems: ResponseProblems = { schema: [], contentType: [], headers: [] };
  const { op } = matchOperation(spec, r.method, r.path);
  const documented = op ? documentedResponse(op.responses, r.status) : undefined;
  if (!op || !documented) return { ...problems, documented: false };
  const where = `${op.key} ${r.status}`;

  for (const [name, h] of Object.entries(documented.headers)) {
    const raw = r.headers[name];
    const value = Array.isArray(raw) ? raw[0] : raw;
    if (value === undefined) {
      if (h.required) problems.headers.push(`${where}: header ${name} is missing`);
      continue;
    }
    if (h.schema) {
      const check = validatorFor(spec, `${spec.name} ${op.key} ${r.status} header ${name}`, h.schema);
      if (!check(coerceHeader(value, h.schema))) problems.headers.push(`${where}: header ${name}: ${JSON.stringify(value)} ${ajv.errorsText(check.errors, { dataVar: 'value' })}`);
    }
  }

  if (documented.contentType) {
    const ct = String(r.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
    if (ct !== documented.contentType.toLowerCase()) {
      problems.contentType.push(`${where}: content type ${ct ? JSON.stringify(ct) : 'missing'}, documented ${documented.contentType}`);
    }
  }

  if (documented.schema) {
    let body: unknown;
    try {
      body = r.parsed ? r.parsed.value : JSON.parse(r.body);
    } catch {
      problems.schema.push(`${where}: body is not JSON: ${JSON.stringify(r.body.slice(0, 120))}`);
      return { ...problems, documented: true };
    }
    const check = validatorFor(spec, `${spec.name} ${op.key} ${r.status}`, documented.schema);
    if (!check(body)) problems.schema.push(`${where}: ${ajv.errorsText(check.errors, { dataVar: 'body' })}`);
  }
  return { ...problems, documented: true };
}

/** Header values are strings on the wire; a documented number or integer is compared as one. */
function coerceHeader(value: string, schema: any): unknown {
  const type = schema?.type;
  if ((type === 'integer' || type === 'number') && /^-?\d+(\.\d+)?$/.test(value.trim())) return Number(value);
  return value;
}
