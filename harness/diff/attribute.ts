/**
 * Which open points a difference falls on (issue 25). Each spec lists its open points with the requirements whose
 * checks meet them; a difference in a test may fall on any point that lists one of the test's requirements. Of those,
 * the difference is named by the points the two sides are known to read differently: the readings the checks saw
 * each target take (their `reading` annotations), else the readings an embedded reference was started in. Where both
 * sides' readings of every such point are known and none differs, the difference falls on no open point: it is a
 * change where the document rules (a seeded fault, a regression). Points whose reading is unknown on a side stay
 * named: the difference may be theirs. Where the spec ties no point read differently to the check, but the sides (two
 * references) were started in different readings of some points of the interface, the difference is named by those.
 */
import { testKey } from '../planned-tests.ts';
import type { OpenPoint } from '../spec/types.ts';
import type { Attribute } from './compare.ts';
import type { Observation } from './observation.ts';

/** Per interface and test, the reading seen per open point. */
export type SeenReadings = ReadonlyMap<string, ReadonlyMap<string, string>>;
/** Per interface, the reading of each open point an embedded reference was started in. */
export type ConfiguredReadings = ReadonlyMap<string, ReadonlyMap<string, string>>;

export interface SideReadings {
  seen: SeenReadings;
  configured?: ConfiguredReadings;
}

export function attributeBySpec(points: ReadonlyMap<string, readonly OpenPoint[]>, sides?: { a: SideReadings; b: SideReadings }): Attribute {
  const cache = new Map<string, string[]>();
  return (a, b) => {
    const o = (a ?? b) as Observation;
    const requirements = new Set([...(a?.requirements ?? []), ...(b?.requirements ?? [])]);
    const candidates = (points.get(o.interfaceName) ?? []).filter((p) => p.observable !== false && (p.requirements ?? []).some((r) => requirements.has(r))).map((p) => p.id);
    if (!sides) return candidates;
    const readingOf = (side: SideReadings, point: string) => side.seen.get(testKey(o.interfaceName, o.test))?.get(point) ?? side.configured?.get(o.interfaceName)?.get(point);
    const named = candidates.filter((id) => {
      const ra = readingOf(sides.a, id);
      const rb = readingOf(sides.b, id);
      return ra === undefined || rb === undefined || ra !== rb;
    });
    if (named.length) return named;
    // The spec ties none of the points read differently to this check (a refusal's body met by a check of roles):
    // where the sides read points of the interface differently, the difference is theirs; where they read all alike,
    // it falls on none.
    return differingInInterface(o.interfaceName);
  };

  function differingInInterface(interfaceName: string): string[] {
    let hit = cache.get(interfaceName);
    if (!hit) {
      const of = (side: SideReadings, id: string) => side.configured?.get(interfaceName)?.get(id);
      hit = (points.get(interfaceName) ?? []).map((p) => p.id).filter((id) => of(sides!.a, id) !== undefined && of(sides!.b, id) !== undefined && of(sides!.a, id) !== of(sides!.b, id));
      cache.set(interfaceName, hit);
    }
    return hit;
  }
}
