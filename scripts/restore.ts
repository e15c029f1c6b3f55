/**
 * npm run restore -- --target <profile> [--dry-run]
 * Undoes what runs against the profile's live targets left behind: every write recorded in the journal
 * (reports/journal/<profile>.jsonl) before it was sent and not undone since, because the run was interrupted, killed
 * or its undo failed. A write the target has changed since is reported as a conflict and left alone.
 * Exit 0: nothing left to undo; 1: conflicts or failures remain (listed); 2: cannot run (bad profile, no credentials).
 */
import { parseArgs } from 'node:util';
import { closeAgents } from '../harness/http/client.ts';
import { clientFor } from '../harness/http/client-for.ts';
import { journalFile, pendingIntents, recordDone } from '../harness/journal.ts';
import { loadProfile } from '../harness/profile/load.ts';
import { descriptorOf, isInterfaceName } from './interfaces.ts';
import { missingCredentials, mountedUrl, secretsFor } from '../harness/targets.ts';

const HELP = `npm run restore -- --target FILE [--dry-run]

Undoes the writes that runs against this profile's live targets recorded in their journal (reports/journal/) and
never undid: a configuration document saved back, a user deleted, an order cancelled. A write the target changed
since the run is reported as a conflict and not overwritten.

Exit codes: 0 nothing is left to undo; 1 conflicts or failed undos remain (listed); 2 the command cannot run.`;

function cannot(reason: string): never {
  console.error(`restore: cannot run: ${reason}`);
  process.exit(2);
}

let values;
try {
  values = parseArgs({ options: { target: { type: 'string' }, 'dry-run': { type: 'boolean' }, help: { type: 'boolean', short: 'h' } } }).values;
} catch (e) {
  cannot(`${(e as Error).message} (--help lists the options)`);
}
if (values.help) {
  console.log(HELP);
  process.exit(0);
}
if (!values.target) cannot('--target FILE is required: the profile whose targets the journal holds writes for');

let profile;
try {
  profile = loadProfile(values.target);
} catch (e) {
  cannot((e as Error).message);
}
const file = journalFile(profile.name);
const pending = pendingIntents(file);
if (pending.length === 0) {
  console.log(`restore: nothing to undo for ${profile.name} (${file})`);
  process.exit(0);
}

let left = 0;
for (const intent of pending) {
  const where = `${intent.interfaceName} ${intent.operation}: ${intent.what} (run ${intent.run.slice(0, 8)}, ${intent.at})`;
  const name = intent.interfaceName;
  if (!isInterfaceName(name)) {
    console.log(`skip     ${where}: ${name} is no interface of this harness`);
    left++;
    continue;
  }
  const entry = profile.interfaces[name];
  const descriptor = descriptorOf(name);
  const baseUrl = entry?.baseUrl ? mountedUrl(name, entry.baseUrl, entry.settings) : undefined;
  if (!entry || !baseUrl || !descriptor.restore || baseUrl !== intent.baseUrl) {
    console.log(`skip     ${where}: the profile no longer points at ${intent.baseUrl} with ${name}`);
    left++;
    continue;
  }
  const missing = missingCredentials(profile, [name]);
  if (missing.length) cannot(missing.join('; '));
  if (values['dry-run']) {
    console.log(`would    ${where}`);
    continue;
  }
  const secrets = secretsFor(profile, name);
  const client = clientFor({ profile, interfaceName: name, baseUrl, secrets, authenticate: descriptor.authenticate, purpose: 'restore', live: true });
  try {
    const undo = JSON.parse(secrets.expand(JSON.stringify(intent.undo))) as unknown;
    const outcome = await descriptor.restore(undo, { client, settings: entry.settings, secrets });
    if (typeof outcome === 'object') {
      console.log(`conflict ${where}: ${secrets.redact(outcome.conflict)}`);
      left++;
    } else {
      recordDone(file, intent.id, outcome);
      console.log(`${outcome === 'restored' ? 'restored' : 'nothing '} ${where}`);
    }
  } catch (e) {
    console.log(`failed   ${where}: ${secrets.redact((e as Error).message)}`);
    left++;
  }
}
await closeAgents();
console.log(left ? `restore: ${left} write(s) left as they are; see above` : `restore: every write of the journal is undone`);
process.exit(left ? 1 : 0);
