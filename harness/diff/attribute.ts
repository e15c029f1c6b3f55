/**
 * Which open points a difference falls on (issue 25). Each spec lists its open points with the requirements whose
 * checks meet them; a difference in a test may fall on any point that lists one of the test's requirements. Of those,
 * the difference is named by the points the two sides are known to read differently: the readings the checks saw
 * each target take (their `reading` annotations), else the readings an embedded reference was started in. Where both
 * sides' readings of every such point are known and none differs, the difference falls on no open point: it is a
 * change where the document rules (a seeded fault, a regression). Points whose reading is unknown on a side stay
 * named: the difference may be theirs.
 */
import type { OpenPoint } from '../spec/types.ts';
import type { Attribute } from './compare.ts';
import type { Observation } from './observation.ts';

/** Per interface and test, the reading seen per open point. */
export type SeenReadings = ReadonlyMap<string, ReadonlyMap<string, string>>;
/** Per interface, the reading of each open point an embedded reference was started in. */
export type ConfiguredReadings = ReadonlyMap<string, ReadonlyMap<string, string>>;

export const testKey = (interfaceName: string, test: string) => `${interfaceName}\u0000${test}`;

export interface SideReadings {
  seen: SeenReadings;
  configured?: ConfiguredReadings;
}

export function attributeBySpec(points: ReadonlyMap<string, readonly OpenPoint[]>, sides?: { a: SideReadings; b: SideReadings }): Attribute {
  return (a, b) => {
    const o = (a ?? b) as Observation;
    const requirements = new Set([...(a?.requirements ?? []), ...(b?.requirements ?? [])]);
    const candidates = (points.get(o.interfaceName) ?? []).filter((p) => p.observable !== false && (p.requirements ?? []).some((r) => requirements.has(r))).map((p) => p.id);
    if (!sides) return candidates;
    const readingOf = (side: SideReadings, point: string) => side.seen.get(testKey(o.interfaceName, o.test))?.get(point) ?? side.configured?.get(o.interfaceName)?.get(point);
    return candidates.filter((id) => {
      const ra = readingOf(sides.a, id);
      const rb = readingOf(sides.b, id);
      return ra === undefined || rb === undefined || ra !== rb;
    });
  };
}
