/**
 * npm run reference -- <interface> [options]   (--help lists them)
 * Starts one embedded reference server on loopback, for pointing your own client at it. Ctrl-C stops it.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { DEFAULT_PROFILE, loadProfile } from '../harness/profile/load.ts';
import { CATALOGUES, INTERFACES, descriptorOf, isInterfaceName, unknownInterface } from './interfaces.ts';
import { profileTemplate } from '../harness/profile/template.ts';
import { applyReadings, parseReadings } from '../harness/readings.ts';
import { loadSpec } from '../harness/spec/load.ts';
import { credentialVariables, drawReferenceCredentials, referenceSecrets } from '../harness/targets.ts';
import { describeTrouble, parseTrouble, type Trouble } from '../mocks/environment.ts';

const HELP = `npm run reference -- <interface> [options]

Starts the embedded reference deployment of one interface on loopback and prints its URL, its credentials (made up
for this server) and the profile settings a target profile must state to be judged against it. Ctrl-C stops it.
Interfaces: ${INTERFACES.join(', ')}.

Options:
  --fault NAME       start it with a seeded fault (--list-faults lists them)
  --trouble T        put trouble of its environment in front of it: throttle (429, Retry-After 1), unavailable (503
                     page), reset (connections closed) or slow-body (a byte a second), on every request or, as
                     T@'GET /v2/players', on one operation; --trouble-after N lets the first N requests through
  --list-faults      list the interface's seeded faults and the requirements each breaks
  --readings R       start it in other readings of the open points its document leaves to a deployment: other, or
                     <open point>=<reading>, repeated or comma-separated
  --list-readings    list the open points the reference can take in several readings (the first is its default)
  --port N           listen on this port (default: a free one)
  --profile FILE     take the settings from this profile's entry (default targets/reference.yaml)
  --help             this text`;

function fail(reason: string): never {
  console.error(`reference: ${reason}`);
  process.exit(2);
}

let parsed;
try {
  parsed = parseArgs({
    options: {
      fault: { type: 'string' },
      trouble: { type: 'string' },
      'trouble-after': { type: 'string' },
      port: { type: 'string' },
      profile: { type: 'string' },
      'list-faults': { type: 'boolean' },
      readings: { type: 'string', multiple: true },
      'list-readings': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
    allowPositionals: true,
  });
} catch (e) {
  fail(`${(e as Error).message} (--help lists the options)`);
}
const { values, positionals } = parsed;
if (values.help) {
  console.log(HELP);
  process.exit(0);
}
const name = positionals[0];
if (!name) fail(`name an interface: ${INTERFACES.join(', ')}`);
if (!isInterfaceName(name)) fail(unknownInterface(name));
const deployment = descriptorOf(name);
if (values['list-faults']) {
  for (const f of deployment.reference.faults) console.log(`${f.name.padEnd(32)} ${f.description}  [${f.violates.join(', ')}]`);
  process.exit(0);
}
if (values['list-readings']) {
  const spec = loadSpec(name);
  for (const p of deployment.reference.readings) {
    const texts = spec.notShown.find((n) => n.id === p.point)?.readings ?? [];
    console.log(`${p.point}`);
    p.readings.forEach((r, i) => console.log(`  ${r.name.padEnd(28)} ${i === 0 ? '(default) ' : ''}${texts.find((t) => t.id === r.name)?.text ?? ''}`));
  }
  process.exit(0);
}
if (values.fault && !deployment.reference.faults.some((f) => f.name === values.fault)) fail(`no fault ${values.fault}; --list-faults lists them`);
if (values.port !== undefined && !/^\d+$/.test(values.port)) fail(`--port ${values.port}: give a port number`);
if (values['trouble-after'] !== undefined && !/^\d+$/.test(values['trouble-after'])) fail(`--trouble-after ${values['trouble-after']}: give a number of requests`);
let trouble: Trouble | undefined;
try {
  trouble = values.trouble ? { ...parseTrouble(values.trouble), ...(values['trouble-after'] ? { after: Number(values['trouble-after']) } : {}) } : undefined;
} catch (e) {
  fail((e as Error).message);
}
let profile;
try {
  const ask = values.readings?.length ? parseReadings(CATALOGUES, values.readings) : undefined;
  profile = loadProfile(values.profile ?? DEFAULT_PROFILE, ask && ((data) => applyReadings(CATALOGUES, data, ask, [name])));
} catch (e) {
  fail((e as Error).message);
}
const entry = profile.interfaces[name];
if (!entry) fail(`the profile ${profile.name} has no ${name} entry`);
drawReferenceCredentials(profile, [name]);
// A role's key, secret and passphrase (unified-exchange) are flattened by the interface's definition, as a run does.
const variables = credentialVariables(name, entry.credentials);
const secrets = referenceSecrets(name, entry.credentials);
const server = await deployment.reference.start({
  settings: entry.settings,
  reference: { ...(entry.reference ?? {}), ...(trouble ? { trouble } : {}) },
  secrets,
  fault: values.fault,
  host: '127.0.0.1',
  port: values.port ? Number(values.port) : 0,
});
console.log(`${name} reference listening on ${server.url}${values.fault ? ` with seeded fault ${values.fault}` : ''}${trouble ? `, behind ${describeTrouble(trouble)}` : ''}`);
for (const [cred, envVar] of Object.entries(variables)) {
  // Shown once, on the terminal of the person who started it: it is this server's own, made up for this run.
  console.log(`credential ${cred} (${envVar}): ${secrets[cred]}`);
}
if (deployment.reference.issueCredentials) {
  try {
    const issued = await deployment.reference.issueCredentials(server);
    for (const [what, value] of Object.entries(issued.credentials)) console.log(`credential ${what}: ${value}`);
    console.log(`more: ${issued.more}`);
  } catch (e) {
    console.log(`no credential made: ${(e as Error).message}`);
  }
}
console.log(`\nTo judge it, a profile's entry (see ${path.relative(process.cwd(), profile.file)}) states:\n  ${name}:\n    baseUrl: ${server.url}\n${indent(JSON.stringify({ credentials: entry.credentials, settings: entry.settings }, null, 2))}`);
console.log(`\nThe settings each field stands for (npm run profile -- new --interfaces ${name}):\n${profileTemplate([name])}`);
const stop = async () => {
  await server.close();
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);

function indent(json: string): string {
  // YAML accepts JSON; shown as a flow mapping under the entry.
  const o = JSON.parse(json) as Record<string, unknown>;
  return Object.entries(o)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `    ${k}: ${JSON.stringify(v)}`)
    .join('\n');
}
