/**
 * A test's own steps outside its `verify` calls (the orders its checks judge, the server's clock, an earn product to
 * subscribe, a lease) meet the environment's trouble as much as its checks do: a throttle or a server error thrown by
 * harness/answers.ts (Undecided), a request that got no answer, a target the client has given up on. That is no
 * verdict, and no defect of the harness either: what the test claims and has not judged yet is left inconclusive,
 * naming the trouble, where the test would otherwise break (exit 2 as "a check broke"). A step that says the condition
 * cannot arise on this target (NotTested) leaves them not tested. Anything else (a harness error) still breaks it.
 */
import type { TestInfo } from '@playwright/test';
import { TargetError } from '../../harness/http/client.ts';
import type { Recorder } from '../../harness/recorder.ts';
import { Inconclusive, NotTested, idsOfTags } from '../../harness/verdicts.ts';

export async function guarded(recorder: Recorder, testInfo: TestInfo, body: () => Promise<void>): Promise<void> {
  try {
    await body();
  } catch (e) {
    const status = e instanceof NotTested ? 'not-tested' : e instanceof Inconclusive || e instanceof TargetError ? 'inconclusive' : undefined;
    if (!status) throw e;
    const why = e instanceof TargetError && e.kind === 'given-up' ? `outage: ${e.message}` : (e as Error).message;
    for (const id of idsOfTags(testInfo.tags)) if (!recorder.judged(id)) recorder.record(id, status, why);
  }
}
