/**
 * What happens to a finished run's summary, for a run (scripts/conformance.ts) and for the merge of a sharded one
 * (scripts/merge-reports.ts) alike: the gate (baseline, waivers), the signed acceptance record, the nightly history
 * and trend, and the closing line. Its inputs are checked before the run starts, not after it.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { yaml } from './yaml.ts';
import { applyGate, gateInputProblems, loadWaivers, setAsideBeforeRun, type Waiver } from './gate.ts';
import type { Profile } from './profile/types.ts';
import { writeSummaryReports } from './reporter/html.ts';
import { notCountedBecause, type RunSummary } from './reporter/summary.ts';
import { keepInHistory, loadHistory, renderTrend } from './trend.ts';

/** The command-line options of the after-run steps (node:util parseArgs form), shared by both commands. */
export const AFTER_RUN_OPTIONS = {
  record: { type: 'boolean' },
  baseline: { type: 'string' },
  waivers: { type: 'string' },
  'fail-on': { type: 'string' },
  history: { type: 'string' },
  'flap-window': { type: 'string' },
  'min-coverage': { type: 'string' },
} as const;

export const AFTER_RUN_HELP = `  --baseline FILE        compare with an earlier run's summary.json: the report and summary gain the requirements
                         newly failing, newly fixed, still failing and new to the spec
  --fail-on any|new      with --baseline: new counts only failures the baseline did not have (default any)
  --waivers FILE         known deviations (requirement, target?, reason, acceptedBy, expires): a waived failure does not
                         count; an expired waiver fails the run; unused waivers are listed
  --history DIR          keep this run's summary in DIR (created if missing) and write trend/index.html in the report
                         folder: the share passed per interface over time, what changed since the run before, what flaps
  --min-coverage N       fail the run (exit 1) when an interface's run judged less than N% of the requirements its
                         profile leaves applicable (the generic ones included), for a gate that wants every rule tried
  --flap-window N        how many of the latest runs (same harness version and target) the flapping count looks at (10)
  --record               also write a signed acceptance record (acceptance/record.json and record.html in the
                         report folder), signed with the Ed25519 key in the variable the profile's recordSigningKey
                         names; check one with npm run verify-record -- <record.json>`;

export interface AfterRun {
  profileFile: string;
  waivers?: Waiver[];
  baseline?: { file: string; summary: RunSummary };
  failOn: 'any' | 'new';
  history?: string;
  flapWindow: number;
  /** --min-coverage: the least share (0..1) of applicable requirements each interface's run must judge. */
  minCoverage?: number;
  /** With --record: the key, and the record's code (loaded only then: its Ed25519 code is of no use to other runs). */
  record?: { signingKey: Uint8Array; code: typeof import('./acceptance/record.ts') };
  /** The requirement ids the gate will set aside, for the test workers (ENV.setAside). */
  setAside: string[];
}

type Values = { [K in keyof typeof AFTER_RUN_OPTIONS]?: (typeof AFTER_RUN_OPTIONS)[K]['type'] extends 'boolean' ? boolean : string };

/** Today, as YYYY-MM-DD (UTC): the day waivers are judged on. */
export const today = () => new Date().toISOString().slice(0, 10);

