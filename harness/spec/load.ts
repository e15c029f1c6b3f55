import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import type Router from 'find-my-way';
import { ROOT, SPECS_DIR } from '../paths.ts';
import { loadedOnFirstUse } from '../../interfaces/kit/lazy.ts';
import { yaml } from '../yaml.ts';
import { genericRequirements } from './generic.ts';
import type { LoadedSpec, OpenPoint, Operation, OperationResponse, Parameter, Requirement, SecurityScheme } from './types.ts';

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
const cache = new Map<string, LoadedSpec>();

/** Loads specs/<name>.yaml once per process: the OpenAPI document, its requirements and its flattened operations. */
export function loadSpec(name: string): LoadedSpec {
  const hit = cache.get(name);
  if (hit) return hit;
  const file = path.join(SPECS_DIR, `${name}.yaml`);
  const spec = buildSpec(name, readFileSync(file, 'utf8'), path.relative(path.dirname(SPECS_DIR), file));
  cache.set(name, spec);
  return spec;
}

/**
 * A spec's YAML, parsed once per content and kept as JSON (node_modules/.cache/): every process of a run (the runner
 * listing the tests, each worker) loads the specs, and parsing their YAML took about 0.2 s in each, JSON a hundredth of
 * that. The YAML package itself then loads only when a spec has changed.
 */
const SPEC_CACHE = path.join(ROOT, 'node_modules', '.cache', 'conformance-harness');

function parsedDocument(name: string, text: string, sha256: string): Record<string, any> {
  const cached = path.join(SPEC_CACHE, `spec-${name}-${sha256}.json`);
  try {
    return JSON.parse(readFileSync(cached, 'utf8'));
  } catch {
    // Not parsed yet (or the cache cannot be read): parse the YAML.
  }
  const doc = yaml().parse(text) as Record<string, any>;
  const json = JSON.stringify(doc);
  // Kept only when JSON gives back exactly what YAML gave (no value JSON cannot hold); stale versions are removed.
  if (isDeepStrictEqual(JSON.parse(json), doc)) {
    try {
      mkdirSync(SPEC_CACHE, { recursive: true });
      for (const f of readdirSync(SPEC_CACHE)) if (f.startsWith(`spec-${name}-`) && f.endsWith('.json')) rmSync(path.join(SPEC_CACHE, f), { force: true });
      const partial = `${cached}.${process.pid}.partial`;
      writeFileSync(partial, json);
      renameSync(partial, cached);
    } catch {
      // A cache that cannot be written costs time, never a result.
    }
  }
  return doc;
}

/** A spec from its YAML text: the OpenAPI document, its requirements (with the derived generic ones), its operations. */
export function buildSpec(name: string, text: string, file: string): LoadedSpec {
  const sha256 = createHash('sha256').update(text).digest('hex');
  const doc = parsedDocument(name, text, sha256);
  const prefix = String(doc['x-requirement-prefix'] ?? '');
  const schemes = securitySchemes(doc);
  const operations = flattenOperations(doc);
  const written: Requirement[] = (doc['x-requirements'] ?? []).map((r: any) => ({ ...r, observable: r.observable !== false }));
  return {
    name,
    prefix,
    file,
    sha256,
    document: String(doc['x-document'] ?? ''),
    section: String(doc['x-section'] ?? ''),
    title: String(doc.info?.title ?? name),
    version: String(doc.info?.version ?? ''),
    doc,
    requirements: [...written, ...genericRequirements(prefix, operations, schemes)],
    notShown: (doc['x-not-shown'] ?? []) as OpenPoint[],
    secretMembers: (doc['x-secret-members'] ?? []) as string[],
    behaviourNoise: ((doc['x-behaviour-noise'] ?? []) as Array<{ member?: string; header?: string; requirement?: string; operation?: string; why?: string }>).map((n) => ({
      key:
        n.member !== undefined ? `member:${n.member}` : n.requirement !== undefined ? `requirement:${n.requirement}` : n.operation !== undefined ? `operation:${n.operation}` : `header:${String(n.header).toLowerCase()}`,
      why: String(n.why ?? ''),
    })),
    operations,
    securitySchemes: schemes,
  };
}

/**
 * The spec as one target serves it: where a document does not show a path, the profile says it (`x-path-setting`),
 * and the operations are matched at the target's paths. Keys (which name the operation in reports) stay the spec's.
 */
