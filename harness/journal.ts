/**
 * The write journal on disk: every write to a live target that the harness knows how to undo is recorded here BEFORE it
 * is sent, with the data its undo needs, and marked done once undone. A run that is interrupted or killed leaves its
 * undone writes pending, and `npm run restore -- --target <profile>` undoes them through the interface's `restore`.
 *
 * One append-only JSON-lines file per profile (reports/journal/<profile>.jsonl): lines are appended whole and synced,
 * so a kill between two writes loses nothing already recorded. Secrets of the run are replaced by their
 * {{secret:...}} tokens; restore expands them with the profile's credentials, as replays do.
 */
import { appendFileSync, closeSync, existsSync, fsyncSync, mkdirSync, openSync, readFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { ROOT } from './paths.ts';

export interface JournalIntent {
  kind: 'intent';
  id: string;
  at: string;
  run: string;
  interfaceName: string;
  baseUrl: string;
  operation: string;
  what: string;
  /** What the interface's restore needs (a document as it was, a user to delete), secrets tokenised. */
  undo: unknown;
}

export interface JournalDone {
  kind: 'done';
  id: string;
  at: string;
  /** undone: the run put it back; restored: `npm run restore` did; nothing: there was nothing to put back. */
  outcome: 'undone' | 'restored' | 'nothing';
}

/** What a write revealed once sent (the revision it made, the id it got), merged into its intent's undo data: arrays are appended to, other members replaced. */
export interface JournalUpdate {
  kind: 'update';
  id: string;
  at: string;
  undo: Record<string, unknown>;
}

export type JournalLine = JournalIntent | JournalDone | JournalUpdate;

export const JOURNAL_DIR_ENV = 'HARNESS_JOURNAL_DIR';

export function journalFile(profileName: string): string {
  // Not in a run's own report folder: `npm run restore` finds it by the profile alone.
  const dir = process.env[JOURNAL_DIR_ENV] ?? path.join(ROOT, 'reports', 'journal');
  return path.join(dir, `${profileName.replace(/[^A-Za-z0-9._-]+/g, '_')}.jsonl`);
}

function append(file: string, line: JournalLine): void {
  mkdirSync(path.dirname(file), { recursive: true });
  appendFileSync(file, `${JSON.stringify(line)}\n`);
  // The point of the journal is to outlive a kill: the line is on disk before the write it announces is sent.
  const fd = openSync(file, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

export function recordIntent(file: string, intent: Omit<JournalIntent, 'kind' | 'id' | 'at'>): string {
  const id = randomUUID();
  append(file, { kind: 'intent', id, at: new Date().toISOString(), ...intent });
  return id;
}

export function recordUpdate(file: string, id: string, undo: Record<string, unknown>): void {
  append(file, { kind: 'update', id, at: new Date().toISOString(), undo });
}

export function recordDone(file: string, id: string, outcome: JournalDone['outcome']): void {
  append(file, { kind: 'done', id, at: new Date().toISOString(), outcome });
}

/** The intents not yet undone, oldest first (a torn last line of a killed run is skipped). */
export function pendingIntents(file: string): JournalIntent[] {
  if (!existsSync(file)) return [];
  const lines = readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .flatMap((l) => {
      try {
        return [JSON.parse(l) as JournalLine];
      } catch {
        return [];
      }
    });
  const done = new Set(lines.filter((l) => l.kind === 'done').map((l) => l.id));
  const intents = lines.filter((l): l is JournalIntent => l.kind === 'intent' && !done.has(l.id)).map((i) => ({ ...i }));
  for (const u of lines) {
    if (u.kind !== 'update') continue;
    const i = intents.find((x) => x.id === u.id);
    if (!i) continue;
    // Arrays grow (one revision per line, not the whole list again); anything else is replaced.
    const merged = { ...(i.undo as Record<string, unknown>) };
    for (const [k, v] of Object.entries(u.undo)) merged[k] = Array.isArray(v) && Array.isArray(merged[k]) ? [...(merged[k] as unknown[]), ...v] : v;
    i.undo = merged;
  }
  return intents;
}
