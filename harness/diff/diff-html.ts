/**
 * The behaviour diff's section of the conformance report (issue 25): the differences by kind, interface, operation
 * and open point, each with its first cases side by side (baseline, candidate), the noise declared and measured, and
 * the --fail-on-diff gate. diff.json holds the same for machines.
 */
import { esc } from '../reporter/html.ts';
import type { DiffReport, DiffRow } from './diff-types.ts';

export function renderDiffSection(r: DiffReport): string {
  const gate = r.gate
    ? `<p class="verdict ${r.gate.failed ? 'failed' : 'passed'}" data-testid="diff-gate">--fail-on-diff ${esc(r.gate.failOnDiff.join(','))}: ${esc(r.gate.reason)}</p>`
    : '<p>A difference is not a conformance verdict: without --fail-on-diff it never changes the exit code.</p>';
  const noise = r.noise.measured.length
    ? `<h3>Measured noise: what varied between two runs of one deployment (${r.noiseFrom ? esc(r.noiseFrom.kind) : ''})</h3><table><tr><th>interface</th><th>key</th><th>rate</th></tr>${r.noise.measured
        .map((n) => `<tr><td>${esc(n.interface)}</td><td><code>${esc(n.key)}</code></td><td>${n.differed} of ${n.compared} (${(n.rate * 100).toFixed(1)}%)</td></tr>`)
        .join('')}</table>`
    : `<p>Measured noise: ${r.noiseFrom ? 'none' : 'not measured (no second run)'}.</p>`;
  const declared = r.noise.declared.length ? `<details><summary>Declared noise (x-behaviour-noise), never compared (${r.noise.declared.length})</summary><ul>${r.noise.declared.map((d) => `<li>${esc(d.interface)} <code>${esc(d.key)}</code>: ${esc(d.why)}</li>`).join('')}</ul></details>` : '';
  return `<section class="behaviour-diff"><h2>Behaviour diff</h2>
<p>Against the baseline <code>${esc(r.baseline.folder)}</code> (${esc(r.baseline.kind)}${r.baseline.seed === undefined ? '' : `, seed ${r.baseline.seed}`}): ${r.cases.differing} of ${r.cases.compared} cases differ.</p>
${gate}
${r.differences.length ? `<table data-testid="diff-rows"><tr><th>kind</th><th>interface</th><th>operation</th><th>open points</th><th>cases</th></tr>${r.differences.map(renderRow).join('')}</table>` : '<p data-testid="diff-none">No difference.</p>'}
${noise}
${declared}
</section><!--diff-->`;
}

function renderRow(row: DiffRow): string {
  const samples = row.samples
    .map((s) => `<div><b>${esc(s.test)}</b> › ${esc(s.label)} #${s.ordinal}: ${esc(s.detail)}<div class="exchange"><div><h4>baseline</h4><pre>${esc(JSON.stringify(s.baseline ?? null, null, 1))}</pre></div><div><h4>candidate</h4><pre>${esc(JSON.stringify(s.candidate ?? null, null, 1))}</pre></div></div></div>`)
    .join('');
  return `<tr><td>${esc(row.kind)}</td><td>${esc(row.interface)}</td><td><code>${esc(row.operation ?? '')}</code></td><td>${row.openPoints.map((p) => `<code>${esc(p)}</code>`).join(' ') || 'none (the document rules here)'}${row.waived ? ` <i>waived: ${esc(row.waived.reason)}</i>` : ''}</td><td>${row.count}</td></tr><tr><td colspan="5"><details><summary>cases side by side</summary>${samples}</details></td></tr>`;
}
