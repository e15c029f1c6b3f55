/**
 * npm run profile -- new --interfaces chat,game-bridge > my-staging.yaml
 *   A commented profile to start from: every setting the documents make configurable, with their defaults.
 * npm run profile -- check my-staging.yaml
 *   Validates a profile (each wrong field named) and lists the requirements it makes not applicable, and why.
 * Exit 0: written / valid; 2: a bad command or an invalid profile.
 */
import { parseArgs } from 'node:util';
import { loadProfile } from '../harness/profile/load.ts';
import { INTERFACES, descriptorOf, isInterfaceName, unknownInterface, type InterfaceName } from './interfaces.ts';
import { profileTemplate } from '../harness/profile/template.ts';
import { loadSpec } from '../harness/spec/load.ts';

function fail(message: string): never {
  console.error(`profile: ${message}`);
  process.exit(2);
}

let parsed: ReturnType<typeof parse>;
function parse() {
  return parseArgs({ options: { interfaces: { type: 'string' }, help: { type: 'boolean', short: 'h' } }, allowPositionals: true });
}
try {
  parsed = parse();
} catch (e) {
  fail((e as Error).message);
}
const USAGE = `npm run profile -- new [--interfaces a,b] > my-target.yaml
  A commented profile to start from: every interface's entry, its required settings, and its optional ones commented out.
npm run profile -- check <profile.yaml>
  Validates a profile (each wrong field named) and lists the requirements it makes not applicable, and why.
Exit 0: written / valid; 2: a bad command or an invalid profile.`;
if (parsed.values.help) {
  console.log(USAGE);
  process.exit(0);
}
const [command, file] = parsed.positionals;

if (command === 'new') {
  const names = (parsed.values.interfaces ?? INTERFACES.join(',')).split(',').map((n) => n.trim()).filter(Boolean);
  for (const n of names) if (!isInterfaceName(n)) fail(unknownInterface(n));
  process.stdout.write(profileTemplate(names as InterfaceName[]));
  process.exit(0);
}

if (command === 'check' && file) {
  let profile: ReturnType<typeof loadProfile>;
  try {
    profile = loadProfile(file);
  } catch (e) {
    fail((e as Error).message);
  }
  console.log(`profile ${profile.name} (${file}) is valid; writes ${profile.writes ? 'allowed' : 'not allowed'}`);
  for (const [name, entry] of Object.entries(profile.interfaces)) {
    if (!entry || !isInterfaceName(name)) continue;
    const reasons = descriptorOf(name).notApplicable({ profile, settings: entry.settings, baseUrl: entry.baseUrl, credentials: entry.credentials, live: Boolean(entry.baseUrl) });
    const spec = loadSpec(name);
    const na = spec.requirements.filter((r) => reasons.requirements[r.id] || (r.operations?.length && r.operations.every((o) => reasons.operations[o])));
    console.log(`\n${name}: ${entry.baseUrl ?? 'embedded reference'}; ${na.length} of ${spec.requirements.length} requirements not applicable`);
    for (const r of na) console.log(`  ${r.id}: ${reasons.requirements[r.id] ?? reasons.operations[r.operations![0]!]}`);
  }
  process.exit(0);
}

fail(`usage:\n${USAGE}`);
