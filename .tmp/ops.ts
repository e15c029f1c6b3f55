import { loadSpec } from '../harness/spec/load.ts';
for (const n of ['exchange-session','stream-proxy','usage-events','chat','game-bridge']) {
  const s = loadSpec(n);
  console.log('==', n, s.operations.length, s.securitySchemes.map(x=>x.name+':'+x.type+':'+(x.headerName??x.scheme)).join(','));
  for (const o of s.operations) console.log('  ', o.key, 'sec=', o.security.join('|'), 'write=', o.write ?? '', 'body=', o.hasRequestBody, 'params=', o.parameters.filter(p=>p.required).map(p=>p.in+':'+p.name).join(','), 'resp=', Object.keys(o.responses).join(','), o.pathSetting ? 'pathSetting='+o.pathSetting : '', o.enabledBy ? 'enabledBy='+o.enabledBy:'');
}
