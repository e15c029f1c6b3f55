/**
 * npm run new-interface -- <name> --prefix <P> [--title "<document and section>"]
 *
 * Copies the template (templates/new-interface: a small working interface called toy) into the repository as a new
 * interface: its spec, definition, suite and reference, each in the interface's own folder or file, renamed
 * (toy -> <name>, T- -> <P>-), and writes its generated types. It touches no other file: the one line that adds it to
 * interfaces/registry.ts is printed for you to add.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ROOT } from '../harness/paths.ts';
import { loadSpec } from '../harness/spec/load.ts';
import { INTERFACES } from './interfaces.ts';

const TEMPLATE = path.join(ROOT, 'templates', 'new-interface');
const USAGE = 'usage: npm run new-interface -- <name> --prefix <P> [--title "<document and section>"]';

function fail(message: string): never {
  console.error(`new-interface: ${message}\n${USAGE}`);
  process.exit(2);
}

function args() {
  try {
    return parseArgs({ allowPositionals: true, options: { prefix: { type: 'string' }, title: { type: 'string' }, help: { type: 'boolean', short: 'h' } } });
  } catch (e) {
    return fail((e as Error).message);
  }
}
const parsed = args();
if (parsed.values.help) {
  console.log(USAGE);
  process.exit(0);
}
const [name] = parsed.positionals;
const prefix = parsed.values.prefix;
if (!name || parsed.positionals.length > 1) fail('give one interface name');
if (!/^[a-z][a-z0-9]*(-[a-z0-9]+)*$/.test(name)) fail(`${JSON.stringify(name)} is not a name in lowercase words joined by hyphens (e.g. unified-exchange)`);
if (!prefix || !/^[A-Z]{1,3}$/.test(prefix)) fail('give --prefix: the requirement-id prefix, one to three capital letters (e.g. U)');
if ((INTERFACES as readonly string[]).includes(name)) fail(`${name} is an interface already`);
const taken = INTERFACES.find((i) => loadSpec(i).prefix === prefix);
if (taken) fail(`prefix ${prefix} is ${taken}'s`);
for (const own of [`interfaces/${name}`, `suites/${name}`, `mocks/${name}`, `specs/${name}.yaml`, `targets/reference-${name}.yaml`]) {
  if (existsSync(path.join(ROOT, own))) fail(`${own} exists already`);
}

const words = name.split('-');
const camel = words.map((w, i) => (i === 0 ? w : w[0]!.toUpperCase() + w.slice(1))).join('');
const pascal = camel[0]!.toUpperCase() + camel.slice(1);
const upper = words.map((w) => w.toUpperCase()).join('_');

/** The template's text with the toy's names made the new interface's: identifiers, constants, paths and ids. */
function renamed(text: string): string {
  let out = text
    .replace(/\bToy/g, pascal)
    .replace(/\bTOY/g, upper)
    .replace(/\btoy(?=[A-Z])/g, camel)
    .replace(/\btoy\b/g, name)
    .replace(/^x-requirement-prefix: T$/m, `x-requirement-prefix: ${prefix}`)
    .replace(/\bT-(?=[A-Z0-9])/g, `${prefix}-`);
  if (parsed.values.title) out = out.replace(/the toy interface of the template \(templates\/new-interface\)/g, parsed.values.title.replace(/'/g, "\\'"));
  return out;
}

// Copied into a scratch folder first, renamed there, then moved in: a failure halfway leaves the repository untouched.
const scratch = mkdtempSync(path.join(os.tmpdir(), 'new-interface-'));
const created: string[] = [];
try {
  const walk = (from: string, rel: string) => {
    for (const entry of readdirSync(from)) {
      if (rel === '' && entry === 'README.md') continue;
      const source = path.join(from, entry);
      const target = path.join(rel, entry.replace(/\btoy\b/g, name));
      if (statSync(source).isDirectory()) walk(source, target);
      else {
        const out = path.join(scratch, target);
        mkdirSync(path.dirname(out), { recursive: true });
        writeFileSync(out, renamed(readFileSync(source, 'utf8')));
        created.push(target);
      }
    }
  };
  walk(TEMPLATE, '');
  for (const top of readdirSync(scratch)) {
    for (const part of readdirSync(path.join(scratch, top))) {
      renameSync(path.join(scratch, top, part), path.join(ROOT, top, part));
    }
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}

const generate = spawnSync(process.execPath, ['--import', 'tsx/esm', path.join(ROOT, 'scripts', 'generate.ts')], { cwd: ROOT, encoding: 'utf8' });
if (generate.status !== 0) fail(`npm run generate failed:\n${generate.stdout}${generate.stderr}`);

console.log(`new-interface: ${name} (prefix ${prefix}) written from the template:\n${created.sort().map((f) => `  ${f}`).join('\n')}\n  generated/${name}.ts`);
console.log(`\nAdd it to interfaces/registry.ts, the one line outside its own folders:\n  import { ${camel}Interface } from './${name}/definition.ts';   and ${camel}Interface in DEFINITIONS`);
console.log(`Then: npm run selftest -- --only ${name} --no-browser   (its faults fail their checks, its valid configuration passes)`);
