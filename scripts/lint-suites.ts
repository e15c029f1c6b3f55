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
  Fails (exit 1) on a status compared inline, or an acceptance negated, in suites/: answers are read through
  harness/answers.ts (accepted, refused, answered, mustAccept, mustAnswer, needAccepted, readState, mustBeRefused).`);

const dir = path.join(ROOT, 'suites');
const files = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
const found = files.flatMap((f) => inlineStatusTests(path.join(dir, f)));
const WHY = {
  'status-compared': 'a status compared inline: a throttle or a server error reads as "another status"; use answered(), mustAnswer(), mustAccept() or readState() of harness/answers.ts',
  'negated-acceptance': 'an acceptance negated: a throttle or a server error reads as a refusal; use accepted() or refused() of harness/answers.ts, which throw for them',
} as const;
for (const t of found) console.error(`${path.relative(ROOT, t.file)}:${t.line}: ${t.text}: ${WHY[t.rule]}`);
const count = (rule: keyof typeof WHY) => found.filter((t) => t.rule === rule).length;
console.log(found.length ? `suites: ${count('status-compared')} statuses compared inline, ${count('negated-acceptance')} acceptances negated` : `suites: no status compared inline and no acceptance negated in the ${files.length} files of suites/ (answers are read through harness/answers.ts)`);
process.exit(found.length ? 1 : 0);
