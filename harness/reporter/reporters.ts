import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ReporterDescription } from '@playwright/test';

/**
 * The reporters of a run, and of the merge of a sharded run's blob reports (scripts/merge-reports.ts): the same list,
 * so that a merged run reports exactly as an unsplit one.
 */
export function reportersFor(reportDir: string, opts: { quiet: boolean; playwrightHtml: boolean }): ReporterDescription[] {
  const here = path.dirname(fileURLToPath(import.meta.url));
  return [
    [path.join(here, 'console.ts'), { quiet: opts.quiet }],
    // The self-test judges from summary.json alone and skips Playwright's own HTML report (the costliest part of a run).
    ...(opts.playwrightHtml ? [['html', { outputFolder: path.join(reportDir, 'playwright'), open: 'never' }] as ReporterDescription] : []),
    // Verdicts travel into CI test views as properties of each test case.
    ['junit', { outputFile: path.join(reportDir, 'junit.xml'), embedAnnotationsAsProperties: true }],
    [path.join(here, 'conformance-reporter.ts')],
    // The behaviour recording, where the run asks for one (--record-behaviour, --compare-recording).
    [path.join(here, 'behaviour.ts')],
  ];
}
