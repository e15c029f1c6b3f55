import { loadSpec } from '../harness/spec/load.ts';
const s = loadSpec('stream-proxy');
const saves = ['POST /api/v1/config/main','POST /api/v1/config/sources','PUT /api/v1/config/apiproxy'];
console.log(s.requirements.filter(r=>!r.generic && r.operations?.some(o=>saves.includes(o))).map(r=>r.id).join(' '));
const users = ['POST /api/v1/user/{target}','PUT /api/v1/user/{target}','DELETE /api/v1/user/{target}/{username}'];
console.log(s.requirements.filter(r=>!r.generic && r.operations?.some(o=>users.includes(o))).map(r=>r.id).join(' '));
