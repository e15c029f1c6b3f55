/**
 * The nightly trend: each run's summary kept in a history folder (--history), and a page drawn from it: per interface
 * the share of requirements passed over time (inline SVG, no library: a polyline is all it takes), the requirements
 * whose verdict changed between the last two runs, and those that flap (failed and passed alternately over the last
 * runs of the same harness version against the same target).
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { esc } from './reporter/html.ts';
import type { RunSummary } from './reporter/summary.ts';

/** Keeps a run's summary in the history folder (created if missing), named so that names sort by time. */
export function keepInHistory(dir: string, summaryFile: string, s: RunSummary): string {
  mkdirSync(dir, { recursive: true });
  const name = `${s.startedAt.replace(/[:.]/g, '-')}-${s.runId.slice(0, 8)}.json`;
  copyFileSync(summaryFile, path.join(dir, name));
  return path.join(dir, name);
}

/** Every summary of the folder, oldest first; files that are not summaries are skipped. */
export function loadHistory(dir: string): RunSummary[] {
  if (!existsSync(dir)) return [];
  const out: RunSummary[] = [];
  for (const f of readdirSync(dir).filter((n) => n.endsWith('.json'))) {
    try {
      const s = JSON.parse(readFileSync(path.join(dir, f), 'utf8')) as RunSummary;
      if (Array.isArray(s?.interfaces) && typeof s.startedAt === 'string') out.push(s);
    } catch {
      // not a summary: left alone
    }
  }
  return out.sort((a, b) => a.startedAt.localeCompare(b.startedAt));
}

/** Share of an interface's applicable requirements that passed. */
export function passedShare(s: RunSummary, iface: string): number | undefined {
  const i = s.interfaces.find((x) => x.name === iface);
  if (!i) return undefined;
  const applicable = i.requirements.filter((r) => r.status !== 'not-applicable');
  return applicable.length ? applicable.filter((r) => r.status === 'passed').length / applicable.length : undefined;
}

/** Where a run was aimed: the profile, and each interface's target. */
const targetOf = (s: RunSummary) => `${s.profile.name} ${s.interfaces.map((i) => i.target?.baseUrl ?? 'reference').join(' ')}`;

export interface Flapping {
  key: string;
  statuses: string[];
  changes: number;
}

/**
 * Requirements that failed and passed alternately over the last `window` runs of the latest run's harness version
 * and target: at least two changes between failed and passed.
 */
export function flapping(history: RunSummary[], window: number): Flapping[] {
  const last = history.at(-1);
  if (!last) return [];
  const same = history.filter((s) => s.harness.version === last.harness.version && s.harness.commit === last.harness.commit && targetOf(s) === targetOf(last)).slice(-window);
  const series = new Map<string, string[]>();
  for (const s of same) for (const i of s.interfaces) for (const r of i.requirements) series.set(`${i.name}:${r.id}`, [...(series.get(`${i.name}:${r.id}`) ?? []), r.status]);
  const out: Flapping[] = [];
  for (const [key, statuses] of series) {
    const decided = statuses.filter((x) => x === 'passed' || x === 'failed');
    const changes = decided.filter((x, k) => k > 0 && x !== decided[k - 1]).length;
    if (changes >= 2) out.push({ key, statuses, changes });
  }
  return out.sort((a, b) => b.changes - a.changes || a.key.localeCompare(b.key));
}

/** Requirements whose verdict differs between the last two runs. */
export function changed(history: RunSummary[]): Array<{ key: string; before: string; now: string }> {
  const [a, b] = history.slice(-2);
  if (!a || !b) return [];
  const before = new Map(a.interfaces.flatMap((i) => i.requirements.map((r) => [`${i.name}:${r.id}`, r.status] as const)));
  return b.interfaces.flatMap((i) => i.requirements.map((r) => ({ key: `${i.name}:${r.id}`, before: before.get(`${i.name}:${r.id}`) ?? '(new)', now: r.status }))).filter((c) => c.before !== c.now);
}


/** One interface's passed share over the runs, as an inline SVG line with a dot per run. */
function chart(history: RunSummary[], iface: string): string {
  const points = history.map((s, k) => ({ k, share: passedShare(s, iface), at: s.startedAt })).filter((p): p is { k: number; share: number; at: string } => p.share !== undefined);
  const W = 560;
  const H = 140;
  const pad = 24;
  const x = (k: number) => pad + (history.length > 1 ? (k * (W - 2 * pad)) / (history.length - 1) : (W - 2 * pad) / 2);
  const y = (share: number) => H - pad - share * (H - 2 * pad);
  const line = points.map((p) => `${x(p.k).toFixed(1)},${y(p.share).toFixed(1)}`).join(' ');
  const dots = points.map((p) => `<circle cx="${x(p.k).toFixed(1)}" cy="${y(p.share).toFixed(1)}" r="3"><title>${esc(p.at)}: ${(p.share * 100).toFixed(0)}% passed</title></circle>`).join('');
  return `<svg role="img" aria-label="${esc(iface)}: share of requirements passed per run" data-testid="chart-${esc(iface)}" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}">
<line x1="${pad}" y1="${y(0)}" x2="${W - pad}" y2="${y(0)}" stroke="#999"/><line x1="${pad}" y1="${y(1)}" x2="${W - pad}" y2="${y(1)}" stroke="#ddd"/>
<text x="2" y="${y(1) + 4}" font-size="10">100%</text><text x="2" y="${y(0) + 4}" font-size="10">0%</text>
<polyline fill="none" stroke="#1f6feb" stroke-width="2" points="${line}"/>${dots}</svg>`;
}

export function renderTrend(history: RunSummary[], window: number): string {
  const interfaces = [...new Set(history.flatMap((s) => s.interfaces.map((i) => i.name)))];
  const flaps = flapping(history, window);
  const changes = changed(history);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Conformance trend</title>
<style>body{font:14px/1.4 system-ui,sans-serif;margin:2em}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:3px 6px;text-align:left}code{font-size:12px}</style></head><body>
<h1>Conformance trend</h1>
<p>${history.length} runs, ${esc(history[0]?.startedAt)} to ${esc(history.at(-1)?.startedAt)}.</p>
${interfaces.map((i) => `<section><h2>${esc(i)}</h2>${chart(history, i)}</section>`).join('\n')}
<h2>Changed since the run before</h2>
<table data-testid="changed"><tr><th>requirement</th><th>before</th><th>now</th></tr>${changes.map((c) => `<tr><td><code>${esc(c.key)}</code></td><td>${esc(c.before)}</td><td>${esc(c.now)}</td></tr>`).join('') || '<tr><td colspan="3">no change</td></tr>'}</table>
<h2>Flapping (last ${window} runs of this harness version and target)</h2>
<table data-testid="flapping"><tr><th>requirement</th><th>changes</th><th>verdicts, oldest first</th></tr>${flaps.map((f) => `<tr><td><code>${esc(f.key)}</code></td><td>${f.changes}</td><td>${esc(f.statuses.join(' → '))}</td></tr>`).join('') || '<tr><td colspan="3">none</td></tr>'}</table>
</body></html>
`;
}
