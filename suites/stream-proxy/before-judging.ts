/**
 * What a test does before it can judge anything (a lease, a read of the documents, the controls a property needs) is
 * no check of its own: a throttle, a server error, a target that stopped answering or a refusal that decides nothing
 * meets it outside any `verify` or property, where it would break the test. Here it becomes the verdict of every
 * requirement the test was preparing to judge, as the harness classifies it (inconclusive or not tested), never a
 * failure: nothing of the rules was asked yet.
 */
import type { Client } from '../../harness/http/client.ts';
import type { Recorder } from '../../harness/recorder.ts';
import { classify } from '../../harness/classify.ts';

/** The step's value, or undefined once every requirement of `ids` got the verdict its error gives. */
export async function beforeJudging<T>(ids: readonly string[], o: { recorder: Recorder; api: Client; what: string }, step: () => Promise<T>): Promise<T | undefined> {
  try {
    return await step();
  } catch (e) {
    const c = await classify(e, o.api);
    // A request of the preparation that got no answer is no evidence against a rule none of its requests was testing.
    const status = c.kind === 'not-tested' ? 'not-tested' : 'inconclusive';
    for (const id of ids) if (!o.recorder.judged(id)) o.recorder.record(id, status, `${o.what}: ${c.message}`);
    return undefined;
  }
}