export function relocated(spec: LoadedSpec, paths: Record<string, string>): LoadedSpec {
  const moved = spec.operations.map((op) => (op.pathSetting && paths[op.pathSetting] && paths[op.pathSetting] !== op.path ? { ...op, path: paths[op.pathSetting] } : op));
  if (moved.every((op, i) => op === spec.operations[i])) return spec;
  const key = `${spec.name} ${JSON.stringify(paths)}`;
  const hit = relocations.get(key);
  if (hit) return hit;
  const spec2 = { ...spec, operations: moved };
  relocations.set(key, spec2);
  return spec2;
}
const relocations = new Map<string, LoadedSpec>();

/** How a run treats an open point, in words: for --list and the commented profile. */
export function openPointTreatment(p: OpenPoint, stated: boolean): string {
  if (p.observable === false) return `not observable: ${p.why ?? ''}`;
  const readings = p.readings?.length ? `; readings: ${p.readings.map((r) => r.id).join(', ')}` : '';
  if (p.setting && stated) return `the profile states it in settings.${p.setting}${readings}`;
  return `only what every reading agrees on is asserted${p.setting ? ` unless the profile states it in settings.${p.setting}` : ''}${readings}`;
}

export function requirementById(spec: LoadedSpec, id: string): Requirement | undefined {
  return spec.requirements.find((r) => r.id === id);
}

/** Resolves a local JSON pointer reference ("#/components/schemas/X"); the specs use no remote ones. */
export function deref<T = any>(doc: any, node: any): T {
  let current = node;
  for (let hops = 0; current && typeof current === 'object' && typeof current.$ref === 'string'; hops++) {
    if (hops > 20) throw new Error(`reference loop at ${current.$ref}`);
    const pointer = current.$ref.replace(/^#\//, '').split('/').map((p: string) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
    current = pointer.reduce((acc: any, key: string) => acc?.[key], doc);
  }
  return current as T;
}

function securitySchemes(doc: any): SecurityScheme[] {
  const schemes = doc.components?.securitySchemes ?? {};
  return Object.entries<any>(schemes).map(([name, s]) => ({
    name,
    type: s.type,
    in: s.in,
    headerName: s.in === 'header' ? s.name : undefined,
    scheme: s.scheme,
  }));
}

function flattenOperations(doc: any): Operation[] {
  const ops: Operation[] = [];
  const globalSecurity: any[] = doc.security ?? [];
  for (const [p, rawItem] of Object.entries<any>(doc.paths ?? {})) {
    const item = deref(doc, rawItem);
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const security: any[] = op.security ?? globalSecurity;
      const body = op.requestBody ? deref(doc, op.requestBody) : undefined;
      const bodySchema = body?.content?.['application/json']?.schema;
      ops.push({
        key: `${method.toUpperCase()} ${p}`,
        method: method.toUpperCase(),
        path: p,
        operationId: op.operationId,
        security: [...new Set(security.flatMap((s) => Object.keys(s)))],
        refusedRoles: refusedRoles(doc, op, security),
        enabledBy: op['x-enabled-by'],
        write: op['x-write'],
        ...(op['x-moves-funds'] === true ? { movesFunds: true } : {}),
        hasRequestBody: Boolean(body),
        requestBodyRequired: Boolean(body?.required),
        requestSchema: bodySchema,
        responses: flattenResponses(doc, op.responses ?? {}),
        wrongMethod: item['x-wrong-method'],
        validRequestOpen: op['x-valid-request-open'] === undefined ? undefined : [op['x-valid-request-open']].flat(),
        acceptedWhileBusy: op['x-accepted-while-busy'],
        refusedWhileBusy: op['x-refused-while-busy'],
        securityOpen: op['x-security-open'] === undefined ? undefined : [op['x-security-open']].flat(),
        pathSetting: item['x-path-setting'],
        parameters: parametersOf(doc, [...(item.parameters ?? []), ...(op.parameters ?? [])]),
      });
    }
  }
  return ops;
}

