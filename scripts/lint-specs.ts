/** npm run lint:specs: Redocly's lint of every spec the registry names (no telemetry, no update check). */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { ROOT, SPECS_DIR } from '../harness/paths.ts';
import { INTERFACES } from '../harness/registry.ts';

const specs = INTERFACES.map((name) => path.join(SPECS_DIR, `${name}.yaml`));
const r = spawnSync(path.join(ROOT, 'node_modules', '.bin', 'redocly'), ['lint', '--format=stylish', ...specs], {
  cwd: ROOT,
  stdio: 'inherit',
  env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
});
process.exit(r.status ?? 2);
