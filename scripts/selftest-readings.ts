/**
 * The self-test's runs of the references' readings (see mocks/readings.ts): which readings run together and which
 * faults run in the other readings too. Derived from each spec's open points and each reference's catalogue.
 */
import type { Fault } from '../harness/reference.ts';
import { otherReadings, type AskedReading } from '../harness/readings.ts';
import { CATALOGUES, REGISTRY } from './interfaces.ts';
import { loadSpec } from '../harness/spec/load.ts';

/** A tag regex that selects the tests of these requirements and of no other (ids are prefixes of one another). */
export function tagsOf(requirements: Iterable<string>): string {
  return [...new Set(requirements)].map((id) => `@${id}(?![A-Z0-9-])`).join('|');
}

/** The requirements whose checks meet an open point, from its spec entry. */
function requirementsOf(r: AskedReading): string[] {
  return loadSpec(r.interfaceName).notShown.find((p) => p.id === r.point)?.requirements ?? [];
}

/**
 * Each other reading alone, with the tests of the requirements its point meets. Readings of different interfaces
 * share a run (each reference takes one reading and is judged on its own suite's tests): the run's start, its costliest
 * part, is paid once for all of them. `judged` (interface, requirement): whether a test of the suite claims it; a point
 * whose requirements no test claims (generic ones of a suite without generic checks) has no test to run.
 */
export function singleReadingLanes(
  interfaces: readonly string[] = REGISTRY.map((d) => d.name),
  judged: (interfaceName: string, requirement: string) => boolean = () => true,
): Array<{ interfaces: string[]; readings: AskedReading[]; grep: string }> {
  const perInterface = interfaces.map((name) => otherReadings(CATALOGUES, name).filter((r) => requirementsOf(r).some((id) => judged(name, id))));
  const longest = Math.max(0, ...perInterface.map((l) => l.length));
  return Array.from({ length: longest }, (_, i) => {
    const readings = perInterface.map((l) => l[i]).filter((r): r is AskedReading => Boolean(r));
    return { interfaces: readings.map((r) => r.interfaceName), readings, grep: tagsOf(readings.flatMap(requirementsOf)) };
  });
}

/** Whether a fault's requirements meet an open point that its reference takes in more than one reading. */
export function faultsMeetingOpenPoints(): (interfaceName: string, fault: Fault) => boolean {
  const met = new Map(
    REGISTRY.map((d) => {
      const implemented = new Set(d.reference.readings.map((p) => p.point));
      return [d.name as string, new Set(loadSpec(d.name).notShown.filter((p) => implemented.has(p.id)).flatMap((p) => p.requirements ?? []))];
    }),
  );
  return (interfaceName, fault) => fault.violates.some((id) => met.get(interfaceName)?.has(id));
}
