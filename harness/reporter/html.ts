import type { Exchange } from '../http/exchange.ts';
import type { InterfaceResult, RequirementResult, RunSummary } from './summary.ts';

const esc = (s: unknown): string =>
  String(s ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const LABEL: Record<string, string> = {
  passed: 'passed',
  failed: 'failed',
  'not-applicable': 'not applicable',
  flagged: 'flagged',
  'not-tested': 'not tested',
};

/** The conformance report: one self-contained page, readable without a server or a script. */
export function renderHtml(s: RunSummary): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Conformance report: ${esc(s.profile.name)}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>${CSS}</style></head>
<body>
<header>
<h1>Conformance report</h1>
<p class="verdict ${s.verdict}" data-testid="run-verdict">Run ${s.verdict === 'passed' ? 'passed' : 'failed'}${s.failedCounted.length ? `: ${s.failedCounted.length} requirement${s.failedCounted.length > 1 ? 's' : ''} counted as failed (${esc(s.failedCounted.join(', '))})` : ''}</p>
<dl class="meta">
<dt>Harness</dt><dd>${esc(s.harness.name)} ${esc(s.harness.version)}${s.harness.commit ? ` (${esc(s.harness.commit)})` : ''}</dd>
<dt>Profile</dt><dd>${esc(s.profile.name)} (${esc(s.profile.file)}), writes ${s.profile.writes ? 'allowed' : 'not allowed'}</dd>
<dt>Seed</dt><dd><code>${esc(s.seed)}</code></dd>
<dt>Depth</dt><dd>${esc(s.depth)}</dd>
<dt>Exit code counts</dt><dd>${s.strict ? 'failed musts and shoulds (--strict)' : 'failed musts'}</dd>
${s.fault ? `<dt>Seeded fault</dt><dd><code>${esc(s.fault)}</code></dd>` : ''}
<dt>Run</dt><dd>${esc(s.startedAt)}, ${(s.durationMs / 1000).toFixed(1)} s</dd>
</dl>
</header>
<nav><ul>${s.interfaces.map((i) => `<li><a href="#${esc(i.name)}">${esc(i.name)}</a> ${totalsLine(i)}</li>`).join('')}</ul></nav>
${s.brokenTests.length ? `<section class="broken"><h2>Checks that broke</h2><ul>${s.brokenTests.map((b) => `<li><b>${esc(b.test)}</b><pre>${esc(b.error)}</pre></li>`).join('')}</ul></section>` : ''}
${s.interfaces.map(renderInterface).join('\n')}
${s.notes.length ? `<section><h2>Notes</h2><ul>${s.notes.map((n) => `<li>${esc(n)}</li>`).join('')}</ul></section>` : ''}
<section><h2>Writes sent</h2>${s.writes.length ? `<ul>${s.writes.map((w) => `<li><code>${esc(JSON.stringify(w))}</code></li>`).join('')}</ul>` : '<p>None.</p>'}</section>
</body></html>
`;
}

function totalsLine(i: InterfaceResult): string {
  const t = i.totals;
  return `<span class="totals">${t.passed} passed · ${t.failed} failed · ${t['not-applicable']} not applicable · ${t['not-tested']} not tested${t.flagged ? ` · ${t.flagged} flagged` : ''}</span>`;
}

function renderInterface(i: InterfaceResult): string {
  const order = { failed: 0, flagged: 1, passed: 2, 'not-applicable': 3, 'not-tested': 4 } as const;
  const reqs = [...i.requirements].sort((a, b) => order[a.status] - order[b.status]);
  return `<section class="interface" id="${esc(i.name)}">
<h2>${esc(i.name)}: ${esc(i.title)}</h2>
<p>${totalsLine(i)}. The run exercised ${i.exercised.exercised} of the document's ${i.exercised.documentRequirements} requirements (${Math.round(i.exercised.share * 100)}%).</p>
<dl class="meta">
<dt>Target</dt><dd>${esc(i.target?.baseUrl)}${i.target?.reference ? ' (embedded reference)' : ''}${i.target?.fault ? `, seeded fault <code>${esc(i.target.fault)}</code>` : ''}</dd>
<dt>Spec</dt><dd>${esc(i.spec.file)} <code title="sha256">${esc(i.spec.sha256.slice(0, 16))}</code>, from ${esc(i.spec.document)} (${esc(i.spec.section)})</dd>
</dl>
<table><thead><tr><th>Requirement</th><th>Level</th><th>Verdict</th><th>What it says</th></tr></thead><tbody>
${reqs.map(renderRequirement).join('\n')}
</tbody></table>
${i.notShown.length ? `<h3>Not shown by the document (never asserted)</h3><ul>${i.notShown.map((n) => `<li><b>${esc(n.id)}</b>: ${esc(n.text)} <q>${esc(n.source)}</q></li>`).join('')}</ul>` : ''}
</section>`;
}

function renderRequirement(r: RequirementResult): string {
  const detail = r.failures.length
    ? r.failures.map(renderFailure).join('')
    : r.message
      ? `<p class="why">${esc(r.message)}</p>`
      : '';
  return `<tr class="req ${r.status}" data-requirement="${esc(r.id)}" data-status="${r.status}">
<td><code>${esc(r.id)}</code>${r.generic ? ' <small>generic</small>' : ''}</td><td>${esc(r.level)}</td>
<td><span class="badge ${r.status}">${LABEL[r.status]}</span></td>
<td>${esc(r.text)}<details><summary>source</summary><q>${esc(r.source)}</q>${r.tests.length ? `<p>Checked by: ${r.tests.map(esc).join('; ')}</p>` : ''}</details>${detail}</td></tr>`;
}

function renderFailure(f: RequirementResult['failures'][number]): string {
  const ev = f.evidence;
  return `<div class="failure">
<p><b>${esc(f.test)}</b></p>
<pre class="message">${esc(ev?.property ? f.message.split('\ncounterexample:')[0] : f.message)}</pre>
${ev?.expected ? `<p>Expected: ${esc(ev.expected)}</p>` : ''}
${ev?.property ? `<p>Property <code>${esc(ev.property.property)}</code>: seed <code>${ev.property.seed}</code>, path <code>${esc(ev.property.path)}</code>, ${ev.property.numRuns} runs, ${ev.property.numShrinks} shrinks${ev.property.reproduced ? '' : ', did not fail again when re-run'}.<br>Counterexample: <code>${esc(ev.property.counterexample)}</code></p>` : ''}
<p>Replay: <code class="replay">${esc(f.replay)}</code>${f.cassette ? `<br>Resend the exchanges: <code>npm run replay -- reports/${esc(f.cassette)}</code>` : ''}</p>
${ev?.exchanges.length ? `<details><summary>${ev.exchanges.length} exchange${ev.exchanges.length > 1 ? 's' : ''}</summary>${ev.exchanges.map(renderExchange).join('')}</details>` : ''}
</div>`;
}

function renderExchange(x: Exchange): string {
  const req = `${x.request.method} ${x.request.url}\n${x.request.headers.map(([k, v]) => `${k}: ${v}`).join('\n')}${x.request.body !== undefined ? `\n\n${x.request.body}` : ''}`;
  const res = x.response
    ? `${x.response.status}\n${Object.entries(x.response.headers).map(([k, v]) => `${k}: ${v}`).join('\n')}\n\n${x.response.body}`
    : `(no response: ${x.error})`;
  const problems = x.problems ? [...x.problems.schema, ...x.problems.contentType, ...x.problems.headers] : [];
  return `<div class="exchange"><div><h4>Request${x.label ? `: ${esc(x.label)}` : ''}${x.operation ? ` <small>(${esc(x.operation)})</small>` : ''}</h4><pre>${esc(req)}</pre></div><div><h4>Response (${x.durationMs} ms)</h4><pre>${esc(res)}</pre>${problems.length ? `<ul class="problems">${problems.map((p) => `<li>${esc(p)}</li>`).join('')}</ul>` : ''}</div></div>`;
}

const CSS = `
body{font:14px/1.45 system-ui,sans-serif;margin:0 auto;max-width:1200px;padding:1rem 2rem;color:#1d1d1f}
h1{margin:.2rem 0}h2{border-bottom:1px solid #ddd;padding-bottom:.2rem;margin-top:2rem}
.verdict{font-size:1.2rem;font-weight:600;padding:.5rem .8rem;border-radius:6px}
.verdict.passed{background:#e3f6e8;color:#11602a}.verdict.failed{background:#fde6e6;color:#8a1010}
dl.meta{display:grid;grid-template-columns:max-content 1fr;gap:.1rem 1rem}dl.meta dt{font-weight:600}dl.meta dd{margin:0}
table{border-collapse:collapse;width:100%}th,td{border-bottom:1px solid #eee;padding:.35rem .5rem;text-align:left;vertical-align:top}
.badge{display:inline-block;padding:.05rem .5rem;border-radius:10px;font-size:.85rem;white-space:nowrap}
.badge.passed{background:#e3f6e8;color:#11602a}.badge.failed{background:#d62828;color:#fff}.badge.flagged{background:#fff1c2;color:#6b4e00}
.badge.not-applicable{background:#eef;color:#334}.badge.not-tested{background:#f0f0f0;color:#666}
tr.failed{background:#fff7f7}.failure{border-left:3px solid #d62828;padding:.2rem .8rem;margin:.5rem 0;background:#fff}
pre{white-space:pre-wrap;word-break:break-word;background:#f7f7f9;padding:.4rem;border-radius:4px;margin:.2rem 0}
.exchange{display:grid;grid-template-columns:1fr 1fr;gap:.5rem}.exchange h4{margin:.3rem 0}
code.replay{user-select:all}q{color:#555}.problems{color:#8a1010}.why{color:#555}
`;
