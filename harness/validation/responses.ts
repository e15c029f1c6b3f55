import type { ValidateFunction } from 'ajv';
import { makeAjv } from './ajv.ts';
import { matchOperation } from '../spec/load.ts';
import type { LoadedSpec, Operation, OperationResponse } from '../spec/types.ts';

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
  /** Parses the body when the check needs it (undefined: not JSON); the caller keeps the result for its own use. */
  parse?: () => { value: unknown } | undefined;
}

type Checked = ResponseProblems & { documented: boolean; applied?: Applied };

/**
 * Checks already made, per spec: a check is a function of the operation, the status, the headers it looks at and the
 * body, and a run gets the same answer many times (a rate limit's refusals, a list read again). Bodies up to 4 KB.
 */
const memo = new WeakMap<LoadedSpec, Map<string, Map<string, Checked>>>();
const MEMO_BODY_LIMIT = 4096;
const MEMO_ENTRIES = 2000;

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

/** Validators of every documented response, compiled ahead: for npm run bench, which times validation apart from compiling (runs compile each as its first response arrives). */
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

/** Which of the generic checks a response with this documented status can be held to: those its entry declares. */
type Applied = { schema: boolean; contentType: boolean; headers: boolean };

function appliedBy(documented: OperationResponse): Applied {
  return { schema: Boolean(documented.schema), contentType: Boolean(documented.contentType), headers: Object.keys(documented.headers ?? {}).length > 0 };
}

/**
 * Checks one response against the spec. A status the spec does not document is not judged here. `op`: the operation
 * the request matched, when the caller has looked it up already.
 */
export function checkResponse(spec: LoadedSpec, r: ResponseToCheck, op: Operation | undefined = matchOperation(spec, r.method, r.path).op): Checked {
  const documented = op ? documentedResponse(op.responses, r.status) : undefined;
  if (!op || !documented) return { schema: [], contentType: [], headers: [], documented: false };
  if (r.body.length > MEMO_BODY_LIMIT) return check(spec, r, op, documented);
  const header = (name: string) => {
    const v = r.headers[name];
    return Array.isArray(v) ? v[0] : v;
  };
  // Keyed by what the check looks at besides the body, then by the body itself (no copy of it is made).
  let meta = `${op.key} ${r.status} ${header('content-type') ?? ''}`;
  for (const h in documented.headers) meta += `\u0001${header(h) ?? '\u0000'}`;
  let bySpec = memo.get(spec);
  if (!bySpec) memo.set(spec, (bySpec = new Map()));
  let byBody = bySpec.get(meta);
  if (!byBody || byBody.size >= MEMO_ENTRIES) bySpec.set(meta, (byBody = new Map()));
  const hit = byBody.get(r.body);
  if (hit) return hit;
  const result = check(spec, r, op, documented);
  byBody.set(r.body, result);
  return result;
}

function check(spec: LoadedSpec, r: ResponseToCheck, op: Operation, documented: OperationResponse): Checked {
  const problems: ResponseProblems = { schema: [], contentType: [], headers: [] };
  const applied = appliedBy(documented);
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
    if (!mediaTypeFits(ct, documented.contentTypes ?? [documented.contentType])) {
      problems.contentType.push(`${where}: content type ${ct ? JSON.stringify(ct) : 'missing'}, documented ${(documented.contentTypes ?? [documented.contentType]).join(' or ')}`);
    }
  }

  if (documented.schema) {
    let body: unknown;
    try {
      if (r.parsed) body = r.parsed.value;
      else if (r.parse) {
        const parsed = r.parse();
        if (!parsed) throw new Error('not JSON');
        body = parsed.value;
      } else body = JSON.parse(r.body);
    } catch {
      problems.schema.push(`${where}: body is not JSON: ${JSON.stringify(r.body.slice(0, 120))}`);
      return { ...problems, documented: true, applied };
    }
    const check = validatorFor(spec, `${spec.name} ${op.key} ${r.status}`, documented.schema);
    if (!check(body)) problems.schema.push(`${where}: ${ajv.errorsText(check.errors, { dataVar: 'body' })}`);
  }
  return { ...problems, documented: true, applied };
}

/**
 * Whether a response's media type is one the spec documents. Where the spec documents JSON, a structured-syntax
 * JSON type (application/problem+json, RFC 6839's +json suffix) is JSON too: the documents name a body's members,
 * never its media type, and a deployment may label an error as a problem document.
 */
export function mediaTypeFits(actual: string, documented: readonly string[]): boolean {
  const wanted = documented.map((t) => t.toLowerCase());
  if (wanted.includes(actual)) return true;
  return wanted.includes('application/json') && /^application\/[a-z0-9.!#$&^_-]+\+json$/.test(actual);
}

/** Header values are strings on the wire; a documented number or integer is compared as one. */
function coerceHeader(value: string, schema: any): unknown {
  const type = schema?.type;
  if ((type === 'integer' || type === 'number') && /^-?\d+(\.\d+)?$/.test(value.trim())) return Number(value);
  return value;
}
