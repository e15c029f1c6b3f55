/**
 * The self-test's runs of the references' readings (see mocks/readings.ts): which readings run together and which
 * faults run in the other readings too. Derived from each spec's open points and each reference's catalogue.
 */
import type { Fault } from '../harness/reference.ts';
import { laterReadings, readingsLeavingLittle, type AskedReading } from '../harness/readings.ts';
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
 * Every other reading that the "other readings" run does not take (that run takes the first other reading of every
 * point at once, with every test at the default depth, but for those that leave little to judge): the later readings
 * and those, a few to a run, with the tests of the
 * requirements their points meet. Every reading is thus run once in a mix of correct readings. A run takes up to
 * `perRun` readings of one interface, each of another point: any mix of correct readings is a correct deployment, so
 * a mix that fails is a false alarm all the same (the run's name lists its readings). Readings of different
 * interfaces share a run too (each reference takes its own and is judged on its own suite's tests): a run's start, its
 * costliest part, is paid once for all of them, and so is a test that meets several of the run's points (the generic
 * ones meet many). Registered, 24 to a run took 89 CPU-s in 5 runs, where twelve took 125 in 9 and six 217 in 16
 * (each run in a process of its own: `npm run selftest -- --only "reading " --cpu`). The lane that waits out the slow
 * pipeline and the countdown's sweep took 227 s: lanes start with the long runs.
 * `judged` (interface, requirement): whether a test of the suite claims it; a point whose requirements no test claims
 * (generic ones of a suite without generic checks) has no test to run.
 */
export function readingLanes(
  interfaces: readonly string[] = REGISTRY.map((d) => d.name),
  judged: (interfaceName: string, requirement: string) => boolean = () => true,
  perRun = 24,
): Array<{ interfaces: string[]; readings: AskedReading[]; grep: string }> {
  const asked = (name: string) => [...readingsLeavingLittle(CATALOGUES, name), ...laterReadings(CATALOGUES, name)];
  const perInterface = interfaces.map((name) => packed(asked(name).filter((r) => requirementsOf(r).some((id) => judged(name, id))), perRun));
  const longest = Math.max(0, ...perInterface.map((l) => l.length));
  return Array.from({ length: longest }, (_, i) => {
    const readings = perInterface.flatMap((l) => l[i] ?? []);
    return { interfaces: [...new Set(readings.map((r) => r.interfaceName))], readings, grep: tagsOf(readings.flatMap(requirementsOf)) };
  });
}

/** Readings in groups of up to `size`, never two of one point in a group. */
function packed(readings: AskedReading[], size: number): AskedReading[][] {
  const groups: AskedReading[][] = [];
  for (const r of readings) {
    const group = groups.find((g) => g.length < size && g.every((o) => o.point !== r.point));
    if (group) group.push(r);
    else groups.push([r]);
  }
  return groups;
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
