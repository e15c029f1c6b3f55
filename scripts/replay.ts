/**
 * npm run replay -- <cassette> [options]   (--help lists them)
 * Answers "is it fixed?": judges the failed requirement of a cassette again, with the same check the suite ran, against
 * the target the cassette records (or another profile's), into a report folder of its own.
 * Exit 0: the target now conforms; 1: it still violates the requirement; 2: the replay cannot decide.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ROOT, scriptArgs } from '../harness/paths.ts';
import { loadProfile } from '../harness/profile/load.ts';
import type { Profile } from '../harness/profile/types.ts';
import { closeAgents } from '../harness/http/client.ts';
import { clientFor } from '../harness/http/client-for.ts';
import { resend } from '../harness/http/resend.ts';
import { ENV } from '../harness/options.ts';
import { descriptorOf, isInterfaceName, referenceOf, type InterfaceName } from './interfaces.ts';
import { drawReferenceCredentials, missingCredentials, secretsFor, startReferences } from '../harness/targets.ts';
import type { Cassette } from '../harness/reporter/cassette.ts';
import { RUNS_DIR } from '../harness/reporter/run-dir.ts';
import type { RunSummary } from '../harness/reporter/summary.ts';

const HELP = `npm run replay -- <cassette.json> [options]

Judges the requirement a cassette failed again, with the same check (and, for a property, the same shrunk case) the
suite ran, against the target the cassette records, and says whether the target now conforms. The reports of the
replay go to a folder of their own: the report the cassette comes from is never overwritten.

Options:
  --target FILE     judge another target: this profile instead of the one the cassette records
  --fault NAME      against the embedded reference: start it with this seeded fault instead of the recorded one
  --no-fault        against the embedded reference: start it without the recorded fault
  --out DIR         write the replay's reports here (default reports/runs/<time>-<run id>)
  --resend          instead of judging, send the cassette's exchanges again as recorded (signed afresh with the
                    profile's credentials) and print what comes back beside what was recorded: for debugging
  --help            this text

Exit codes: 0 the target now conforms to the requirement; 1 it still violates it; 2 the replay cannot decide (the
target is down or not the API, the check could not run, the requirement was not tested).`;

function cannot(reason: string): never {
  console.error(`replay: cannot decide: ${reason}`);
  process.exit(2);
}

let parsed;
try {
  parsed = parseArgs({
    options: { target: { type: 'string' }, fault: { type: 'string' }, 'no-fault': { type: 'boolean' }, out: { type: 'string' }, resend: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
    allowPositionals: true,
  });
} catch (e) {
  cannot(`${(e as Error).message} (--help lists the options)`);
}
const { values, positionals } = parsed;
if (values.help) {
  console.log(HELP);
  process.exit(0);
}
if (positionals.length !== 1) cannot('name one cassette file (--help)');
// The HTTP Archive beside a cassette is for other tools; the cassette is the .json of the same name.
if (positionals[0]!.endsWith('.har')) cannot(`${positionals[0]}: an HTTP Archive, for browser devtools, Postman or Insomnia; replay takes the cassette beside it, ${positionals[0]!.replace(/\.har$/, '.json')}`);
let cassette: Cassette;
try {
  cassette = JSON.parse(readFileSync(positionals[0], 'utf8')) as Cassette;
} catch (e) {
  cannot(`${positionals[0]}: ${(e as Error).message}`);
}
if (!cassette.target || !cassette.replay) cannot(`${positionals[0]}: not a cassette of this harness version (no target or replay command)`);
if (!isInterfaceName(cassette.interface)) cannot(`${positionals[0]}: unknown interface ${cassette.interface}`);

const profileFile = path.resolve(ROOT, values.target ?? cassette.target.profileFile);
if (!existsSync(profileFile)) cannot(`the profile the cassette records (${cassette.target.profileFile}) is not here: give --target`);
let profile: Profile;
try {
  profile = loadProfile(profileFile);
} catch (e) {
  cannot((e as Error).message);
}
const entry = profile.interfaces[cassette.interface];
if (!entry) cannot(`the profile ${profile.name} has no ${cassette.interface} entry`);
if (!values.target && entry.baseUrl && entry.baseUrl !== cassette.target.baseUrl) {
  console.log(`replay: note: the profile now names ${entry.baseUrl}; the cassette was recorded against ${cassette.target.baseUrl}`);
}

const fault = values['no-fault'] ? undefined : (values.fault ?? (values.target ? undefined : cassette.target.fault));
if (values.resend) {
  await resendAll();
  process.exit(0);
}

// The suite's own replay command, with the target, the fault and the report folder of this replay.
const recorded = splitCommand(cassette.replay);
const args = keep(recorded, ['--interfaces', '--seed', '--grep', '--replay', '--depth']);
args.push('--target', profileFile);
if (fault && !entry.baseUrl) args.push('--fault', `${cassette.interface}:${fault}`);
const out = path.resolve(values.out ?? path.join(RUNS_DIR, `replay-${new Date().toISOString().replace(/[:.]/g, '-')}-${process.pid}`));
args.push('--out', out, '--quiet');

console.log(`replay: judging ${cassette.requirement} (${cassette.test}) again against ${entry.baseUrl ?? `the embedded reference${fault ? ` with fault ${fault}` : ''}`}`);
const code = await new Promise<number>((resolve) => {
  const child = spawn(process.execPath, [...scriptArgs('conformance'), ...args], { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'] });
  child.on('exit', (c) => resolve(c ?? 2));
});
const summaryFile = path.join(out, 'summary.json');
if (!existsSync(summaryFile)) cannot(`the check did not run (conformance exit ${code})`);
const summary = JSON.parse(readFileSync(summaryFile, 'utf8')) as RunSummary;
const result = summary.interfaces.flatMap((i) => i.requirements).find((r) => r.id === cassette.requirement);
const where = `report: ${path.relative(process.cwd(), path.join(out, 'conformance', 'index.html'))}`;
switch (result?.status) {
  case 'passed':
    console.log(`replay: ${cassette.requirement} now passes: the target conforms (${where})`);
    process.exit(0);
  case 'failed':
    console.log(`replay: ${cassette.requirement} still fails: ${(result.message ?? '').split('\n')[0]} (${where})`);
    process.exit(1);
  default:
    cannot(`${cassette.requirement} is ${result?.status ?? 'missing from the run'}${result?.message ? `: ${result.message.split('\n')[0]}` : ''} (${where})`);
}

/** Splits a command the harness printed (words quoted for a POSIX shell by shellQuote). */
function splitCommand(cmd: string): string[] {
  const words: string[] = [];
  const re = /'((?:[^']|'\\'')*)'|(\S+)/g;
  for (let m = re.exec(cmd); m; m = re.exec(cmd)) words.push(m[1] !== undefined ? m[1].replace(/'\\''/g, "'") : m[2]);
  return words;
}

/** The options (with their values) of a recorded command that a replay keeps. */
function keep(words: string[], names: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < words.length; i++) if (names.includes(words[i]) && i + 1 < words.length) out.push(words[i], words[++i]);
  return out;
}


