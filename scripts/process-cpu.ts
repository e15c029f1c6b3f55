/**
 * The CPU seconds this process and its children that have ended have used (Linux's /proc/self/stat: utime, stime,
 * cutime, cstime): a self-test batch process makes its runs one after another, and each run's Playwright workers are
 * its children, ended and waited for when the run ends; the difference across a run is that run's CPU time, its
 * references (started in this process) included. Undefined where /proc is not there.
 */
import { readFileSync } from 'node:fs';

/** Clock ticks per second, as the kernel counts them in /proc (USER_HZ, 100 on every Linux this runs on). */
const TICKS_PER_SECOND = 100;

export function processTreeCpuSeconds(): number | undefined {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    // The command name (2nd field) is in parentheses and may hold spaces: the fields are counted after its end.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime, stime, cutime, cstime are the 14th to 17th fields of the line: the 12th to 15th after the name.
    const ticks = fields.slice(11, 15).map(Number);
    return ticks.every(Number.isFinite) ? ticks.reduce((a, b) => a + b, 0) / TICKS_PER_SECOND : undefined;
  } catch {
    return undefined;
  }
}
