import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { expect, test } from '@playwright/test';

const html = process.env.HARNESS_REPORT_HTML;

test('the conformance report renders and shows a failed requirement with its evidence', async ({ page }) => {
  expect(html, 'HARNESS_REPORT_HTML names the report of a run with a failure').toBeTruthy();
  expect(existsSync(html!), `${html} exists`).toBe(true);
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(pathToFileURL(html!).toString());
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Conformance report');
  await expect(page.getByTestId('run-verdict')).toContainText('Run failed');
  const failedRow = page.locator('tr[data-status="failed"]').first();
  await expect(failedRow).toBeVisible();
  await expect(failedRow.locator('.badge')).toHaveText('failed');
  // A failure carries its replay command, and it is visible to the reader.
  await expect(failedRow.locator('code.replay').first()).toContainText('npm run conformance');
  expect(errors).toEqual([]);
});
