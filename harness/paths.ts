import { fileURLToPath } from 'node:url';
import path from 'node:path';

/** The repository root, whatever the working directory of the process that imports this. */
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const SPECS_DIR = path.join(ROOT, 'specs');
export const TARGETS_DIR = path.join(ROOT, 'targets');
export const REPORTS_DIR = process.env.HARNESS_REPORT_DIR ? path.resolve(process.env.HARNESS_REPORT_DIR) : path.join(ROOT, 'reports');
