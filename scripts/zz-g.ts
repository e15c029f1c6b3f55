import { conformanceGroup } from './conformance-group.ts';
const base = ['--target', 'targets/reference.yaml', '--interfaces', 'usage-events', '--strict', '--workers', '1', '--depth', 'quick', '--seed', '20261123', '--quiet', '--readings', 'other'];
const runs = [
  { args: [...base, '--fault', 'usage-events:event-by-id-forbidden', '--grep', '@D-GET-EVENT(?![A-Z0-9-])|@D-GEN-VALID-ACCEPTED(?![A-Z0-9-])'], env: { HARNESS_REPORT_DIR: '/tmp/zg/0', HARNESS_SELFTEST: '1' } },
];
console.log(await conformanceGroup(runs, 2));
process.exit(0);
