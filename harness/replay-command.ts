import path from 'node:path';
import { ENV, selectedFaults } from './options.ts';
import { ROOT } from './paths.ts';

/** Quotes a word for a POSIX shell. */
export function shellQuote(s: string): string {
  return /^[A-Za-z0-9_./:=@,+-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The command that runs one test again with the same profile, seed and fault (and, for a property, one case). */
export function replayCommand(opts: { interfaceName: string; testTitle: string; replay?: string }): string {
  const args = ['npm', 'run', 'conformance', '--'];
  const profile = process.env[ENV.profile];
  if (profile) args.push('--target', path.relative(ROOT, path.resolve(profile)));
  args.push('--interfaces', opts.interfaceName);
  if (process.env[ENV.seed]) args.push('--seed', process.env[ENV.seed]!);
  // Only the fault of the replayed interface: another interface's is not part of this check.
  for (const f of selectedFaults()) if (f.interfaceName === opts.interfaceName) args.push('--fault', `${f.interfaceName}:${f.fault}`);
  args.push('--grep', escapeRegExp(opts.testTitle));
  if (opts.replay) args.push('--replay', opts.replay);
  return args.map(shellQuote).join(' ');
}

/** The command that answers "is it fixed?" for a cassette (scripts/replay.ts). */
export function replayCassetteCommand(cassette: string): string {
  return ['npm', 'run', 'replay', '--', cassette].map(shellQuote).join(' ');
}
