import { loadSpec } from '../harness/spec/load.ts';
import { validRequest } from '../harness/generic/requests.ts';
for (const n of ['stream-proxy','exchange-session','usage-events']) {
  const s = loadSpec(n);
  for (const o of s.operations) { const r = validRequest(s, o); console.log(n, o.key, '=>', r.path, JSON.stringify(r.json)?.slice(0,300), JSON.stringify(r.headers)); }
}
