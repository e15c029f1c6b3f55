import type { Static } from '@sinclair/typebox';
import { builtOnce } from '../interfaces/kit/lazy.ts';
import { typeBox } from '../interfaces/kit/typebox.ts';
import type { AnswerKind } from './answers.ts';
import { recordDone, recordIntent, recordUpdate } from './journal.ts';
import { choice } from './validation/choice.ts';

/**
 * A request of the run to an operation the spec marks x-write, as summary.json lists it ($defs/write of
 * schemas/summary.schema.json, published from this schema by `npm run generate`). Built on first use: TypeBox loads
 * only in a process that publishes or checks a schema, never in a test worker that merely journals writes.
 */
export const writeRecordSchema = builtOnce(() => {
  const Type = typeBox();
  return Type.Object(
    {
      interfaceName: Type.String(),
      operation: Type.String(),
      what: Type.String(),
      request: Type.Optional(Type.String({ description: 'The label of the request that wrote (which check sent it, and why).' })),
      acceptedWhileForbidden: Type.Optional(
        Type.Literal(true, {
          description:
            'Sent while the profile forbids writes: only requests the document says must be refused are sent then, so this is a target that accepted one of them. Always shown, flagged, in the report.',
        }),
      ),
      outcome: Type.Optional(
        choice(['refused', 'other'], {
          description:
            "Not accepted by the API: refused (a 4xx: it took nothing), or other: neither accepted nor refused (a 5xx, a 429, a redirect, a page that is not the API, or no answer at all: a reset, a time-out, a body that never ended), so whether it changed the target's state is unknown. Absent: accepted, so it changed the target's state.",
        }),
      ),
      undo: Type.Optional(Type.String()),
      undone: Type.Optional(Type.Boolean()),
      undoError: Type.Optional(Type.String()),
    },
    {
      additionalProperties: false,
      description:
        "A request of the run to an operation the spec marks x-write, answered or not: accepted (a 2xx: it changed the target's state), refused, or of unknown effect (outcome). One sent to be refused is listed too: a deployment that wrongly accepted it would have taken it as a write.",
    },
  );
});

export type WriteRecord = Static<ReturnType<typeof writeRecordSchema>>;

/**
 * The journal of a test's writes. The client records every 2xx to a write operation, whatever check sent it; a check
 * asks `allowed` before it sends a request a conforming target would accept as a write, and may give an undo step.
 * Undo steps run in reverse order when the test ends, whatever its outcome.
 */
export class WriteJournal {
  readonly records: WriteRecord[] = [];
  private readonly undos: Array<{ record?: WriteRecord; describe: string; run: () => Promise<void>; operation?: string }> = [];

  /**
   * `file`: against a live target, the journal on disk (harness/journal.ts) where `intend` records a write before it
   * is sent, so that `npm run restore` can undo what an interrupted run left behind.
   */
  constructor(
    readonly allowed: boolean,
    private readonly interfaceName: string,
    private readonly file?: { path: string; run: string; baseUrl: string; redact: (text: string) => string },
  ) {}

  /**
   * Announces a write before it is sent: `undo` is the data the interface's restore needs (recorded on disk against a
   * live target), `run` puts it back when the test ends. Call it before sending; if the write then fails, `run` finds
   * nothing to undo and says so. Returns how to add to the recorded undo data what the write revealed once sent (the
   * revision it made): arrays given are appended to the recorded ones, other members replace theirs.
   */
  intend(operation: string, describe: string, undo: unknown, run: () => Promise<'undone' | 'nothing'>): (more: Record<string, unknown>) => void {
    const journalId = this.file
      ? recordIntent(this.file.path, { run: this.file.run, interfaceName: this.interfaceName, baseUrl: this.file.baseUrl, operation, what: describe, undo: JSON.parse(this.file.redact(JSON.stringify(undo))) })
      : undefined;
    const file = this.file;
    this.undos.push({
      describe,
      operation,
      run: async () => {
        const outcome = await run();
        if (file && journalId) recordDone(file.path, journalId, outcome);
      },
    });
    return (more) => {
      if (file && journalId) recordUpdate(file.path, journalId, JSON.parse(file.redact(JSON.stringify(more))) as Record<string, unknown>);
    };
  }

  /** The client sent a request of a write operation and saw its answer (or none: 'no-answer'). */
  sent(operation: string, what: string, request?: string, kind: AnswerKind | 'no-answer' = 'accepted'): WriteRecord {
    const accepted = kind === 'accepted';
    const record: WriteRecord = {
      interfaceName: this.interfaceName,
      operation,
      what,
      request,
      ...(accepted ? (this.allowed ? {} : { acceptedWhileForbidden: true }) : { outcome: kind === 'refused' ? 'refused' : 'other' }),
    };
    this.records.push(record);
    return record;
  }

  /** How to put back what the last write of `operation` changed; runs when the test ends. */
  undo(operation: string, describe: string, run: () => Promise<void>): void {
    const record = [...this.records].reverse().find((r) => r.operation === operation && !r.outcome);
    if (record) record.undo = describe;
    this.undos.push({ record, describe, run });
  }

  async undoAll(): Promise<void> {
    // A write announced with `intend` is matched to the client's record of it when the test ends (the record came
    // after the intent): the latest write of that operation not yet claimed by another undo.
    for (const u of this.undos) {
      if (u.record || !u.operation) continue;
      u.record = [...this.records].reverse().find((r) => r.operation === u.operation && !r.outcome && r.undo === undefined);
      if (u.record) u.record.undo = u.describe;
    }
    for (const { record, run } of this.undos.reverse()) {
      try {
        await run();
        if (record) record.undone = true;
      } catch (e) {
        if (record) {
          record.undone = false;
          record.undoError = (e as Error).message;
        }
      }
    }
    this.undos.length = 0;
  }
}
