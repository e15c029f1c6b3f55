import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Exchange } from '../http/exchange.ts';
import { renderRequirementsJunit } from './junit.ts';
import type { WriteRecord } from '../writes.ts';
import type { Cause, InterfaceResult, RequirementResult, RunSummary } from './summary.ts';

/** Text made safe inside HTML, attributes included. */
export const esc = (s: unknown): string =>
  String(s ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const LABEL: Record<string, string> = {
  passed: 'passed',
  failed: 'failed',
  inconclusive: 'inconclusive',
  'not-applicable': 'not applicable',
  flagged: 'flagged',
  'not-tested': 'not tested',
};

const HEADLINE: Record<RunSummary['verdict'], string> = { passed: 'Run passed', failed: 'Run failed', inconclusive: 'Run inconclusive' };

/** The conformance report: one self-contained page, readable without a server or a script. */
export function renderHtml(s: RunSummary): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Conformance report: ${esc(s.profile.name)}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>${CSS}</style></head>
<body>
<header>
<h1>Conformance report</h1>
<p class="verdict ${s.verdict}" data-testid="run-verdict">${HEADLINE[s.verdict]} (exit ${s.exitCode}): ${esc(s.exitReason)}</p>
<dl class="meta">
<dt>Harness</dt><dd>${esc(s.harness.name)} ${esc(s.harness.version)}${s.harness.commit ? ` (${esc(s.harness.commit)})` : ''}</dd>
<dt>Profile</dt><dd>${esc(s.profile.name)} (${esc(s.profile.file)}), writes ${s.profile.writes ? 'allowed' : 'not allowed'}</dd>
<dt>Run</dt><dd><code>${esc(s.runId)}</code>, ${esc(s.startedAt)}, ${(s.durationMs / 1000).toFixed(1)} s</dd>
<dt>Seed</dt><dd><code>${esc(s.seed)}</code></dd>
<dt>Depth</dt><dd>${esc(s.depth)}${s.properties.length ? ` (${s.properties.map((p) => `${esc(p.property)}: ${p.runs} cases`).join(', ')})` : ''}</dd>
<dt>Exit code counts</dt><dd>${s.strict ? 'failed musts and shoulds (--strict)' : 'failed musts (a failed should is shown, not counted)'}</dd>
${s.grep ? `<dt>Tests</dt><dd>matching <code>${esc(s.grep)}</code></dd>` : ''}
${s.fault ? `<dt>Seeded fault</dt><dd><code>${esc(s.fault)}</code></dd>` : ''}
</dl>
</header>
<nav><ul>${s.interfaces.map((i) => `<li><a href="#${esc(i.name)}">${esc(i.name)}</a> ${totalsLine(i)}</li>`).join('')}</ul></nav>
${renderGate(s)}
${s.brokenTests.length ? `<section class="broken"><h2>Checks that could not decide</h2><p>The harness's or the environment's trouble, not a verdict on the target: what these tests claim is inconclusive.</p><ul>${s.brokenTests.map((b) => `<li><b>${esc(b.test)}</b><pre>${esc(b.error)}</pre></li>`).join('')}</ul></section>` : ''}
${s.interfaces.map(renderInterface).join('\n')}
${s.notes.length ? `<section><h2>Notes</h2><ul>${s.notes.map((n) => `<li>${esc(n)}</li>`).join('')}</ul></section>` : ''}
${renderWrites(s)}
</body></html>
`;
}

/** The CI gate's view: what is new, fixed and still failing against the baseline, and the waivers. */
function renderGate(s: RunSummary): string {
  const g = s.gate;
  if (!g) return '';
  const list = (title: string, items: string[], testid: string) => `<h3>${title} (${items.length})</h3><ul data-testid="${testid}">${items.map((k) => `<li><code>${esc(k)}</code></li>`).join('') || '<li>none</li>'}</ul>`;
  const waiver = (w: { requirement: string; reason: string; acceptedBy: string; expires: string; target?: string }) => `<li><code>${esc(w.requirement)}</code>${w.target ? ` (${esc(w.target)})` : ''}: ${esc(w.reason)}; accepted by ${esc(w.acceptedBy)}, until ${esc(w.expires)}</li>`;
  return `<section class="gate"><h2>Gate</h2>
<p>${g.baseline ? `Against the baseline <code>${esc(g.baseline)}</code>; ` : ''}the exit code counts ${g.failOn === 'new' ? 'only failures the baseline did not have' : 'every counted failure'}, waived ones aside.</p>
${g.baseline ? list('Newly failing', g.newFailures, 'gate-new') + list('Newly fixed', g.fixed, 'gate-fixed') + list('Still failing', g.stillFailing, 'gate-still') + list('New to the spec', g.newRequirements, 'gate-new-requirements') : ''}
<h3>Waived (${g.waived.length})</h3><ul data-testid="gate-waived">${g.waived.map(waiver).join('') || '<li>none</li>'}</ul>
${g.expiredWaivers.length ? `<h3>Expired waivers: they fail the run (${g.expiredWaivers.length})</h3><ul data-testid="gate-expired">${g.expiredWaivers.map(waiver).join('')}</ul>` : ''}
${g.unusedWaivers.length ? `<h3>Waivers that matched no failure: remove them? (${g.unusedWaivers.length})</h3><ul data-testid="gate-unused">${g.unusedWaivers.map(waiver).join('')}</ul>` : ''}
</section>`;
}

function totalsLine(i: InterfaceResult): string {
  const t = i.totals;
  const parts = [`${t.passed} passed`, `${t.failed} failed`];
  if (t.inconclusive) parts.push(`${t.inconclusive} inconclusive`);
  parts.push(`${t['not-tested']} not tested`, `${t['not-applicable']} not applicable`);
  if (t.flagged) parts.push(`${t.flagged} flagged`);
  return `<span class="totals">${parts.join(' · ')}</span>`;
}

function renderInterface(i: InterfaceResult): string {
  const order = { failed: 0, inconclusive: 1, flagged: 2, passed: 3, 'not-tested': 4, 'not-applicable': 5 } as const;
  const reqs = [...i.requirements].sort((a, b) => order[a.status] - order[b.status]);
  return `<section class="interface" id="${esc(i.name)}">
<h2>${esc(i.name)}: ${esc(i.title)}</h2>
<p>${totalsLine(i)}. The run judged ${i.exercised.judged} of the ${i.exercised.applicable} requirements this profile leaves applicable, the generic ones derived from the spec included (${Math.round(i.exercised.share * 100)}%).</p>
<dl class="meta">
<dt>Target</dt><dd>${esc(i.target?.baseUrl)}${i.target?.reference ? ' (embedded reference)' : ''}${i.target?.fault ? `, seeded fault <code>${esc(i.target.fault)}</code>` : ''}${i.target?.readings ? `, in the readings ${Object.entries(i.target.readings).map(([p, r]) => `<code>${esc(p)}=${esc(r)}</code>`).join(', ')}` : ''}</dd>
<dt>Spec</dt><dd>${esc(i.spec.file)} <code title="sha256">${esc(i.spec.sha256.slice(0, 16))}</code>, from ${esc(i.spec.document)} (${esc(i.spec.section)})</dd>
</dl>
${i.causes.length ? `<h3>Causes</h3><p>Each piece of evidence once, with every requirement it fails.</p>${i.causes.map(renderCause).join('')}` : ''}
<table><thead><tr><th>Requirement</th><th>Level</th><th>Verdict</th><th>What it says</th></tr></thead><tbody>
${reqs.map(renderRequirement).join('\n')}
</tbody></table>
${renderCoverage(i)}
${renderOpenPoints(i)}
</section>`;
}

/**
 * Operation coverage (Specmatic's API coverage report is the model): per operation of the spec, whether a request of
 * the run reached it, the statuses it got, the documented ones it never got, and the tests that sent them.
 */
function renderCoverage(i: InterfaceResult): string {
  if (!i.operations?.length) return '';
  const reached = i.operations.filter((o) => o.exercised).length;
  const rows = i.operations.map(
    (o) =>
      `<tr class="${o.exercised ? '' : 'not-tested'}" data-operation="${esc(o.operation)}"><td><code>${esc(o.operation)}</code></td><td>${o.exercised ? 'yes' : '<b>no</b>'}</td><td>${o.statuses.map((s) => (s === 0 ? 'no answer' : String(s))).join(', ')}</td><td>${o.unseen.map(esc).join(', ')}</td><td>${o.tests.length ? `<details><summary>${o.tests.length} test${o.tests.length > 1 ? 's' : ''}</summary>${o.tests.map(esc).join('<br>')}</details>` : ''}</td></tr>`,
  );
  return `<h3>Operation coverage</h3>
<p>${reached} of the ${i.operations.length} operations of the spec were reached by a request of this run.</p>
<table class="coverage"><thead><tr><th>Operation</th><th>Exercised</th><th>Statuses seen</th><th>Documented, never seen</th><th>Tests</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

/**
 * The open points: where the document leaves a choice to the deployment. Those a check met show the reading the target
 * took, so that a vendor sees where it differs from other deployments without that being a failure.
 */
function renderOpenPoints(i: InterfaceResult): string {
  if (!i.notShown.length) return '';
  const readingText = (n: InterfaceResult['notShown'][number], id?: string) => n.readings?.find((r) => r.id === id)?.text;
  const seen = (n: InterfaceResult['notShown'][number]) =>
    (n.seen ?? []).map((s) => `<li class="reading">took <b>${esc(s.reading ?? 'a reading the spec does not list')}</b>${s.reading ? `: ${esc(readingText(n, s.reading))}` : ''}${s.detail ? ` (${esc(s.detail)})` : ''}; seen by ${s.tests.map((t) => `<i>${esc(t)}</i>`).join(', ')}</li>`).join('');
  const how = (n: InterfaceResult['notShown'][number]) =>
    n.observable === false ? `not observable: ${esc(n.why)}` : n.stated ? `the profile states it (<code>settings.${esc(n.setting)}</code>)` : `only what every reading agrees on is asserted${n.setting ? ` (the profile may state it: <code>settings.${esc(n.setting)}</code>)` : ''}`;
  const met = i.notShown.filter((n) => n.seen?.length);
  return `<h3>Open points: left to the deployment by the document</h3>
<p>${met.length} of the ${i.notShown.length} open points were met by a check; where a target took one reading or another, neither is a failure.</p>
<ul class="open-points">${i.notShown
    .map((n) => `<li id="${esc(i.name)}-${esc(n.id)}"><b>${esc(n.id)}</b>: ${esc(n.text)} <q>${esc(n.source)}</q><br><small>${how(n)}${n.readings?.length ? `; readings: ${n.readings.map((r) => `<code title="${esc(r.text)}">${esc(r.id)}</code>`).join(', ')}` : ''}</small>${n.seen?.length ? `<ul>${seen(n)}</ul>` : ''}</li>`)
    .join('')}</ul>`;
}

function renderCause(c: Cause): string {
  return `<div class="failure cause" id="${esc(c.id)}" data-cause="${esc(c.id)}">
<p><b>${esc(c.id)}</b>: found by <i>${esc(c.test)}</i>, testing <code>${esc(c.requirement)}</code>; fails ${c.touches.map((t) => `<code>${esc(t)}</code>`).join(', ')}</p>
<pre class="message">${esc(c.message.split('\ncounterexample:')[0])}</pre>
${c.expected ? `<p>Expected: ${esc(c.expected)}</p>` : ''}
<p>Replay: <code class="replay">${esc(c.replay)}</code>${c.isItFixed ? `<br>Is it fixed? <code class="replay">${esc(c.isItFixed)}</code> (exit 0: it conforms now; 1: it still fails)` : ''}</p>${c.curl ? `<p>As curl${c.curl.signed ? ' (signed: its signature or session token is this run\'s, so send it again with <code>npm run replay -- --resend</code>)' : ', credentials from their environment variables'}: <code class="curl" data-testid="curl">${esc(c.curl.line)}</code></p>` : ''}
${c.exchanges.length ? `<details><summary>${c.exchanges.length} exchange${c.exchanges.length > 1 ? 's' : ''}</summary>${c.exchanges.map(renderExchange).join('')}</details>` : ''}
</div>`;
}

function renderRequirement(r: RequirementResult): string {
  const detail = r.failures.length
    ? r.failures.map(renderFailure).join('')
    : r.message
      ? `<p class="why">${esc(r.message)}</p>`
      : '';
  const knockOn = r.knockOnOf?.length ? ` <small class="knock-on">knock-on of ${r.knockOnOf.map(esc).join(', ')}</small>` : '';
  const notCounted = r.status === 'failed' && !r.counted ? ' <small>not counted</small>' : '';
  return `<tr class="req ${r.status}" data-requirement="${esc(r.id)}" data-status="${r.status}">
<td><code>${esc(r.id)}</code>${r.generic ? ' <small>generic</small>' : ''}</td><td>${esc(r.level)}</td>
<td><span class="badge ${r.status}">${LABEL[r.status]}</span>${notCounted}${knockOn}</td>
<td>${esc(r.text)}<details><summary>source</summary><q>${esc(r.source)}</q>${r.tests.length ? `<p>Checked by: ${r.tests.map(esc).join('; ')}</p>` : ''}</details>${detail}</td></tr>`;
}

function renderFailure(f: RequirementResult['failures'][number]): string {
  const ev = f.evidence;
  return `<div class="failure">
<p><b>${esc(f.test)}</b>: see <a href="#${esc(f.cause)}">${esc(f.cause)}</a>${ev?.touches && ev.touches.length > 1 ? ` (the same evidence fails ${ev.touches.map(esc).join(', ')})` : ''}</p>
<pre class="message">${esc(ev?.property ? f.message.split('\ncounterexample:')[0] : f.message)}</pre>
${ev?.property ? `<p>Property <code>${esc(ev.property.property)}</code>: seed <code>${ev.property.seed}</code>, path <code>${esc(ev.property.path)}</code>, ${ev.property.numRuns} runs, ${ev.property.numShrinks} shrinks${ev.property.reproduced ? '' : ', did not fail again when re-run'}.<br>Counterexample: <code>${esc(ev.property.counterexample)}</code></p>` : ''}
<p>Replay: <code class="replay">${esc(f.replay)}</code></p>
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

/**
 * Every request that could change state, grouped by operation, with how many the target accepted and refused (those
 * sent to be refused are listed too) and how many are of unknown effect (a 5xx, a 429, no answer: an operator looks
 * for them on the target); a write accepted although the profile forbids writes is flagged.
 */
function renderWrites(s: RunSummary): string {
  const groups = new Map<string, { records: WriteRecord[]; forbidden: number }>();
  for (const w of s.writes) {
    const key = `${w.interfaceName} ${w.operation}`;
    const g = groups.get(key) ?? { records: [], forbidden: 0 };
    g.records.push(w);
    if (w.acceptedWhileForbidden) g.forbidden++;
    groups.set(key, g);
  }
  if (groups.size === 0) return `<section id="writes"><h2>Writes</h2><p>None: no request of this run could have changed the target's state.</p></section>`;
  const rows = [...groups.entries()].map(([op, g]) => {
    const undone = g.records.filter((r) => r.undone).length;
    const what = [...new Set(g.records.map((r) => r.what))].join('; ');
    const accepted = g.records.filter((r) => !r.outcome).length;
    const refused = g.records.filter((r) => r.outcome === 'refused').length;
    const other = g.records.length - accepted - refused;
    const counts = [`${accepted} accepted`, `${refused} refused`, ...(other ? [`${other} of unknown effect (neither accepted nor refused: a 5xx, a 429, no answer)`] : [])].join(', ');
    return `<tr class="${g.forbidden ? 'flagged' : ''}" data-write="${esc(op)}"><td><code>${esc(op)}</code></td><td>${g.records.length} (${counts})</td><td>${esc(what)}</td><td>${undone ? `${undone} undone` : ''}${g.forbidden ? ` <span class="badge flagged">${g.forbidden} accepted although writes are forbidden</span>` : ''}</td></tr>`;
  });
  const forbidden = s.writes.filter((w) => w.acceptedWhileForbidden).length;
  return `<section id="writes"><h2>Writes</h2>${forbidden ? `<p class="verdict failed">The profile forbids writes, and the target accepted ${forbidden} request${forbidden > 1 ? 's' : ''} that the document says it must refuse: each changed its state.</p>` : ''}<p>Every request sent to an operation that changes state, those sent to be refused included.</p><table><thead><tr><th>Operation</th><th>Sent</th><th>What it changes</th><th></th></tr></thead><tbody>${rows.join('')}</tbody></table></section>`;
}

const CSS = `
body{font:14px/1.45 system-ui,sans-serif;margin:0 auto;max-width:1200px;padding:1rem 2rem;color:#1d1d1f}
h1{margin:.2rem 0}h2{border-bottom:1px solid #ddd;padding-bottom:.2rem;margin-top:2rem}
.verdict{font-size:1.2rem;font-weight:600;padding:.5rem .8rem;border-radius:6px}
.verdict.passed{background:#e3f6e8;color:#11602a}.verdict.failed{background:#fde6e6;color:#8a1010}.verdict.inconclusive{background:#fff1c2;color:#6b4e00}
dl.meta{display:grid;grid-template-columns:max-content 1fr;gap:.1rem 1rem}dl.meta dt{font-weight:600}dl.meta dd{margin:0}
table{border-collapse:collapse;width:100%}th,td{border-bottom:1px solid #eee;padding:.35rem .5rem;text-align:left;vertical-align:top}
.badge{display:inline-block;padding:.05rem .5rem;border-radius:10px;font-size:.85rem;white-space:nowrap}
.badge.passed{background:#e3f6e8;color:#11602a}.badge.failed{background:#d62828;color:#fff}.badge.flagged{background:#fff1c2;color:#6b4e00}
.badge.inconclusive{background:#ffe0b3;color:#6b3a00}.badge.not-applicable{background:#eef;color:#334}.badge.not-tested{background:#f0f0f0;color:#666}
tr.failed{background:#fff7f7}.failure{border-left:3px solid #d62828;padding:.2rem .8rem;margin:.5rem 0;background:#fff}
.knock-on{color:#8a5a00}
pre{white-space:pre-wrap;word-break:break-word;background:#f7f7f9;padding:.4rem;border-radius:4px;margin:.2rem 0}
.exchange{display:grid;grid-template-columns:1fr 1fr;gap:.5rem}.exchange h4{margin:.3rem 0}
code.replay{user-select:all}q{color:#555}.problems{color:#8a1010}.why{color:#555}
`;

/** The run's reports for people and machines, written (or rewritten, once a gate is applied) into its folder. */
export function writeSummaryReports(dir: string, summary: RunSummary): void {
  mkdirSync(path.join(dir, 'conformance'), { recursive: true });
  writeFileSync(path.join(dir, 'summary.json'), JSON.stringify(summary, null, 2));
  writeFileSync(path.join(dir, 'conformance', 'index.html'), renderHtml(summary));
  writeFileSync(path.join(dir, 'junit-requirements.xml'), renderRequirementsJunit(summary));
}
