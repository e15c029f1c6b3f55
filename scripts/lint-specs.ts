/**
 * npm run lint:specs: Redocly's lint of every spec the registry names, and of a planned interface's once it is written
 * (no telemetry, no update check), then the lint
 * of their open points against each reference's readings (harness/spec/open-points.ts).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { ROOT, SPECS_DIR } from '../harness/paths.ts';
import { INTERFACES, PLANNED, REGISTRY } from './interfaces.ts';
import { loadSpec } from '../harness/spec/load.ts';
import { openPointProblems, settingProblems } from '../harness/spec/open-points.ts';
import { behaviourNoiseProblems } from '../harness/spec/behaviour-noise.ts';
import { answerHelp } from './help.ts';

answerHelp(`npm run lint:specs
  Redocly's lint of every spec, then each spec's open points against its reference's readings. Exit 1 on a problem.`);

// A planned interface's spec is linted as soon as it is written, before its reference and suite exist.
const specs = [...INTERFACES, ...PLANNED].map((name) => path.join(SPECS_DIR, `${name}.yaml`)).filter((file, i) => i < INTERFACES.length || existsSync(file));
const r = spawnSync(path.join(ROOT, 'node_modules', '.bin', 'redocly'), ['lint', '--format=stylish', ...specs], {
  cwd: ROOT,
  stdio: 'inherit',
  env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
});

const problems = REGISTRY.flatMap((d) => [
  ...openPointProblems(loadSpec(d.name), d.reference.readings, referenceSources(d.name)),
  ...settingProblems(loadSpec(d.name), (d.profileSchema() as unknown as { properties: { settings: object } }).properties.settings),
  ...behaviourNoiseProblems(d.name, loadSpec(d.name).doc, loadSpec(d.name).requirements.map((r) => r.id), loadSpec(d.name).operations.map((op) => op.key)),
]);
for (const p of problems) console.error(`open points: ${p}`);
const points = REGISTRY.flatMap((d) => loadSpec(d.name).notShown);
console.log(
  problems.length
    ? `open points: ${problems.length} problems`
    : `open points: each of the ${points.filter((p) => p.observable !== false).length} observable open points has at least two readings in its reference (${points.filter((p) => p.observable === false).length} others say why nothing could observe them)`,
);
process.exit(r.status || (problems.length ? 1 : 0));

/** The text of a reference's modules other than its catalogues of readings (readings.ts, a part's catalogue.ts). */
function referenceSources(name: string): string {
  const dir = path.join(ROOT, 'mocks', name);
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts') && !['readings.ts', 'catalogue.ts'].includes(path.basename(f)))
    .map((f) => readFileSync(path.join(dir, f), 'utf8'))
    .join('\n');
}
