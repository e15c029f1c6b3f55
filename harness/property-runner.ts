/**
 * The property runner behind the \`property\` fixture: runs a fast-check property until every requirement it claims has
 * a verdict, with a shrunk counterexample, its seed and the command that replays it for each failure.
 */
import type { TestInfo } from '@playwright/test';
import type fc from 'fast-check';
import { classify, evidenceOf, messageOf } from './classify.ts';
import { TargetError, type Client } from './http/client.ts';
import { replayFor, replayToken } from './options.ts';
import { progressed } from './progress.ts';
import { runProperty, runsAtDepth } from './property.ts';
import type { Recorder } from './recorder.ts';
import { replayCommand } from './replay-command.ts';
import type { Secrets } from './secrets.ts';
import { RequirementViolation, type PropertyFailureInfo } from './verdicts.ts';
import { Undecided } from './answers.ts';

export interface PropertySpec<T> {
  /** Unique within the suite; it seeds the property and names it in replay commands. */
  id: string;
  /** The requirements this property judges; a failing case names which one it breaks (RequirementViolation). */
  requirements: string[];
  arbitrary: fc.Arbitrary<T>;
  /**
   * Checks one case; requirements in `skip` have already failed and are not judged again. `saw(id)` says the case
   * reached the condition of a requirement and the target met it: a requirement nobody saw is not tested, not passed.
   */
  check: (value: T, skip: ReadonlySet<string>, saw: Saw) => Promise<void>;
  /**
   * The requirements a case was testing, as the model names them: a case whose request got no answer (a reset, a
   * closed connection) while the target answers everything else is evidence against these, and only these.
   */
  testing: (value: T) => string[];
  /** Number of cases at the default depth. */
  runs: number;
}

/**
 * Says a case reached a requirement's condition. With `unsettled`, it reached it but could not decide it (a refusal
 * whose control the target refused too): a requirement only ever unsettled ends inconclusive, with that reason,
 * rather than passed or "not reached".
 */
export type Saw = (id: string, unsettled?: string) => void;

/** A counterexample as text: its own description where it has one (a command sequence), else its JSON. */
function shown(value: unknown): string {
  // Objects that describe themselves (command sequences) say what they are; data (arrays, and fast-check's records,
  // which have no prototype and so no toString to call) is shown as JSON.
  if (value && typeof value === 'object' && !Array.isArray(value) && typeof value.toString === 'function' && value.toString !== Object.prototype.toString) return String(value);
  return JSON.stringify(value) ?? String(value);
}


export interface PropertyContext {
  recorder: Recorder;
  secrets: Secrets;
  interfaceName: string;
  api: Client;
  testInfo: TestInfo;
}

/**
 * Runs a property until every requirement it claims has a verdict: after a counterexample, the requirements it breaks
 * are set aside and the property runs again, so each failed requirement gets its own shrunk counterexample and a
 * second deviation is not hidden behind the first. A request that got no answer blames the requirements its case was
 * testing, as long as the target answers others; an outage or a harness error leaves the rest inconclusive.
 */
