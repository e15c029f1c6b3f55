/**
 * npm run reference -- <interface> [--fault NAME] [--port N] [--profile targets/x.yaml] [--list-faults]
 * Starts one embedded reference server on loopback, for pointing your own client at it. Ctrl-C stops it.
 */
import { parseArgs } from 'node:util';
import { references } from '../mocks/registry.ts';
import { isInterfaceName } from '../harness/paths.ts';
import { DEFAULT_PROFILE, loadProfile } from '../harness/profile/load.ts';
import { drawReferenceCredentials } from '../harness/targets.ts';

function fail(reason: string): never {
  console.error(`reference: ${reason}`);
  process.exit(2);
}

let parsed;
try {
  parsed = parseArgs({
    options: { fault: { type: 'string' }, port: { type: 'string' }, profile: { type: 'string' }, 'list-faults': { type: 'boolean' } },
    allowPositionals: true,
  });
} catch (e) {
  fail((e as Error).message);
}
const { values, positionals } = parsed;
const name = positionals[0];
if (!name || !isInterfaceName(name)) fail(`name an interface: ${Object.keys(references).join(', ')}`);
const deployment = references[name];
if (values['list-faults']) {
  for (const f of deployment.faults) console.log(`${f.name.padEnd(28)} ${f.description}  [${f.violates.join(', ')}]`);
  process.exit(0);
}
if (values.fault && !deployment.faults.some((f) => f.name === values.fault)) fail(`no fault ${values.fault}; --list-faults lists them`);
let profile;
try {
  profile = loadProfile(values.profile ?? DEFAULT_PROFILE);
} catch (e) {
  fail((e as Error).message);
}
const entry = profile.interfaces[name];
if (!entry) fail(`the profile ${profile.name} has no ${name} entry`);
drawReferenceCredentials(profile, [name]);
const secrets: Record<string, string> = {};
for (const [cred, envVar] of Object.entries(entry.credentials ?? {})) secrets[cred] = process.env[envVar]!;
const server = await deployment.start({
  settings: entry.settings,
  reference: entry.reference ?? {},
  secrets,
  fault: values.fault,
  host: '127.0.0.1',
  port: values.port ? Number(values.port) : 0,
});
console.log(`${name} reference listening on ${server.url}${values.fault ? ` with seeded fault ${values.fault}` : ''}`);
for (const [cred, envVar] of Object.entries(entry.credentials ?? {})) {
  // Shown once, on the terminal of the person who started it: it is this server's own, made up for this run.
  console.log(`credential ${cred} (${envVar}): ${secrets[cred]}`);
}
const stop = async () => {
  await server.close();
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