/** Checks the after-run options; `cannotRun` ends the command with its reason (exit 2). */
export async function prepareAfterRun(values: Values, profile: Profile, profileFile: string, cannotRun: (reason: string) => never): Promise<AfterRun> {
  let waivers: Waiver[] | undefined;
  if (values.waivers) {
    try {
      waivers = loadWaivers(values.waivers);
    } catch (e) {
      cannotRun(`--waivers ${(e as Error).message}`);
    }
  }
  let baseline: AfterRun['baseline'];
  if (values.baseline) {
    try {
      const data = JSON.parse(readFileSync(values.baseline, 'utf8')) as RunSummary;
      if (!Array.isArray(data?.interfaces)) throw new Error('not a summary.json (no interfaces)');
      baseline = { file: values.baseline, summary: data };
    } catch (e) {
      cannotRun(`--baseline ${values.baseline}: ${(e as Error).message.split('\n')[0]}`);
    }
  }
  const problems = gateInputProblems({ waivers, baseline, profileName: profile.name, interfaces: Object.keys(profile.interfaces) });
  if (problems.refused.length) cannotRun(`--waivers ${values.waivers}: ${problems.refused.join('; ')}`);
  for (const w of problems.warnings) console.error(`conformance: warning: ${w}`);
  const flapWindow = Number(values['flap-window'] ?? 10);
  if (!Number.isInteger(flapWindow) || flapWindow < 2) cannotRun(`--flap-window ${values['flap-window']}: give a whole number of at least 2`);
  const failOn = values['fail-on'] ?? 'any';
  if (failOn !== 'any' && failOn !== 'new') cannotRun(`--fail-on ${failOn}: give any or new`);
  if (failOn === 'new' && !baseline) cannotRun('--fail-on new needs --baseline (the run to compare with)');
  // A record that cannot be signed is found out before the run, not after it.
  let record: AfterRun['record'];
  if (values.record) {
    if (!profile.recordSigningKey) cannotRun('--record: the profile names no recordSigningKey (the environment variable holding the Ed25519 key that signs the record)');
    const value = process.env[profile.recordSigningKey];
    if (!value) cannotRun(`--record: the environment variable ${profile.recordSigningKey} (the profile's recordSigningKey) is not set`);
    const code = await import('./acceptance/record.ts');
    try {
      record = { signingKey: code.signingKeyFrom(value, profile.recordSigningKey), code };
    } catch (e) {
      cannotRun(`--record: ${(e as Error).message}`);
    }
  }
  let minCoverage: number | undefined;
  if (values['min-coverage'] !== undefined) {
    const n = Number(values['min-coverage']);
    if (!Number.isFinite(n) || n < 0 || n > 100) cannotRun(`--min-coverage ${JSON.stringify(values['min-coverage'])}: give a percentage from 0 to 100`);
    minCoverage = n / 100;
  }
  const setAside = setAsideBeforeRun({ waivers, baseline, failOn, today: today(), profileName: profile.name });
  return { profileFile, waivers, baseline, failOn, history: values.history, flapWindow, record, minCoverage, setAside };
}

/** Applies the gate, writes the record and the trend; gives the summary whose exit code the command ends with. */
export function finishRun(runDir: string, summary: RunSummary, o: AfterRun): RunSummary {
  if (o.waivers || o.baseline) {
    summary = applyGate(summary, { waivers: o.waivers, baseline: o.baseline, failOn: o.failOn, today: today() });
    writeSummaryReports(runDir, summary);
  }
  if (o.minCoverage !== undefined) {
    summary = withCoverageGate(summary, o.minCoverage);
    writeSummaryReports(runDir, summary);
  }
  if (o.record) {
    const { sign, buildRecord, renderRecordHtml } = o.record.code;
    const signed = sign(buildRecord(summary, yaml().parse(readFileSync(o.profileFile, 'utf8'))), o.record.signingKey);
    const dir = path.join(runDir, 'acceptance');
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'record.json'), JSON.stringify(signed, null, 2));
    writeFileSync(path.join(dir, 'record.html'), renderRecordHtml(signed));
    console.log(`conformance: acceptance record ${path.relative(process.cwd(), path.join(dir, 'record.json'))}, signed by Ed25519 public key ${signed.signature.publicKey}`);
  }
  if (o.history) {
    keepInHistory(o.history, path.join(runDir, 'summary.json'), summary);
    const trend = path.join(runDir, 'trend', 'index.html');
    mkdirSync(path.dirname(trend), { recursive: true });
    writeFileSync(trend, renderTrend(loadHistory(o.history), o.flapWindow));
    console.log(`conformance: trend of ${o.history}: ${path.relative(process.cwd(), trend)}`);
  }
  return summary;
}

/**
 * --min-coverage: a run that judged too little of an interface fails (exit 1), unless it failed or could not decide
 * already (exit 1 or 2 say more): a gate that wants every rule tried is not passed by a run that tried a few.
 */
export function withCoverageGate(s: RunSummary, least: number): RunSummary {
  const short = s.interfaces.filter((i) => i.exercised.share < least);
  if (short.length === 0 || s.exitCode !== 0) return s;
  const which = short.map((i) => `${i.name} judged ${Math.round(i.exercised.share * 100)}%`).join(', ');
  return { ...s, exitCode: 1, verdict: 'failed', exitReason: `coverage below the ${Math.round(least * 100)}% that --min-coverage asks: ${which}` };
}

/** How many failures the console spells out; the report has every one. */
const FAILURE_BLOCKS = 20;

/**
 * Why the run failed, for the console (issue 22: a CI log shows the reason, not only the ids): per failed requirement,
 * what it asks, why it failed, what was expected, the answer that broke it (status and the start of its body), a curl
 * line that sends the request again with the credentials as environment variables, and the replay command. Counted
 * failures first; the others say why they do not count, in the words of the exit code's rules.
 */
