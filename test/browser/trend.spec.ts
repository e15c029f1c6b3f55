import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect, test } from '@playwright/test';
import type { RunSummary } from '../../harness/reporter/summary.ts';
import { loadHistory, renderTrend } from '../../harness/trend.ts';

const html = process.env.HARNESS_REPORT_HTML;

test('the trend page renders a dated chart per interface from five runs, scaled to the data, with regressions marked and a flapping requirement shown', async ({ page }) => {
  // Five nightly runs made from a real run's summary: one requirement fails and passes alternately.
  const summaryFile = path.join(path.dirname(path.dirname(html ?? '')), 'summary.json');
  expect(existsSync(summaryFile), `${summaryFile} exists (the summary beside HARNESS_REPORT_HTML)`).toBe(true);
  const base = JSON.parse(readFileSync(summaryFile, 'utf8')) as RunSummary;
  const iface = base.interfaces[0]!;
  const flapper = iface.requirements.find((r) => (r.status === 'passed' || r.status === 'failed') && r.level !== 'advisory')!;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'trend-'));
  for (let n = 0; n < 5; n++) {
    const s = structuredClone(base);
    s.startedAt = new Date(Date.UTC(2026, 10, 1 + n, 2)).toISOString();
    s.runId = `nightly-${n}`;
    for (const r of s.interfaces[0]!.requirements) if (r.id === flapper.id) r.status = n % 2 ? 'failed' : 'passed';
    writeFileSync(path.join(dir, `${n}.json`), JSON.stringify(s));
  }
  const page_ = path.join(dir, 'index.html');
  writeFileSync(page_, renderTrend(loadHistory(dir), 10));
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(pathToFileURL(page_).toString());
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Conformance trend');
  for (const i of base.interfaces) await expect(page.getByTestId(`chart-${i.name}`)).toBeVisible();
  const chart = page.getByTestId(`chart-${iface.name}`);
  await expect(chart.locator('circle')).toHaveCount(5);
  // A dated axis: the first and the last night.
  await expect(chart.getByTestId('date')).toHaveText(['2026-11-01', '2026-11-05']);
  // The flapper failed on nights 2 and 4: each a regression, marked, saying what newly failed.
  await expect(chart.getByTestId('regression')).toHaveCount(2);
  await expect(chart.getByTestId('regression').first().locator('title')).toContainText(`regression: ${flapper.id} newly failed`);
  // The axis spans the data, and says so.
  await expect(page.getByTestId(`scale-${iface.name}`)).toContainText('axis scaled to the data');
  await expect(page.getByTestId(`failures-${iface.name}`).locator('tr')).toHaveCount(6);
  await expect(page.getByTestId('flapping')).toContainText(`${iface.name}:${flapper.id}`);
  await expect(page.getByTestId('changed')).toContainText(`${iface.name}:${flapper.id}`);
  expect(errors).toEqual([]);
});
