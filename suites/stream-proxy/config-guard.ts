/**
 * Before a test changes the configuration documents: each is journalled as it is (against a live target, on disk
 * first), and saved back when the test ends, over revisions the harness wrote only.
 */
import type { WriteJournal } from '../../harness/writes.ts';
import { DOCS, SAVE, type Doc, type Proxy, type Snapshot } from './proxy.ts';
import { contentHash, restoreConfig, type ConfigUndo } from './restore.ts';

/** How a test records what it sends and what its saves made, for the restore. */
export interface Guard {
  /** Before a save is sent: the body, by its hash. */
  sending(doc: Doc, body: unknown): void;
  /** After a save: the revision it made. */
  wrote(doc: Doc, revision: string): void;
}

/** Journals every document as `before` shows it; returns how to record each body sent and each revision a save made. */
export function guard(proxy: Proxy, writes: WriteJournal, before: Snapshot): Guard {
  const undos = new Map<Doc, { undo: ConfigUndo; update: (more: Record<string, unknown>) => void }>();
  for (const doc of DOCS) {
    const undo: ConfigUndo = { kind: 'config', doc, original: before.content[doc], originalRevision: before.revision[doc] ?? '', written: [], sent: [] };
    const update = writes.intend(SAVE[doc].operation, `save ${doc} back as it was`, undo, async () => {
      const outcome = await restoreConfig(undo, (r) => proxy.admin(r), proxy.settings);
      if (typeof outcome === 'object') throw new Error(outcome.conflict);
      return outcome === 'restored' ? 'undone' : 'nothing';
    });
    undos.set(doc, { undo, update });
  }
  return {
    sending: (doc, body) => {
      const u = undos.get(doc)!;
      const hash = contentHash(body);
      u.undo.sent.push(hash);
      u.update({ sent: [hash] });
    },
    wrote: (doc, revision) => {
      const u = undos.get(doc)!;
      u.undo.written.push(revision);
      u.update({ written: [revision] });
    },
  };
}