export function failureBlocks(s: RunSummary): string[] {
  const failed = s.interfaces.flatMap((i) => i.requirements.filter((r) => r.status === 'failed').map((r) => ({ i, r, uncounted: notCountedBecause(r, s.strict) })));
  failed.sort((a, b) => Number(a.uncounted !== undefined) - Number(b.uncounted !== undefined));
  const oneLine = (text: string, limit: number) => {
    const flat = text.replace(/\s+/g, ' ').trim();
    return flat.length > limit ? `${flat.slice(0, limit)}…` : flat;
  };
  const blocks = failed.slice(0, FAILURE_BLOCKS).map(({ i, r, uncounted }) => {
    const cause = i.causes.find((c) => c.id === r.causes[0]);
    const broke = cause?.exchanges[cause.exchanges.length - 1];
    const lines = [`FAILED ${r.id} (${r.level}${uncounted ? `, not counted: ${uncounted}` : ''}) ${i.name}: ${r.text}`, `  why:      ${oneLine(cause?.message ?? r.message ?? '', 400)}`];
    if (cause?.expected) lines.push(`  expected: ${oneLine(cause.expected, 200)}`);
    if (broke) {
      const answer = broke.response ? `${broke.response.status} ${oneLine(broke.response.body, 160)}` : `no answer (${broke.error ?? 'none'})`;
      lines.push(`  answer:   ${broke.request.method} ${broke.requestPath ?? broke.request.url} -> ${answer}`);
    }
    if (cause?.curl) lines.push(`  curl:     ${cause.curl.line}${cause.curl.signed ? '   # signed with this run\'s values: send it again with replay --resend' : ''}`);
    if (cause?.isItFixed) lines.push(`  fixed?    ${cause.isItFixed}`);
    else if (cause?.replay) lines.push(`  replay:   ${cause.replay}`);
    return lines.join('\n');
  });
  if (failed.length > FAILURE_BLOCKS) blocks.push(`… and ${failed.length - FAILURE_BLOCKS} more failed requirements: see the report`);
  return blocks;
}

/** What was counted and what was not, and why, in one line. */
export function finalLine(s: RunSummary, runDir: string): string {
  const all = s.interfaces.flatMap((i) => i.requirements);
  const n = (f: (r: (typeof all)[number]) => boolean) => all.filter(f).length;
  // Why each failure the exit code leaves out is left out, by kind.
  const counted = new Set(s.failedCounted);
  // The same words JUnit uses, from the rules that decide the exit code.
  const why = (r: (typeof all)[number]) => notCountedBecause(r, s.strict) ?? 'set aside';
  const left = all.filter((r) => r.status === 'failed' && !counted.has(r.id));
  const byWhy = [...new Set(left.map(why))].map((w) => `${left.filter((r) => why(r) === w).length} ${w}`);
  const parts = [
    `${n((r) => r.status === 'passed')} passed`,
    `${s.failedCounted.length} failed and counted${left.length ? ` (${left.length} more failed, not counted: ${byWhy.join(', ')})` : ''}`,
    `${n((r) => r.status === 'inconclusive')} inconclusive`,
    `${n((r) => r.status === 'not-tested')} not tested`,
    `${n((r) => r.status === 'not-applicable')} not applicable`,
  ];
  const flagged = n((r) => r.status === 'flagged');
  if (flagged) parts.push(`${flagged} advisories flagged`);
  return `conformance: ${s.profile.name}, seed ${s.seed}: ${parts.join(', ')}. Exit ${s.exitCode}: ${s.exitReason}.${judgedShare(s)} Report: ${path.relative(process.cwd(), path.join(runDir, 'conformance', 'index.html'))}`;
}

/**
 * How much of each interface the run judged, where it judged less than all that applies: an exit 0 says every judged
 * requirement passed, never that every requirement was judged, and a reader of the last line alone must not take a
 * green run of half an interface for a whole one. Empty where every interface was judged whole.
 */
export function judgedShare(s: RunSummary): string {
  // A --grep run says how much it judged in its exit reason already (partial: … judged N of the M).
  if (s.grep) return '';
  const partial = s.interfaces.filter((i) => i.exercised.judged < i.exercised.applicable);
  if (!partial.length) return '';
  const shown = partial.map((i) => `${i.name} ${i.exercised.judged} of ${i.exercised.applicable} applicable (${Math.floor(i.exercised.share * 100)}%)`);
  return ` Judged less than whole: ${shown.join(', ')}; the rest not tested or inconclusive (the report says why).`;
}
