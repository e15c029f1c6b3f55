import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { yaml } from '../yaml.ts';
import { makeAjv } from '../validation/ajv.ts';
import { TARGETS_DIR } from '../paths.ts';
import { profileSchema } from './schema.ts';
import type { Profile } from './types.ts';

export const DEFAULT_PROFILE = path.join(TARGETS_DIR, 'reference.yaml');

/** A profile the harness cannot use; its message names the file and the field. */
export class ProfileError extends Error {}

// Compiled when first needed: the runner and its workers are handed the profile the command line checked already.
let validator: ValidateFunction | undefined;

/** The variable through which `npm run conformance` hands its checked profile to the runner and workers (env inherits). */
export const RESOLVED_PROFILE_ENV = 'HARNESS_PROFILE_RESOLVED';

/**
 * Loads and checks a profile, filling in its defaults. `adjust` changes the data as parsed, before it is checked (the
 * embedded references' readings of --readings), so that what it writes is checked like the rest of the file.
 */
export function loadProfile(file: string = process.env.HARNESS_PROFILE || DEFAULT_PROFILE, adjust?: (data: unknown) => void): Profile {
  const handed = process.env[RESOLVED_PROFILE_ENV];
  if (handed && !adjust) {
    const profile = JSON.parse(handed) as Profile;
    if (profile.file === path.resolve(file)) return profile;
  }
  const shown = path.relative(process.cwd(), path.resolve(file)) || file;
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new ProfileError(`${shown}: cannot read the profile (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  let data: unknown;
  try {
    data = yaml().parse(text, { prettyErrors: true });
  } catch (e) {
    throw new ProfileError(`${shown}: not valid YAML: ${(e as Error).message.split('\n')[0]}`);
  }
  try {
    adjust?.(data);
  } catch (e) {
    throw new ProfileError(`${shown}: ${(e as Error).message}`);
  }
  emptyKeysLeftOut(data);
  // What the file states, before the loader fills in the defaults it leaves out.
  const stated = statedSettings(structuredClone(data));
  // The schema is the harness's own, proven valid JSON Schema by a unit test: checking it against the meta-schema at
  // every start cost each run about 0.1 s.
  const validate = (validator ??= makeAjv({ useDefaults: true, validateSchema: false }).compile(profileSchema()));
  if (!validate(data)) {
    throw new ProfileError(`${shown}: ${describeErrors(validate.errors ?? [])}`);
  }
  return { ...(data as Omit<Profile, 'file' | 'stated'>), file: path.resolve(file), stated };
}

/**
 * An interface entry's `settings:` or `credentials:` with nothing under it (every line commented out, as the template
 * writes optional settings) is YAML's null: taken as left out, so that the defaults apply, not as a mistake; a bare
 * `reference:` is the embedded reference with its defaults.
 */
function emptyKeysLeftOut(data: unknown): void {
  const interfaces = (data as { interfaces?: unknown } | null)?.interfaces;
  if (typeof interfaces !== 'object' || interfaces === null) return;
  for (const entry of Object.values(interfaces)) {
    if (typeof entry !== 'object' || entry === null) continue;
    const e = entry as Record<string, unknown>;
    for (const key of ['settings', 'credentials']) if (e[key] === null) delete e[key];
    if (e.reference === null) e.reference = {};
  }
}

/** The dotted paths of every member present under each interface's settings, objects and leaves alike. */
function statedSettings(data: unknown): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  const interfaces = (data as { interfaces?: Record<string, { settings?: unknown }> } | undefined)?.interfaces ?? {};
  for (const [name, entry] of Object.entries(interfaces)) {
    const paths: string[] = [];
    const walk = (v: unknown, at: string) => {
      if (at) paths.push(at);
      if (v && typeof v === 'object' && !Array.isArray(v)) for (const [k, child] of Object.entries(v)) walk(child, at ? `${at}.${k}` : k);
    };
    walk(entry?.settings, '');
    out[name] = paths;
  }
  return out;
}

/**
 * Whether the profile itself states a setting (a dotted path under the interface's settings), rather than leaving it
 * to its default: a check may hold a target to what its profile states, never to a default it only guessed.
 */
export function isStated(profile: Pick<Profile, 'stated'>, interfaceName: string, setting: string): boolean {
  return profile.stated?.[interfaceName]?.includes(setting) ?? false;
}

/** One line per problem, naming the field as a dotted path ("interfaces.chat.settings.windowMs"). */
export function describeErrors(errors: ErrorObject[]): string {
  // A failed oneOf or anyOf also reports each branch's failure; its own message says more than those do.
  const oneOfAt = new Set(errors.filter((e) => e.keyword === 'oneOf').map((e) => e.instancePath));
  const anyOfAt = new Set(errors.filter((e) => e.keyword === 'anyOf').map((e) => e.instancePath));
  // An anyOf of required fields (credentials.trade or credentials.read): the fields, any of which would do.
  const anyOfFields = (at: string) => errors.filter((e) => e.keyword === 'required' && e.schemaPath.includes('/anyOf/') && e.instancePath === at).map((e) => String(e.params.missingProperty));
  const lines = errors
    .filter((e) => !(e.schemaPath.includes('/oneOf/') && oneOfAt.has(e.instancePath)))
    .filter((e) => !(e.schemaPath.includes('/anyOf/') && anyOfAt.has(e.instancePath) && e.keyword === 'required'))
    .map((e) => {
      const where = e.instancePath.replace(/^\//, '').replace(/\//g, '.');
      const field = (name: string) => (where ? `${where}.${name}` : name);
      if (e.keyword === 'additionalProperties') return `${field(e.params.additionalProperty)}: unknown field`;
      if (e.keyword === 'required') return `${field(e.params.missingProperty)}: required field missing`;
      if (e.keyword === 'oneOf') return `${where}: give exactly one of baseUrl (a live deployment) or reference (the embedded one)`;
      const oneOfThese = e.keyword === 'anyOf' ? anyOfFields(e.instancePath) : [];
      if (oneOfThese.length) return `${where}: give at least one of ${oneOfThese.join(' or ')}`;
      return `${where || '(top level)'}: ${e.message}`;
    });
  return [...new Set(lines)].join('; ');
}