/** Sends the recorded exchanges again and prints old and new answers side by side; judges nothing. */
async function resendAll(): Promise<void> {
  const name = cassette.interface as InterfaceName;
  if (missingCredentials(profile, [name]).length) cannot(missingCredentials(profile, [name]).join('; '));
  if (fault) process.env[ENV.fault] = `${name}:${fault}`;
  drawReferenceCredentials(profile, [name]);
  const { targets, stop } = await startReferences(profile, [name], referenceOf);
  const secrets = secretsFor(profile, name);
  const client = clientFor({ profile, interfaceName: name, baseUrl: targets[0].baseUrl, secrets, authenticate: descriptorOf(name).authenticate, purpose: 'replay', live: !targets[0].reference });
  console.log(`replay: resending ${cassette.exchanges.length} exchanges of ${cassette.requirement} to ${targets[0].baseUrl}`);
  for (const [i, ex] of cassette.exchanges.entries()) {
    const now = await resend(ex, client, secrets);
    const was = ex.response ? String(ex.response.status) : `no answer (${ex.error})`;
    const is = now instanceof Error ? `no answer (${secrets.redact(now.message)})` : String(now.status);
    console.log(`  #${i + 1} ${ex.request.method} ${ex.requestPath ?? new URL(ex.request.url).pathname}: recorded ${was}, now ${is}${was === is ? '' : '  <- differs'}`);
  }
  await stop();
  await closeAgents();
}
