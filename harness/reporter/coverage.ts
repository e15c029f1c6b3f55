/**
 * The run's operation coverage, as Specmatic reports API coverage: per operation of the spec, whether the API answered
 * a request of it, the statuses its requests got (0: no answer), the documented statuses no request got, and the tests
 * whose requests reached it.
 */
import { statusKind } from '../answers.ts';
import type { LoadedSpec } from '../spec/types.ts';
import type { OperationCoverage } from './summary.ts';

/** What one test's requests reached: per operation, the statuses they got. */
export interface Reached {
  test: string;
  operations: Record<string, number[]>;
}

export function operationCoverage(operations: LoadedSpec['operations'], mine: readonly Reached[]): OperationCoverage[] {
  return operations.map((op) => {
    const statuses = new Set<number>();
    const tests = new Set<string>();
    for (const r of mine) {
      const got = r.operations[op.key];
      if (!got) continue;
      got.forEach((s) => statuses.add(s));
      tests.add(r.test);
    }
    const documented = Object.keys(op.responses);
    // A range ("4XX") was seen when a status of it was that no exact documented status claims.
    const exact = (s: number) => documented.includes(String(s));
    const seen = (d: string) => {
      if (d === 'default') return [...statuses].some((s) => !exact(s) && !documented.includes(`${String(s)[0]}XX`) && s !== 0);
      if (/^[1-5]XX$/i.test(d)) return [...statuses].some((s) => String(s)[0] === d[0] && !exact(s));
      return statuses.has(Number(d));
    };
    const unseen = documented.filter((d) => !seen(d));
    // Reached only where the API answered: a throttle, a server error, a redirect or no answer at all is the
    // environment's, and a request that met nothing else exercised nothing of the operation.
    const exercised = [...statuses].some((s) => statusKind(s) === 'accepted' || statusKind(s) === 'refused');
    return { operation: op.key, exercised, statuses: [...statuses].sort((a, b) => a - b), unseen, tests: [...tests] };
  });
}
