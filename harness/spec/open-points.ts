/**
 * The lint of open points, the twin of "every requirement is proven by a fault": every open point of a spec that a
 * request could observe lists the readings a deployment may take and the requirements whose checks meet it, and its
 * reference implements at least two of those readings (mocks/<name>/readings.ts). A point nothing could observe says
 * why. A reading the reference takes through neither an option nor a profile setting must be read by the server
 * (readingSwitch), so the point's id appears in the reference's code.
 */
import type { OpenPointReadings } from '../reference.ts';
import type { LoadedSpec } from './types.ts';

const READING_ID = /^[a-z0-9]+(-[a-z0-9]+)*$/;

/**
 * What is wrong with a spec's open points and its reference's catalogue, one line each. `serverSources` is the text of
 * the reference's modules other than its catalogue.
 */
export function openPointProblems(spec: LoadedSpec, catalogue: readonly OpenPointReadings[], serverSources: string): string[] {
  const problems: string[] = [];
  const requirementIds = new Set(spec.requirements.map((r) => r.id));
  const points = new Map(spec.notShown.map((p) => [p.id, p]));
  const idPattern = new RegExp(`^${spec.prefix}-NS-[A-Z0-9-]+$`);
  for (const p of spec.notShown) {
    const at = `${spec.name}: ${p.id}`;
    if (!idPattern.test(p.id)) problems.push(`${at}: an open point's id is ${spec.prefix}-NS-<WHAT>`);
    if (p.observable === false) {
      if (!p.why?.trim()) problems.push(`${at}: an unobservable open point says why no request could observe it`);
      if (catalogue.some((c) => c.point === p.id)) problems.push(`${at}: marked unobservable, yet the reference has readings of it`);
      continue;
    }
    const readings = p.readings ?? [];
    if (readings.length < 2) problems.push(`${at}: lists ${readings.length} reading(s); an observable open point lists at least two (or is marked observable: false with why)`);
    for (const r of readings) if (!READING_ID.test(r.id) || !r.text?.trim()) problems.push(`${at}: reading ${JSON.stringify(r.id)} needs a lowercase hyphenated id and a text`);
    if (new Set(readings.map((r) => r.id)).size !== readings.length) problems.push(`${at}: two readings share an id`);
    if (!p.requirements?.length) problems.push(`${at}: names no requirement whose checks meet it (requirements:)`);
    for (const id of p.requirements ?? []) if (!requirementIds.has(id)) problems.push(`${at}: names ${id}, which is not a requirement of the spec`);
    const implemented = catalogue.find((c) => c.point === p.id);
    if (!implemented) {
      problems.push(`${at}: the reference implements no reading of it (mocks/${spec.name}/readings.ts)`);
      continue;
    }
    const names = implemented.readings.map((r) => r.name);
    if (names.length < 2) problems.push(`${at}: the reference implements ${names.length} reading(s); at least two`);
    if (readings.length && names[0] !== readings[0].id) problems.push(`${at}: the reference's default reading is ${names[0]}, the spec's first is ${readings[0].id}`);
    for (const n of names) if (!readings.some((r) => r.id === n)) problems.push(`${at}: the reference implements ${n}, which is not one of the spec's readings`);
    if (new Set(names).size !== names.length) problems.push(`${at}: the reference lists a reading twice`);
    const readByServer = implemented.readings.slice(1).some((r) => !r.reference && !r.settings);
    if (readByServer && !serverSources.includes(`'${p.id}'`)) problems.push(`${at}: a reading with neither reference options nor settings must be read by the server (readingSwitch), yet its code never names ${p.id}`);
  }
  for (const c of catalogue) if (!points.has(c.point)) problems.push(`${spec.name}: the reference has readings of ${c.point}, which is not an open point of the spec`);
  return problems;
}

/** A JSON Schema as far as the settings walk needs it. */
interface SchemaNode {
  properties?: Record<string, SchemaNode>;
  patternProperties?: Record<string, SchemaNode>;
  additionalProperties?: boolean | SchemaNode;
  allOf?: SchemaNode[];
  anyOf?: SchemaNode[];
}

/** The schemas a member name leads to from `node` (a record's values, a union's and a composition's members). */
function childrenOf(node: SchemaNode, name: string): SchemaNode[] {
  const here = [node, ...(node.allOf ?? []), ...(node.anyOf ?? [])];
  return here.flatMap((n) => {
    const named = n.properties?.[name];
    if (named) return [named];
    const patterned = Object.values(n.patternProperties ?? {});
    if (patterned.length) return patterned;
    return typeof n.additionalProperties === 'object' ? [n.additionalProperties] : [];
  });
}

/**
 * Every open point's `setting` names a setting the interface's profile entry has (its dotted path under `settings`):
 * a tester told "state it in settings.x.y" must find x.y in the profile schema, and a spec that names a setting no
 * profile can hold is a typo the lint catches.
 */
export function settingProblems(spec: LoadedSpec, settingsSchema: SchemaNode): string[] {
  const problems: string[] = [];
  for (const p of spec.notShown) {
    if (!p.setting) continue;
    let nodes = [settingsSchema];
    for (const name of p.setting.split('.')) nodes = nodes.flatMap((n) => childrenOf(n, name));
    if (nodes.length === 0) problems.push(`${spec.name}: ${p.id}: names settings.${p.setting}, which the profile entry of ${spec.name} does not have`);
  }
  return problems;
}
