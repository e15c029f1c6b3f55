import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { kindOf, lintFile, lintText } from '../../scripts/ci-lint.ts';

const EXAMPLES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'examples', 'ci');

/** A workflow that GitHub runs, to break one thing at a time. */
const GITHUB_OK = `name: ok
on: push
jobs:
  check:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - run: npm ci
`;

/** A GitLab CI file that GitLab runs, to break one thing at a time. */
const GITLAB_OK = `check:
  image: node:20-bookworm
  script:
    - npm ci
  artifacts:
    reports:
      junit: reports/junit.xml
`;

/** Lint must name the file and each given text in one of its problems. */
async function assertProblem(text: string, kind: 'github' | 'gitlab', ...expected: RegExp[]): Promise<void> {
  const problems = await lintText(text, kind, 'broken.yml');
  assert.ok(problems.length > 0, `expected a problem for:\n${text}`);
  for (const p of problems) assert.ok(p.startsWith('broken.yml'), `the problem names the file: ${p}`);
  for (const e of expected) assert.ok(problems.some((p) => e.test(p)), `a problem matches ${e}: ${problems.join('\n')}`);
}

test('the CI examples are all linted and have no problems', async () => {
  const files = ['github', 'gitlab'].flatMap((d) => readdirSync(path.join(EXAMPLES, d)).map((f) => path.join(EXAMPLES, d, f)));
  assert.deepEqual(files.map((f) => path.basename(f)).sort(), [
    'behaviour-nightly.gitlab-ci.yml', 'behaviour-nightly.yml', 'gate.gitlab-ci.yml', 'gate.yml', 'nightly.gitlab-ci.yml', 'nightly.yml', 'promote.gitlab-ci.yml', 'promote.yml', 'vendor.gitlab-ci.yml', 'vendor.yml',
  ]);
  const results = await Promise.all(files.map(async (f) => [f, await lintFile(f)] as const));
  for (const [f, problems] of results) assert.deepEqual(problems, [], `${f} has no problems`);
});

test('each example file is given the linter of its format', () => {
  assert.equal(kindOf('examples/ci/github/gate.yml'), 'github');
  assert.equal(kindOf('examples/ci/gitlab/gate.gitlab-ci.yml'), 'gitlab');
  assert.equal(kindOf('examples/ci/README.md'), undefined);
});

test('the unbroken snippets pass, so that each broken one below fails for its own fault', async () => {
  assert.deepEqual(await lintText(GITHUB_OK, 'github'), []);
  assert.deepEqual(await lintText(GITLAB_OK, 'gitlab'), []);
});

test('a GitHub workflow with a misspelled key, a job without runs-on', async () => {
  await assertProblem(GITHUB_OK.replace('runs-on:', 'runs-onn:'), 'github', /Unexpected value 'runs-onn'/, /missing: runs-on/);
});

test('a GitHub workflow with a broken expression, an unknown context, a job it needs missing, an unpinned action', async () => {
  await assertProblem(GITHUB_OK.replace('npm ci', 'echo ${{ hashFile(\'x\') }}'), 'github', /hashFile/);
  await assertProblem(GITHUB_OK.replace('npm ci', 'echo ${{ secret.KEY }}'), 'github', /secret/);
  const after = '  after:\n    needs: build\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo\n';
  await assertProblem(GITHUB_OK + after, 'github', /Job 'after' depends on unknown job 'build'/);
  await assertProblem(GITHUB_OK.replace('checkout@v4', 'checkout'), 'github', /names no ref/);
  await assertProblem(GITHUB_OK.replace('on: push', "on:\n  schedule:\n    - cron: '99 2 * * *'"), 'github', /cron/i);
});

test('a GitLab file with a misspelled key, a job without script', async () => {
  await assertProblem(GITLAB_OK.replace('junit:', 'junitt:'), 'gitlab', /'junitt' property is not expected/);
  await assertProblem(GITLAB_OK.replace('  script:', '  scripts:'), 'gitlab', /check must have script/);
});

test('a GitLab file whose job needs a job that does not exist, or that is no YAML', async () => {
  await assertProblem(GITLAB_OK.replace('  script:', '  needs: [build]\n  script:'), 'gitlab', /needs: \[build\].*could not be found/);
  await assertProblem(`${GITLAB_OK}  : : :\n`, 'gitlab', /line 8/);
});
