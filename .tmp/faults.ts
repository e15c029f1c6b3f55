import { REGISTRY } from '../harness/registry.ts';
for (const d of REGISTRY) console.log(d.name, d.reference.faults.length, d.reference.faults.filter(f=>f.profile).map(f=>f.profile).join(','));
