/** One request of the run that changes a target's state, and how it was undone if it can be. */
export interface WriteRecord {
  interfaceName: string;
  operation: string;
  what: string;
  undo?: string;
  undone?: boolean;
  undoError?: string;
}

/**
 * The journal of a test's writes. A check asks `allowed` before it sends a write; the profile decides.
 * Undo steps run in reverse order when the test ends, whatever its outcome.
 */
export class WriteJournal {
  readonly records: WriteRecord[] = [];
  private readonly undos: Array<{ record: WriteRecord; run: () => Promise<void> }> = [];

  constructor(readonly allowed: boolean, private readonly interfaceName: string) {}

  record(operation: string, what: string, undo?: { describe: string; run: () => Promise<void> }): void {
    const record: WriteRecord = { interfaceName: this.interfaceName, operation, what, undo: undo?.describe };
    this.records.push(record);
    if (undo) this.undos.push({ record, run: undo.run });
  }

  async undoAll(): Promise<void> {
    for (const { record, run } of this.undos.reverse()) {
      try {
        await run();
        record.undone = true;
      } catch (e) {
        record.undone = false;
        record.undoError = (e as Error).message;
      }
    }
    this.undos.length = 0;
  }
}
