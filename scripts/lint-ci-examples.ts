/**
 * npm run lint:ci: lints every CI example under examples/ci (GitHub workflows with GitHub's workflow parser, GitLab
 * files with gitlab-ci-local: scripts/ci-lint.ts) and exits 1 with one line per problem, 0 when there is none.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { lintFile } from './ci-lint.ts';
import { answerHelp } from './help.ts';

answerHelp(`npm run lint:ci
  Lints every CI example under examples/ci (GitHub workflows, GitLab files). Exit 1 with one line per problem.`);

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const EXAMPLES = path.join(ROOT, 'examples', 'ci');

/** Every file under dir except Markdown (the README), relative to the repository. */
function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return files(full);
    return e.name.endsWith('.md') ? [] : [path.relative(ROOT, full)];
  });
}

const targets = files(EXAMPLES).sort();
if (targets.length === 0) {
  console.error(`lint:ci: no CI examples found under ${path.relative(ROOT, EXAMPLES)}`);
  process.exit(1);
}
const results = await Promise.all(targets.map(async (f) => ({ file: f, problems: await lintFile(path.join(ROOT, f)) })));
const problems = results.flatMap((r) => r.problems.map((p) => p.replace(path.join(ROOT, r.file), r.file)));
for (const p of problems) console.error(p);
console.log(
  problems.length
    ? `lint:ci: ${problems.length} problem(s) in ${results.filter((r) => r.problems.length).length} of ${targets.length} CI example(s)`
    : `lint:ci: ${targets.length} CI examples, no problems`,
);
process.exit(problems.length ? 1 : 0);
