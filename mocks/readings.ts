/**
 * The readings of the open points a reference implements: where a document is silent, a correct deployment makes a
 * choice of its own, and the reference can be started with each (its catalogue: mocks/<name>/readings.ts). The
 * self-test runs every suite against each reading, as it runs them against each seeded fault: the suites must pass
 * every reading, as they must fail every fault.
 */

import type { OpenPointReadings } from '../harness/reference.ts';

export type { OpenPointReadings, Reading } from '../harness/reference.ts';

type Catalogue = readonly OpenPointReadings[];
type PointOf<C extends Catalogue> = C[number]['point'];
type ReadingOf<C extends Catalogue, P extends PointOf<C>> = Extract<C[number], { point: P }>['readings'][number]['name'];

/**
 * The readings a reference was started with (`reference.readings` of its profile entry: point -> reading), typed by
 * its catalogue, declared `as const`: a misspelled point or reading does not compile, and an unknown one asked for at
 * start-up is refused. A point not asked for takes its default reading.
 */
export function readingSwitch<C extends Catalogue>(catalogue: C, interfaceName: string, asked: Readonly<Record<string, string>> | undefined) {
  for (const [point, name] of Object.entries(asked ?? {})) {
    const entry = catalogue.find((p) => p.point === point);
    if (!entry) throw new Error(`unknown ${interfaceName} open point "${point}"; the reference has readings of ${catalogue.map((p) => p.point).join(', ')}`);
    if (!entry.readings.some((r) => r.name === name)) throw new Error(`${interfaceName} open point ${point} has no reading "${name}"; the reference implements ${entry.readings.map((r) => r.name).join(', ')}`);
  }
  return <P extends PointOf<C>>(point: P): ReadingOf<C, P> => (asked?.[point] ?? catalogue.find((p) => p.point === point)!.readings[0].name) as ReadingOf<C, P>;
}
