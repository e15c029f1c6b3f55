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


/** Failed requirements of an interface in one run, by level (an advisory "fails" as flagged). */
export function failuresByLevel(s: RunSummary, iface: string): { must: number; should: number; advisory: number } | undefined {
  const i = s.interfaces.find((x) => x.name === iface);
  if (!i) return undefined;
  const n = (level: string, status: string) => i.requirements.filter((r) => r.level === level && r.status === status).length;
  return { must: n('must', 'failed'), should: n('should', 'failed'), advisory: n('advisory', 'flagged') };
}

const day = (iso: string) => iso.slice(0, 10);
const percent = (share: number) => `${(share * 100).toFixed(share > 0.99 || share < 0.01 ? 1 : 0)}%`;

/**
 * One interface's passed share over the runs, as an inline SVG: runs placed by their date (a dated axis, first and last
 * day written), the share axis scaled to the data and labelled with its bounds (a drop of two requirements of a
 * hundred is a step, not a 3-pixel wiggle on 0 to 100%), and each regression (a run with more failed musts or shoulds
 * than the one before) marked in red with what newly failed.
 */
function chart(history: RunSummary[], iface: string): string {
  const points = history
    .map((s, k) => ({ k, share: passedShare(s, iface), at: s.startedAt, t: Date.parse(s.startedAt), failed: failuresByLevel(s, iface) }))
    .filter((p): p is { k: number; share: number; at: string; t: number; failed: NonNullable<ReturnType<typeof failuresByLevel>> } => p.share !== undefined && p.failed !== undefined);
  const W = 640;
  const H = 180;
  const left = 52;
  const right = 16;
  const top = 16;
  const bottom = 34;
  const [t0, t1] = [Math.min(...points.map((p) => p.t)), Math.max(...points.map((p) => p.t))];
  const x = (t: number) => left + (t1 > t0 ? ((t - t0) * (W - left - right)) / (t1 - t0) : (W - left - right) / 2);
  // The share axis spans the data with a little room, never beyond 0 and 100%.
  const lowest = Math.min(...points.map((p) => p.share));
  const highest = Math.max(...points.map((p) => p.share));
  const room = Math.max((highest - lowest) * 0.15, 0.01);
  const [lo, hi] = [Math.max(0, lowest - room), Math.min(1, highest + room)];
  const y = (share: number) => H - bottom - ((share - lo) * (H - top - bottom)) / (hi - lo || 1);
  const worse = (p: (typeof points)[number], before: (typeof points)[number] | undefined) => before !== undefined && p.failed.must + p.failed.should > before.failed.must + before.failed.should;
  const regressed = (p: (typeof points)[number], k: number) => worse(p, points[k - 1]);
  const newly = (k: number) => {
    const [a, b] = [history[points[k - 1]!.k]!, history[points[k]!.k]!];
    const before = new Set(a.interfaces.find((i) => i.name === iface)?.requirements.filter((r) => r.status === 'failed').map((r) => r.id));
    return (b.interfaces.find((i) => i.name === iface)?.requirements ?? []).filter((r) => r.status === 'failed' && !before.has(r.id)).map((r) => r.id);
  };
  const line = points.map((p) => `${x(p.t).toFixed(1)},${y(p.share).toFixed(1)}`).join(' ');
  const dots = points
    .map((p, k) => {
      const bad = regressed(p, k);
      const what = `${p.at}: ${percent(p.share)} passed; failed ${p.failed.must} musts, ${p.failed.should} shoulds${bad ? `; regression: ${newly(k).join(', ') || 'more failures'} newly failed` : ''}`;
      return `<circle cx="${x(p.t).toFixed(1)}" cy="${y(p.share).toFixed(1)}" r="${bad ? 5 : 3}" fill="${bad ? '#cf222e' : '#1f6feb'}"${bad ? ' data-testid="regression"' : ''}><title>${esc(what)}</title></circle>`;
    })
    .join('');
  const days = points.length ? [...new Set([day(points[0]!.at), day(points.at(-1)!.at)])] : [];
  const dateLabels = days.map((d, k) => `<text x="${(k === 0 ? x(t0) : x(t1)).toFixed(1)}" y="${H - 12}" font-size="10" text-anchor="${days.length === 1 ? 'middle' : k === 0 ? 'start' : 'end'}" data-testid="date">${esc(d)}</text>`).join('');
  return `<svg role="img" aria-label="${esc(iface)}: share of requirements passed per run, by date" data-testid="chart-${esc(iface)}" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}">
<line x1="${left}" y1="${y(lo)}" x2="${W - right}" y2="${y(lo)}" stroke="#999"/><line x1="${left}" y1="${y(hi)}" x2="${W - right}" y2="${y(hi)}" stroke="#ddd"/>
<text x="4" y="${y(hi) + 4}" font-size="10" data-testid="axis-high">${percent(hi)}</text><text x="4" y="${y(lo) + 4}" font-size="10" data-testid="axis-low">${percent(lo)}</text>
${dateLabels}<polyline fill="none" stroke="#1f6feb" stroke-width="2" points="${line}"/>${dots}</svg>
<p class="scale" data-testid="scale-${esc(iface)}">Share of applicable requirements passed, axis scaled to the data: ${percent(lo)} to ${percent(hi)}${lo > 0 || hi < 1 ? ' (not 0 to 100%)' : ''}. Red: a run with more failed musts or shoulds than the run before.</p>
${failureTable(points.slice(-10).map((p) => ({ at: p.at, share: p.share, ...p.failed })), iface)}`;
}

/** The last runs' failures of an interface by level, newest first. */
function failureTable(rows: Array<{ at: string; share: number; must: number; should: number; advisory: number }>, iface: string): string {
  const body = [...rows].reverse().map((r) => `<tr><td>${esc(r.at.replace('T', ' ').slice(0, 16))}</td><td>${percent(r.share)}</td><td>${r.must}</td><td>${r.should}</td><td>${r.advisory}</td></tr>`).join('');
  return `<table data-testid="failures-${esc(iface)}"><tr><th>run (UTC)</th><th>passed</th><th>failed musts</th><th>failed shoulds</th><th>flagged advisories</th></tr>${body}</table>`;
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
