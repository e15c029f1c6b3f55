/**
 * Which open points a difference falls on (issue 25). Each spec lists its open points with the requirements whose
 * checks meet them; a difference in a test falls on the points that list one of the test's requirements. Where the
 * reports of both sides say which reading each target was seen to take (the checks' `reading` annotations), the
 * points read differently by the two sides are the difference's cause, and it is named by those alone.
 */
import type { OpenPoint } from '../spec/types.ts';
import type { Attribute } from './compare.ts';
import type { Observation } from './observation.ts';

/** Per interface and test, the reading seen per open point. */
export type SeenReadings = ReadonlyMap<string, ReadonlyMap<string, string>>;

export const testKey = (interfaceName: string, test: string) => `${interfaceName}\u0000${test}`;

export function attributeBySpec(points: ReadonlyMap<string, readonly OpenPoint[]>, seen?: { a: SeenReadings; b: SeenReadings }): Attribute {
  return (a, b) => {
    const o = (a ?? b) as Observation;
    const requirements = new Set([...(a?.requirements ?? []), ...(b?.requirements ?? [])]);
    const candidates = (points.get(o.interfaceName) ?? []).filter((p) => (p.requirements ?? []).some((r) => requirements.has(r))).map((p) => p.id);
    if (!seen) return candidates;
    const key = testKey(o.interfaceName, o.test);
    const sa = seen.a.get(key);
    const sb = seen.b.get(key);
    const differ = candidates.filter((id) => sa?.get(id) !== undefined && sb?.get(id) !== undefined && sa.get(id) !== sb.get(id));
    return differ.length ? differ : candidates;
  };
}
