/**
 * What an operation needs beyond its document (`settings.extras` of a profile): query parameters and headers per
 * operation, added to every request to it. A value may name a value the run learns ("{tradingAccountId}", learnt from
 * the account listing) or one of the profile's credentials ("Bearer {credential:apiKey}"); one the check has not learnt
 * yet makes the request the harness's trouble, never the target's.
 */
import { matchOperation } from '../spec/load.ts';
import type { LoadedSpec } from '../spec/types.ts';
import type { RequestSpec } from './request-spec.ts';

export interface Extra {
  query?: Record<string, string>;
  headers?: Record<string, string>;
}

export class MissingRunValue extends Error {}

/**
 * A template's placeholders filled: "{name}" with a value the run learnt, "{credential:name}" with one of the
 * profile's credentials (read from the environment variable the profile names, and redacted like every secret).
 */
function filled(template: string, values: ReadonlyMap<string, string>, where: string, credential?: (name: string) => string | undefined): string {
  return template.replace(/\{((?:credential:)?[A-Za-z0-9_.-]+)\}/g, (_m, name: string) => {
    if (name.startsWith('credential:')) {
      const v = credential?.(name.slice('credential:'.length));
      if (v === undefined) throw new MissingRunValue(`harness: the profile's extras for ${where} name {${name}}, which is not one of its credentials`);
      return v;
    }
    const v = values.get(name);
    if (v === undefined) throw new MissingRunValue(`harness: the profile's extras for ${where} need {${name}}, a value this check has not learnt (known: ${[...values.keys()].join(', ') || 'none'})`);
    return v;
  });
}

/**
 * The request with the extras of its operation: a query parameter or header the request already has is left as it is
 * (a check that sends a wrong one on purpose keeps it).
 */
export function withExtras(request: RequestSpec, spec: LoadedSpec | undefined, extras: Record<string, Extra> | undefined, values: ReadonlyMap<string, string>, credential?: (name: string) => string | undefined): RequestSpec {
  if (!extras || !spec) return request;
  const q = request.path.indexOf('?');
  const pathname = q < 0 ? request.path : request.path.slice(0, q);
  const op = matchOperation(spec, request.method, pathname).op;
  const extra = op && extras[op.key];
  if (!extra) return request;
  let path = request.path;
  if (extra.query) {
    const params = new URLSearchParams(q < 0 ? '' : request.path.slice(q + 1));
    let added = false;
    for (const [name, value] of Object.entries(extra.query)) {
      if (params.has(name)) continue;
      params.append(name, filled(value, values, op.key, credential));
      added = true;
    }
    if (added) path = `${pathname}?${params}`;
  }
  let headers = request.headers;
  if (extra.headers) {
    const present = new Set(Object.keys(request.headers ?? {}).map((h) => h.toLowerCase()));
    const more = Object.fromEntries(Object.entries(extra.headers).filter(([h]) => !present.has(h.toLowerCase())).map(([h, v]) => [h, filled(v, values, op.key, credential)]));
    if (Object.keys(more).length) headers = { ...request.headers, ...more };
  }
  return path === request.path && headers === request.headers ? request : { ...request, path, headers };
}