export async function runRecordedProperty<T>(p: PropertySpec<T>, ctx: PropertyContext): Promise<void> {
  const { recorder, secrets, api, testInfo } = ctx;
  p.requirements.forEach((id) => recorder.assertClaimed(id));
  const replay = replayFor(p.id);
  const skip = new Set<string>(replay?.skip ?? []);
  const seen = new Set<string>();
  const unsettled = new Map<string, string>();
  /** Requirements a case met only with an answer that decides nothing (the environment's trouble), and why. */
  const troubled = new Map<string, string>();
  const saw: Saw = (id, why) => void (why === undefined ? seen.add(id) : unsettled.has(id) || unsettled.set(id, why));
  let outage: string | undefined;
  let inconclusive: string | undefined;
  let untested: string | undefined;
  let cases = 0;
  // For the console's heartbeat: the cases of this property so far, of those its depth plans (a rerun after a failure adds).
  let tried = 0;
  const planned = runsAtDepth(p.runs);
  for (;;) {
    const run = await runProperty(
      p.id,
      p.arbitrary,
      async (v) => {
        await progressed(`${p.id}: case ${++tried} of about ${planned}${skip.size ? ` (after a failure, again without ${[...skip].join(', ')})` : ''}`);
        try {
          await p.check(v, skip, saw);
        } catch (e) {
          // Once the target is given up, nothing a case shows is about the case: no counterexample, no shrinking on it.
          if (e instanceof TargetError && e.kind === 'given-up') {
            outage ??= `outage: ${messageOf(e)}`;
            return;
          }
          // An answer that decides nothing (a throttle, a server error, a page that is not the API) leaves this case's
          // requirements unsettled and the property goes on: no counterexample to shrink (each step would meet the
          // same trouble), and a requirement only ever met so ends inconclusive, naming it.
          if (e instanceof Undecided) {
            for (const id of p.testing(v)) if (!troubled.has(id)) troubled.set(id, messageOf(e));
            return;
          }
          // No answer to a case whose requirements have all failed already: set aside, like an answer judged for them.
          if (e instanceof TargetError && p.testing(v).every((id) => skip.has(id))) return;
          // A deviation of requirements already set aside ends the case without a verdict: what follows it in the case
          // (an order without an id to look up, a book the model no longer predicts) cannot be judged.
          if (e instanceof RequirementViolation && e.requirements.every((id) => skip.has(id))) return;
          throw e;
        }
      },
      p.runs,
      replay?.path,
    );
    cases += run.numRuns;
    if (outage || !run.failed) break;
    const err = run.error;
    const c = await classify(err, api);
    // A case that says it cannot be judged (what it needs, the profile does not state) ends the property untested:
    // not the environment's trouble, and never the target's.
    if (c.kind === 'not-tested') {
      untested = c.message;
      break;
    }
    if (c.kind === 'inconclusive') {
      if (c.message.startsWith('outage')) outage = c.message;
      else inconclusive = c.message;
      break;
    }
    let broken: string[];
    if (c.kind === 'no-answer') broken = run.counterexample === undefined ? [] : p.testing(run.counterexample);
    else broken = err instanceof RequirementViolation ? err.requirements : [];
    broken = broken.filter((id) => p.requirements.includes(id) && !skip.has(id));
    if (broken.length === 0) {
      inconclusive = `the property failed without naming a requirement it judges: ${c.message}`;
      break;
    }
    const start = recorder.exchanges.length;
    let reproduced = false;
    if (run.counterexample !== undefined) {
      try {
        await p.check(run.counterexample, skip, () => {});
      } catch (again) {
        reproduced = again instanceof TargetError ? c.kind === 'no-answer' : again instanceof RequirementViolation && again.requirement === broken[0];
      }
    }
    const info: PropertyFailureInfo = {
      property: p.id,
      seed: run.seed,
      path: run.path ?? '',
      numRuns: run.numRuns,
      numShrinks: run.numShrinks,
      counterexample: secrets.redact(shown(run.counterexample)),
      replay: replayCommand({ interfaceName: ctx.interfaceName, testTitle: testInfo.title, replay: replayToken(p.id, run.path ?? '', skip) }),
      reproduced,
    };
    const v = err instanceof RequirementViolation ? err : undefined;
    const exchanges = evidenceOf(err, recorder.exchanges.slice(start));
    const message = `${c.message}\ncounterexample: ${info.counterexample}\nseed ${info.seed}, path ${info.path}${info.reproduced ? '' : ' (did not fail again when re-run: timing-sensitive?)'}\nreplay: ${info.replay}`;
    recorder.fail(broken, message, exchanges, { expected: v?.expected, property: info, knockOnOf: v?.knockOnOf });
    broken.forEach((id) => skip.add(id));
    if (replay) break;
  }
  recorder.cases.push({ property: p.id, runs: cases });
  for (const id of p.requirements) {
    if (recorder.judged(id) || (replay && skip.has(id))) continue;
    if (outage) recorder.record(id, 'inconclusive', outage);
    else if (inconclusive) recorder.record(id, 'inconclusive', inconclusive);
    else if (seen.has(id)) recorder.record(id, 'passed');
    else if (unsettled.has(id)) recorder.record(id, 'inconclusive', unsettled.get(id), { hidesOthers: false });
    else if (troubled.has(id)) recorder.record(id, 'inconclusive', troubled.get(id));
    else if (untested) recorder.record(id, 'not-tested', untested);
    else recorder.record(id, 'not-tested', `none of the ${cases} generated cases reached the condition this requirement is about`);
  }
}
