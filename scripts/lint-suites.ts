/**
 * npm run lint:suites: no suite decides inline what an answer is (harness/lint/inline-status.ts). Every check
 * classifies answers through harness/answers.ts, and judges refusals with its mustBeRefused, which takes a control.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from '../harness/paths.ts';
import { inlineStatusTests } from '../harness/lint/inline-status.ts';
import { answerHelp } from './help.ts';

answerHelp(`npm run lint:suites
  Fails (exit 1) on a status range compared inline in suites/: answers are classified by harness/answers.ts.`);

const dir = path.join(ROOT, 'suites');
const files = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
const found = files.flatMap((f) => inlineStatusTests(path.join(dir, f)));
for (const t of found) console.error(`${path.relative(ROOT, t.file)}:${t.line}: an inline status range (${t.text}): classify the answer with harness/answers.ts`);
console.log(found.length ? `suites: ${found.length} inline status tests` : `suites: no inline status test in the ${files.length} files of suites/ (answers are classified by harness/answers.ts)`);
process.exit(found.length ? 1 : 0);
