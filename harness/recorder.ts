/**
 * The verdict recorder: one test's verdicts, evidence, notes, readings and planned waits, handed to the reporter as
 * annotations and attachments. Evidence is redacted when it is recorded.
 */
import type { TestInfo } from '@playwright/test';
import { redactExchange, type Exchange } from './http/exchange.ts';
import type { Secrets } from './secrets.ts';
import type { LoadedSpec } from './spec/types.ts';
import { ANNOTATION, type Evidence, type SeenReading, type Verdict } from './verdicts.ts';

/** Evidence keeps the exchanges around a failure, not a whole schedule's worth. */
const EVIDENCE_EXCHANGES = 40;

/** Collects one test's verdicts and evidence, and hands them to the reporter as annotations and attachments. */
export class Recorder {
  readonly exchanges: Exchange[] = [];
  readonly verdicts: Verdict[] = [];
  readonly evidence: Array<{ name: string; evidence: Evidence }> = [];
  readonly notes: string[] = [];
  readonly cases: Array<{ property: string; runs: number }> = [];
  readonly readings: SeenReading[] = [];
  plannedWaitMs = 0;
  /** Why a check of this test could not decide (an outage, say): what the test then did not see is inconclusive, not untested. */
  trouble?: string;

  constructor(
    private readonly spec: LoadedSpec,
    private readonly tags: string[],
    private readonly secrets: Secrets,
  ) {}

  claims(id: string): boolean {
    return this.tags.includes(`@${id}`);
  }

  assertClaimed(id: string): void {
    if (!this.spec.requirements.some((r) => r.id === id)) throw new Error(`harness: ${id} is not a requirement of specs/${this.spec.name}.yaml`);
    if (!this.claims(id)) throw new Error(`harness: the test records a verdict for ${id} but is not tagged @${id}`);
  }

  /** Records a reading of an open point once per test; an unknown point or reading is the harness's own mistake. */
  sawReading(point: string, reading: string | undefined, detail?: string): void {
    const p = this.spec.notShown.find((n) => n.id === point);
    if (!p) throw new Error(`harness: ${point} is not an open point of specs/${this.spec.name}.yaml`);
    if (reading !== undefined && !p.readings?.some((r) => r.id === reading)) throw new Error(`harness: ${point} has no reading ${reading} in specs/${this.spec.name}.yaml`);
    if (reading === undefined && !detail) throw new Error(`harness: a reading of ${point} outside the spec's list says what the target did`);
    if (this.readings.some((r) => r.point === point && r.reading === reading && r.detail === detail)) return;
    this.readings.push(reading === undefined ? { point, detail } : detail ? { point, reading, detail } : { point, reading });
  }

  /** Whether a requirement already has a verdict from this test. */
  judged(id: string): boolean {
    return this.verdicts.some((v) => v.id === id);
  }

  /**
   * `hidesOthers: false`: an inconclusive that is about this requirement alone (its control was refused), not trouble
   * that may have hidden the conditions of the test's other requirements.
   */
  record(id: string, status: Verdict['status'], message?: string, o: { hidesOthers?: boolean } = {}): void {
    if (status === 'inconclusive' && o.hidesOthers !== false) this.trouble ??= message;
    // A condition not seen after the test ran into trouble may have been hidden by it.
    if (status === 'not-tested' && this.trouble) {
      status = 'inconclusive';
      message = `${message ?? 'not seen'}; this test could not decide another check (${troubleHeadline(this.trouble)})`;
    }
    this.verdicts.push(message === undefined ? { id, status } : { id, status, message });
  }

  /**
   * Fails `ids` with one piece of evidence: the first is the requirement the request was testing, the others are what
   * the same exchange breaks too. The report shows the evidence once, as the cause, and lists the requirements it touches.
   */
  fail(ids: string[], message: string, exchanges: Exchange[], extra: Partial<Evidence> & { knockOnOf?: string[] } = {}): void {
    const name = `evidence ${ids[0]} #${this.evidence.length + 1}`;
    const { knockOnOf, ...rest } = extra;
    // Exchanges are captured raw; evidence is where they are redacted, before anything can write them.
    const shown = exchanges.slice(-EVIDENCE_EXCHANGES).map((ex) => redactExchange(ex, this.secrets));
    this.evidence.push({ name, evidence: { requirement: ids[0], message: this.secrets.redact(message), exchanges: shown, touches: ids, ...rest } });
    for (const id of ids) this.verdicts.push({ id, status: 'failed', message, evidence: name, ...(knockOnOf?.length ? { knockOnOf } : {}) });
  }
}

/** Annotations end up in every report: their messages are redacted like the evidence. */
export function publish(recorder: Recorder, secrets: Secrets, testInfo: TestInfo): void {
  for (const v of recorder.verdicts) testInfo.annotations.push({ type: ANNOTATION.verdict, description: secrets.redact(JSON.stringify(v)) });
  for (const n of recorder.notes) testInfo.annotations.push({ type: ANNOTATION.note, description: secrets.redact(n) });
  for (const c of recorder.cases) testInfo.annotations.push({ type: ANNOTATION.cases, description: JSON.stringify(c) });
  for (const r of recorder.readings) testInfo.annotations.push({ type: ANNOTATION.reading, description: secrets.redact(JSON.stringify(r)) });
  // The operations the test's requests reached and the statuses they got (0: no answer), for the coverage table.
  const operations: Record<string, number[]> = {};
  for (const ex of recorder.exchanges) {
    if (!ex.operation) continue;
    const statuses = (operations[ex.operation] ??= []);
    const status = ex.response?.status ?? 0;
    if (!statuses.includes(status)) statuses.push(status);
  }
  if (Object.keys(operations).length) testInfo.annotations.push({ type: ANNOTATION.operations, description: JSON.stringify(operations) });
  if (recorder.plannedWaitMs > 0) testInfo.annotations.push({ type: ANNOTATION.plannedWait, description: String(Math.round(recorder.plannedWaitMs)) });
}

/**
 * The trouble's first line, for a one-line mention: where that line only announces a list ("… left 3 undecided:"),
 * the list's first entry too, so the mention says what the trouble was (an outage, a throttle), not only how many.
 */
export function troubleHeadline(trouble: string): string {
  const [first, second] = trouble.split('\n');
  return first.endsWith(':') && second ? `${first} ${second}` : first;
}
