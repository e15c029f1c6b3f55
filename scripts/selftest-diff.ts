/**
 * The self-test's proof of the behaviour diff (issue 25): the valid reference.yaml run and the "other readings" run
 * make the same cases (one seed) and both record their behaviour; compared, they must differ on exactly the open
 * points the other readings flip, per interface: every difference named by flipped points only, and every flipped
 * point named by a difference. No extra run: the two runs are the self-test's own.
 */
import { behaviourDiff } from '../harness/diff/diff-run.ts';
import { readRecording } from '../harness/diff/recording.ts';
import { specsForDiff } from './compare-targets.ts';
import type { InterfaceName } from './interfaces.ts';

export function readingsDiffProblem(defaultDir: string, otherDir: string, interfaces: readonly InterfaceName[]): { problem?: string; line: string } {
  const [before, after] = [readRecording(defaultDir), readRecording(otherDir)];
  const both = interfaces.filter((name) => before?.configured.has(name) && after?.configured.has(name));
  if (!before || !after || both.length === 0) return { problem: 'the two runs wrote no behaviour recording of one interface', line: '' };
  const report = behaviourDiff({ candidate: otherDir, baseline: { folder: defaultDir, kind: 'target' }, specs: specsForDiff(both) });
  const problems: string[] = [];
  const counts: string[] = [];
  for (const name of both) {
    const [a, b] = [before.configured.get(name)!, after.configured.get(name)!];
    const flipped = [...b.keys()].filter((p) => a.get(p) !== b.get(p));
    const rows = report.differences.filter((r) => r.interface === name);
    const named = new Set(rows.flatMap((r) => r.openPoints));
    const elsewhere = [...named].filter((p) => !flipped.includes(p));
    const unnamed = flipped.filter((p) => !named.has(p));
    const onNone = rows.filter((r) => r.openPoints.length === 0);
    if (elsewhere.length) problems.push(`${name}: named points the readings do not flip: ${elsewhere.join(', ')}`);
    if (unnamed.length) problems.push(`${name}: flipped points no difference names: ${unnamed.join(', ')}`);
    if (onNone.length) problems.push(`${name}: ${onNone.reduce((n, r) => n + r.count, 0)} differences on no open point, e.g. ${onNone[0]!.kind} ${onNone[0]!.operation ?? ''}: ${onNone[0]!.samples[0]?.detail ?? ''}`);
    counts.push(`${name} ${flipped.length}`);
  }
  return {
    ...(problems.length ? { problem: problems.join('\n     ') } : {}),
    line: `the behaviour diff of reference.yaml and its other readings names exactly the open points flipped (${counts.join(', ')}), in ${report.cases.differing} of ${report.cases.compared} cases`,
  };
}
