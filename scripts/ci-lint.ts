/**
 * The linters of the CI examples in examples/ci (npm run lint:ci, and test/unit/ci-examples-lint.test.ts).
 *
 * - GitHub Actions workflows: GitHub's own parser, @actions/workflow-parser (the one behind GitHub's Actions language
 *   service), which checks a workflow against GitHub's workflow schema, its expressions and its cron lines.
 * - GitLab CI files: gitlab-ci-local, which checks a file against GitLab's own CI JSON schema (ci.json, bundled) and
 *   then what the schema cannot (every job has a script, needs and dependencies name jobs that exist, in no later
 *   stage). It is a command-line program: it runs in a folder of its own (it writes a state folder there) with
 *   --list-json, which parses, validates and lists the jobs without running any.
 *
 * Neither sends anything over the network. The workflow parser imports its schema (JSON) without an import attribute,
 * which plain Node 20 refuses: it loads under tsx, as every script and test here runs.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { convertWorkflowTemplate, NoOperationTraceWriter, parseWorkflow } from '@actions/workflow-parser';
import { ErrorPolicy } from '@actions/workflow-parser/model/convert';
import YAML from 'yaml';

export type CiKind = 'github' | 'gitlab';

/** Which linter a file of examples/ci needs: github/*.yml (or .yaml) and *.gitlab-ci.yml; undefined for anything else. */
export function kindOf(file: string): CiKind | undefined {
  const base = path.basename(file);
  if (/\.gitlab-ci\.ya?ml$/.test(base) || base === '.gitlab-ci.yml') return 'gitlab';
  if (/\.ya?ml$/.test(base) && path.basename(path.dirname(file)) === 'github') return 'github';
  return undefined;
}

/** The problems of one CI file, each a line naming the file (an empty list: none). */
export async function lintFile(file: string, kind: CiKind | undefined = kindOf(file)): Promise<string[]> {
  if (!kind) return [`${file}: not a CI file this linter knows (github/*.yml or *.gitlab-ci.yml)`];
  return lintText(await readFile(file, 'utf8'), kind, file);
}

/** The problems of a CI file's text; name is how the messages call the file. */
export async function lintText(text: string, kind: CiKind, name = `workflow.${kind}.yml`): Promise<string[]> {
  return kind === 'github' ? lintGithub(text, name) : lintGitlab(text, name);
}

async function lintGithub(text: string, name: string): Promise<string[]> {
  const parsed = parseWorkflow({ name, content: text }, new NoOperationTraceWriter());
  // The conversion to a workflow template adds what the schema alone does not see (cron lines, needs that name no
  // job, job and step ids); TryConversion keeps going after the schema's errors so that everything is listed at once.
  if (parsed.value) {
    await convertWorkflowTemplate(parsed.context, parsed.value, undefined, { errorPolicy: ErrorPolicy.TryConversion });
  }
  const messages = parsed.context.errors.getErrors().map((e) => e.message);
  if (messages.length === 0) messages.push(...unpinnedActions(text));
  return [...new Set(messages)].map((m) => (m.startsWith(name) ? m : `${name}: ${m}`));
}

/**
 * A step's uses names an action with its ref (owner/repo@v4), a local action (./path) or an image (docker://...):
 * GitHub refuses "owner/repo" alone only when the job starts, which the parser does not check.
 */
function unpinnedActions(text: string): string[] {
  const workflow = YAML.parse(text) as { jobs?: Record<string, { uses?: unknown; steps?: Array<{ uses?: unknown }> }> };
  const problems: string[] = [];
  for (const [id, job] of Object.entries(workflow?.jobs ?? {})) {
    const uses = [job?.uses, ...(Array.isArray(job?.steps) ? job.steps.map((s) => s?.uses) : [])];
    for (const u of uses) {
      if (typeof u !== 'string' || u.startsWith('./') || u.startsWith('docker://') || /^[^@\s]+@[^@\s]+$/.test(u)) continue;
      problems.push(`job '${id}': uses '${u}' names no ref (owner/repo@ref)`);
    }
  }
  return problems;
}

const GITLAB_CI_LOCAL = createRequire(import.meta.url).resolve('gitlab-ci-local');

/** What gitlab-ci-local says about its own circumstances (no git repository here, timings): never a problem. */
const GITLAB_NOISE = [
  /^Using fallback git /,
  /^Command failed with exit code \d+: git /,
  /^fatal: not a git repository/,
  /^Unable to retrieve default remote branch/,
  /^parsing and downloads finished in /,
  /^json schema validated in /,
  /^Invalid \.gitlab-ci\.yml configuration!$/,
  /^at .*\((file|node):/, // the stack of an error it threw: its message, on the line before, says it
];

/** A YAML syntax error in the file: said once, by the yaml package, instead of as gitlab-ci-local's stack trace. */
function yamlProblems(text: string, name: string): string[] {
  return YAML.parseAllDocuments(text).flatMap((doc) =>
    'errors' in doc ? doc.errors.map((e) => `${name}: ${e.message.split('\n')[0].replace(/:$/, '')}`) : [],
  );
}

async function lintGitlab(text: string, name: string): Promise<string[]> {
  const syntax = yamlProblems(text, name);
  if (syntax.length) return syntax;
  const dir = await mkdtemp(path.join(tmpdir(), 'ci-lint-'));
  try {
    await writeFile(path.join(dir, '.gitlab-ci.yml'), text);
    const { code, output } = await run(
      process.execPath,
      [GITLAB_CI_LOCAL, '--list-json', '--no-color', '--home', path.join(dir, 'home')],
      // A bare environment: none of the caller's CI variables or GCL_* options reach the linter.
      { cwd: dir, env: { PATH: process.env.PATH ?? '', HOME: dir, NO_COLOR: '1' } },
    );
    const problems: string[] = [];
    for (const raw of output.replace(/\x1b\[[0-9;]*m/g, '').split('\n')) {
      const line = raw.trim();
      if (line.startsWith('For further troubleshooting')) break; // gitlab-ci-local's own hints end its report
      if (!line || GITLAB_NOISE.some((re) => re.test(line))) continue;
      problems.push(`${name}: ${line.replace(/^•\s*/, '')}`);
    }
    if (code !== 0 && problems.length === 0) problems.push(`${name}: gitlab-ci-local refused the file (exit ${code})`);
    return problems;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Runs a command to its end; output is what it wrote to stderr (its messages; stdout holds only the job list). */
function run(
  command: string,
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv },
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { ...options, stdio: ['ignore', 'ignore', 'pipe'] });
    let output = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}