/** See Operation.refusedRoles. */
function refusedRoles(doc: any, op: any, security: any[]): string[] {
  if (op['x-refused-roles']) return [op['x-refused-roles']].flat();
  const names = [...new Set(security.flatMap((s) => Object.keys(s)))];
  const schemes = doc.components?.securitySchemes ?? {};
  if (names.length !== 1 || !schemes[names[0]]?.['x-refuses-other-roles']) return [];
  return Object.keys(schemes).filter((n) => n !== names[0]);
}

/** Operation-level parameters override path-level ones of the same name and place. */
function parametersOf(doc: any, raw: any[]): Parameter[] {
  const byKey = new Map<string, Parameter>();
  for (const r of raw) {
    const p = deref(doc, r);
    byKey.set(`${p.in} ${p.name}`, { name: p.name, in: p.in, required: Boolean(p.required || p.in === 'path'), schema: p.schema });
  }
  return [...byKey.values()];
}

function flattenResponses(doc: any, responses: Record<string, any>): Record<string, OperationResponse> {
  const out: Record<string, OperationResponse> = {};
  for (const [status, raw] of Object.entries(responses)) {
    const r = deref(doc, raw);
    const contents = Object.entries<any>(r.content ?? {});
    const [contentType, media] = contents[0] ?? [];
    const headers: OperationResponse['headers'] = {};
    for (const [h, rawHeader] of Object.entries<any>(r.headers ?? {})) {
      const header = deref(doc, rawHeader);
      headers[h.toLowerCase()] = { required: Boolean(header.required), schema: header.schema };
    }
    out[status] = { status, contentType, contentTypes: contents.map(([t]) => t), schema: media?.schema, headers };
  }
  return out;
}

/**
 * Finds the operation a request goes to. A router puts static segments before templates, as OpenAPI requires: with
 * /v1/events/{id} and /v1/events/statistics, /v1/events/statistics is the latter whatever the order of the spec.
 * Methods are matched as sent (HTTP methods are case-sensitive: "get" is no operation's GET).
 */
export function matchOperation(spec: LoadedSpec, method: string, pathname: string): { op?: Operation; pathKnown: boolean } {
  // Asked for every response the harness receives: remembered per spec (bounded, paths may carry ids).
  let seen = matches.get(spec);
  if (!seen || seen.size > 2000) matches.set(spec, (seen = new Map()));
  const key = `${method} ${pathname}`;
  let hit = seen.get(key);
  if (!hit) {
    const { byMethod, byPath } = routersOf(spec);
    const path = pathname.split('?')[0];
    const found = byMethod.find(method as HTTPMethod, path);
    hit = { op: (found?.store as { op: Operation } | undefined)?.op, pathKnown: byPath.find('GET', path) !== null };
    seen.set(key, hit);
  }
  return hit;
}

type HTTPMethod = Parameters<Router.Instance<Router.HTTPVersion.V1>['find']>[0];
const matches = new WeakMap<LoadedSpec, Map<string, { op?: Operation; pathKnown: boolean }>>();
/** Loaded when the first response is matched: a process that only lists the tests never needs the router. */
const findMyWay = loadedOnFirstUse<typeof Router>('find-my-way');
const routers = new WeakMap<LoadedSpec, { byMethod: Router.Instance<Router.HTTPVersion.V1>; byPath: Router.Instance<Router.HTTPVersion.V1> }>();

function routersOf(spec: LoadedSpec) {
  let r = routers.get(spec);
  if (!r) {
    const router = findMyWay();
    r = { byMethod: router(), byPath: router() };
    const templates = new Set<string>();
    for (const op of spec.operations) {
      const route = op.path.replace(/\{([^}]+)\}/g, (_m, name: string) => `:${name.replace(/[^A-Za-z0-9_]/g, '_')}`);
      r.byMethod.on(op.method as HTTPMethod, route, () => {}, { op });
      if (!templates.has(route)) r.byPath.on('GET', route, () => {}, {});
      templates.add(route);
    }
    routers.set(spec, r);
  }
  return r;
}

/** The ids of a requirement group of a spec (see Requirement.group), in the spec's order; an unknown group is a harness error. */
export function groupOf<Id extends string = string>(spec: LoadedSpec, group: string): Id[] {
  const ids = spec.requirements.filter((r) => r.group === group).map((r) => r.id as Id);
  if (ids.length === 0) throw new Error(`harness: specs/${spec.name}.yaml has no requirement of the group ${group}`);
  return ids;
}
