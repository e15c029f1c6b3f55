/**
 * The profile template (`npm run profile -- new`), generated from the profile's schemas (harness/profile/schema.ts and
 * each interface's entry, interfaces/<name>/settings.ts) with the yaml library's document API for the comments: no
 * second copy written by hand beside them.
 *
 * What is active is only what a profile needs: the settings the schema requires and gives no default, with the
 * value its `examples` show. Every other setting is written commented out, with its default (or example) and its
 * description: a stated setting is one the run holds the deployment to, so a guess of ours must never be stated for
 * someone else's deployment (an active `onlinePlayers: 60` failed a correct bridge with 12 players online).
 */
import type { TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import type { Document, Node, Pair, YAMLMap } from 'yaml';
import { definitionOf, type InterfaceName } from '../../interfaces/registry.ts';
import { loadSpec, openPointTreatment } from '../spec/load.ts';
import { yaml } from '../yaml.ts';
import { profileSchema } from './schema.ts';

type Schema = TSchema & { properties?: Record<string, Schema>; required?: string[]; default?: unknown; examples?: unknown[]; description?: string; type?: string };
type Yaml = ReturnType<typeof yaml>;
/** A pair whose key and value are nodes (createPair makes them so), for their comments. */
type NodePair = Pair<Node, Node>;

/**
 * What a setting holds when the profile leaves it out: TypeBox's own defaulting, which agrees with the loader's (ajv's
 * useDefaults) on every setting of every entry: an object with a default gets its members' defaults, one without
 * stays absent.
 */
const effectiveDefault = (schema: Schema): unknown => Value.Default(schema, undefined);

const isEmpty = (v: unknown) => v === undefined || (Array.isArray(v) && v.length === 0) || (typeof v === 'object' && v !== null && Object.keys(v).length === 0);

/** Whether a profile must state the setting: the schema requires it and nothing fills it in. */
const needed = (parent: Schema, key: string, s: Schema) => (parent.required ?? []).includes(key) && effectiveDefault(s) === undefined;

/** One commented-out line: `key: value   # description`, the value in flow style on one line. */
function commentedLine(Y: Yaml, key: string, s: Schema): string {
  // An empty default says less than an example of what to write (a meter, a login request).
  const fallback = effectiveDefault(s);
  const value = isEmpty(fallback) && s.examples?.length ? s.examples[0] : fallback;
  const shown = value === undefined ? '' : ` ${Y.stringify(value, { collectionStyle: 'flow', lineWidth: 0 }).trim()}`;
  return ` ${key}:${shown}${s.description ? `   # ${s.description}` : ''}`;
}

/**
 * The settings of an object schema as a YAML map: needed ones active (recursing into objects whose members are needed),
 * the rest as comment lines before the next active one, or after the last.
 */
function settingsMap(Y: Yaml, doc: Document, schema: Schema): YAMLMap {
  const map = doc.createNode({}) as YAMLMap;
  let pending: string[] = [];
  for (const [key, s] of Object.entries(schema.properties ?? {})) {
    if (key === 'extras') continue; // what a deployment needs beyond its document: rare, and README-documented
    if (!needed(schema, key, s)) {
      pending.push(commentedLine(Y, key, s));
      continue;
    }
    const value = s.examples?.[0] ?? (s.type === 'object' && s.properties ? settingsMap(Y, doc, s) : null);
    const pair = doc.createPair(key, value) as NodePair;
    // A scalar's description goes after it on its line; a list's or a map's, above its key.
    const scalar = value === null || typeof value !== 'object';
    const above = [...pending, ...(s.description && !scalar ? [` ${s.description}`] : [])];
    if (above.length) pair.key.commentBefore = above.join('\n');
    if (s.description && scalar && pair.value) pair.value.comment = ` ${s.description}`;
    pending = [];
    map.add(pair);
  }
  if (pending.length) map.comment = pending.join('\n');
  return map;
}

/** The template for these interfaces: the run-wide fields, then each interface's entry, its open points after it. */
export function profileTemplate(names: readonly InterfaceName[]): string {
  const Y = yaml();
  const doc: Document = new Y.Document({ name: 'my-target', writes: false, requestsPerSecond: 5 });
  doc.commentBefore = [
    ' A target profile (npm run profile -- check <file> validates it). Credentials name environment variables, never',
    ' secrets. Each interface: baseUrl of the live deployment, then the settings its document makes configurable. What',
    ' a profile needs is active; every optional setting is commented out with its default: a setting you state is one',
    ' the run holds your deployment to, so uncomment only what you know it does.',
  ].join('\n');
  const top = profileSchema() as unknown as Schema;
  const root = doc.contents as YAMLMap;
  const describe = (key: string) => {
    const node = root.get(key, true) as Node | undefined;
    const d = top.properties?.[key]?.description;
    if (node && d) node.comment = ` ${d}`;
  };
  describe('writes');
  describe('requestsPerSecond');
  const interfaces = doc.createNode({}) as YAMLMap;
  const runWide = Object.entries(top.properties ?? {}).filter(([k]) => !['name', 'description', 'writes', 'requestsPerSecond', 'interfaces'].includes(k));
  const interfacesPair = doc.createPair('interfaces', interfaces) as NodePair;
  interfacesPair.key.commentBefore = runWide.map(([k, s]) => commentedLine(Y, k, s)).join('\n');
  root.add(interfacesPair);
  for (const name of names) {
    const entrySchema = definitionOf(name).profileSchema() as unknown as Schema;
    const entry = doc.createNode({}) as YAMLMap;
    const base = doc.createPair('baseUrl', `https://${name}.example.invalid`) as NodePair;
    base.value!.comment = ' where the deployment answers';
    entry.add(base);
    const credentials = entrySchema.properties?.credentials?.examples?.[0];
    if (credentials !== undefined) entry.add(doc.createPair('credentials', credentials));
    // With nothing active, `settings:` is left empty (the loader reads it as left out), its lines commented under it:
    // an empty map would print as {} and a line uncommented under it would not parse.
    const map = settingsMap(Y, doc, entrySchema.properties!.settings!);
    const settings = doc.createPair('settings', map.items.length ? map : null) as NodePair;
    if (!map.items.length) settings.value!.comment = map.comment;
    // The points the document leaves to a deployment: where a setting states one, the run holds the target to it;
    // where the profile is silent, only what every reading agrees on is asserted.
    const points = loadSpec(name).notShown.filter((p) => p.observable !== false);
    const notes = [` Open points of ${name} (npm run reference -- ${name} --list-readings shows their readings):`, ...points.map((p) => `   ${p.id}: ${openPointTreatment(p, false)}`)];
    settings.value!.comment = [settings.value!.comment, ...notes].filter(Boolean).join('\n');
    entry.add(settings);
    interfaces.add(doc.createPair(name, entry));
  }
  return doc.toString({ lineWidth: 0, nullStr: '' });
}
