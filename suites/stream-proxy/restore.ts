/**
 * Putting back what the suite changed on a deployment: a configuration document saved back as it was (only over a
 * revision the harness wrote itself: anything else is somebody's work, reported as a conflict), a user it created
 * deleted. Used when a test ends and by `npm run restore` for what an interrupted run left in the journal.
 */
import { createHash } from 'node:crypto';
import type { Reply, RequestSpec } from '../../harness/http/client.ts';
import type { RestoreContext } from '../../harness/interface.ts';
import type { WriteJournal } from '../../harness/writes.ts';
import { SAVE, revisionOf, type Doc } from './documents.ts';
import { getAt } from '../../harness/json-pointer.ts';
import { answerKind, answered, describeAnswer } from '../../harness/answers.ts';
import type { StreamProxySettings } from '../../interfaces/stream-proxy/settings.ts';

export interface ConfigUndo {
  kind: 'config';
  doc: Doc;
  original: unknown;
  originalRevision: string;
  /** Every revision the harness's own saves produced. */
  written: string[];
  /**
   * The SHA-256 of every document body the harness sent, recorded before sending: a run killed between a save and
   * the journal line of its revision still left a document the harness can recognise as its own.
   */
  sent: string[];
}

/** The hash a document's content is recognised by (its canonical JSON: members in sorted order). */
export function contentHash(value: unknown): string {
  const canonical = (v: unknown): unknown =>
    Array.isArray(v) ? v.map(canonical) : v && typeof v === 'object' ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, canonical((v as Record<string, unknown>)[k])])) : v;
  // A body that is no JSON at all (bad input of the generic checks, journalled before it is sent) has one too.
  return createHash('sha256').update(JSON.stringify(canonical(value)) ?? 'undefined').digest('hex');
}

export interface UserUndo {
  kind: 'user';
  username: string;
  targets: string[];
}

/** The user's bouquet as it was, and the hashes of the bouquets the harness saved over it. */
export interface BouquetUndo {
  kind: 'bouquet';
  original: unknown;
  sent: string[];
}

export type StreamUndo = ConfigUndo | UserUndo | BouquetUndo;

type Send = (r: RequestSpec) => Promise<Reply>;

/**
 * The API's answer to a request of a restore, accepted or refused. Anything else (a throttle, a server error, a page
 * that is not the API) says nothing of what the target holds: neither "restored" nor "nothing to restore". The restore
 * fails, saying what could not be put back; the journal keeps the write, for `npm run restore` to undo later.
 */
function restoreAnswer(r: Reply, what: string, undone: string): 'accepted' | 'refused' {
  const kind = answerKind(r);
  if (kind === 'accepted' || kind === 'refused') return kind;
  throw new Error(`${undone} could not be put back now: ${what} was answered ${describeAnswer(r)}; the write stays in the journal (npm run restore undoes it later)`);
}

async function current(send: Send, doc: Doc, inConfig: string): Promise<{ revision?: string; content: unknown }> {
  const what = `GET ${doc === 'apiProxy' ? '/api/v1/config/apiproxy' : '/api/v1/config'}`;
  const r = await send({ method: 'GET', path: doc === 'apiProxy' ? '/api/v1/config/apiproxy' : '/api/v1/config', authenticate: true, label: `restore: the ${doc} document now` });
  if (restoreAnswer(r, what, `the ${doc} document`) === 'refused') throw new Error(`the ${doc} document could not be put back: ${what} was refused (${r.status}); the write stays in the journal`);
  return { revision: revisionOf(r, doc), content: doc === 'apiProxy' ? r.json : getAt(r.json, inConfig) };
}

export async function restoreConfig(undo: ConfigUndo, send: Send, settings: StreamProxySettings): Promise<'restored' | 'nothing' | { conflict: string }> {
  const { revision: now, content } = await current(send, undo.doc, settings.documents[undo.doc].inConfig);
  if (now === undo.originalRevision) return 'nothing';
  // The harness's own writing: a revision it was told, or content it sent (nobody else's change can be lost then).
  const ours = (now !== undefined && undo.written.includes(now)) || undo.sent.includes(contentHash(content));
  if (now === undefined || !ours) {
    return { conflict: `the ${undo.doc} document is at revision ${now ?? '(none)'}, which the harness did not write: somebody changed it since; it is left as it is` };
  }
  const s = SAVE[undo.doc];
  const r = await send({ method: s.method, path: s.path, json: withTargetSecrets(undo.original, content, undo.doc), headers: { 'If-Match': now }, authenticate: true, label: `restore: save ${undo.doc} back as it was` });
  if (restoreAnswer(r, `saving ${undo.doc} back (${s.method} ${s.path})`, `the ${undo.doc} document`) === 'accepted') return 'restored';
  // "409 changed on server": somebody saved it between the read and the save; it is theirs now.
  if (answered(r, 409)) return { conflict: `the ${undo.doc} document changed while it was being restored (409)` };
  throw new Error(`saving ${undo.doc} back was refused (${r.status}) ${r.text.slice(0, 200)}; the write stays in the journal`);
}

/**
 * The journal keeps the target's own secrets redacted (a provider's password: `{{secret:target_password}}`); the
 * document the harness wrote still holds each at the same place, since the harness changes one scratch member. A
 * secret that is gone from there too cannot be put back by the harness: it says so, and restore fails.
 */
export function withTargetSecrets(original: unknown, current: unknown, doc: string, at = ''): unknown {
  if (typeof original === 'string' && /^\{\{secret:target_[A-Za-z0-9_]+\}\}$/.test(original)) {
    if (typeof current === 'string' && !current.startsWith('{{secret:')) return current;
    throw new Error(`the journal keeps ${at || 'a member'} of the ${doc} document redacted (a secret of the deployment), and the document no longer holds it: put it back by hand`);
  }
  const child = (k: string | number) => (current && typeof current === 'object' ? (current as Record<string, unknown>)[k] : undefined);
  if (Array.isArray(original)) return original.map((v, i) => withTargetSecrets(v, child(i), doc, `${at}/${i}`));
  if (original && typeof original === 'object') return Object.fromEntries(Object.entries(original).map(([k, v]) => [k, withTargetSecrets(v, child(k), doc, `${at}/${k}`)]));
  return original;
}

/**
 * Saves the user's bouquet back, only over a bouquet the harness saved (its content hash): anybody else's change since
 * is left as it is and reported. `send` carries the user token.
 */
export async function restoreBouquet(undo: BouquetUndo, send: Send): Promise<'restored' | 'nothing' | { conflict: string }> {
  const now = await send({ method: 'GET', path: '/api/v1/user/playlist/bouquet', label: 'restore: the bouquet now' });
  if (restoreAnswer(now, 'GET /api/v1/user/playlist/bouquet', 'the bouquet') === 'refused') throw new Error(`the bouquet could not be put back: it could not be read (refused ${now.status}); the write stays in the journal`);
  if (contentHash(now.json) === contentHash(undo.original)) return 'nothing';
  if (!undo.sent.includes(contentHash(now.json))) return { conflict: 'the bouquet is not the one the harness saved: somebody changed it since; it is left as it is' };
  await saveBouquetBack(undo.original, send);
  return 'restored';
}

/** Saves the bouquet as it was (`send` carries the user token); anything but an acceptance fails, saying so. */
export async function saveBouquetBack(original: unknown, send: Send): Promise<void> {
  const r = await send({ method: 'POST', path: '/api/v1/user/playlist/bouquet', json: original, label: 'restore: save the bouquet back as it was' });
  if (restoreAnswer(r, 'saving the bouquet back (POST /api/v1/user/playlist/bouquet)', 'the bouquet') === 'refused') {
    throw new Error(`saving the bouquet back was refused (${r.status}) ${r.text.slice(0, 200)}; the write stays in the journal`);
  }
}

/**
 * Deletes the user from every target it may be in. Only an acceptance (deleted) or the document's own "400 not found in
 * that target" says what a target holds; another refusal, a throttle or a server error leaves the user perhaps there:
 * the restore fails, naming the targets, and the journal keeps it.
 */
export async function restoreUser(undo: UserUndo, send: Send): Promise<'restored' | 'nothing'> {
  let deleted = false;
  const unknown: string[] = [];
  for (const t of undo.targets) {
    try {
      const r = await send({ method: 'DELETE', path: `/api/v1/user/${encodeURIComponent(t)}/${encodeURIComponent(undo.username)}`, authenticate: true, label: `restore: delete user ${undo.username} from ${t}` });
      const kind = answerKind(r);
      if (kind === 'accepted') deleted = true;
      else if (kind === 'refused' && answered(r, 400)) continue;
      else unknown.push(`${t} (answered ${describeAnswer(r)})`);
    } catch (e) {
      // No answer at all: the other targets are still tried, so that what can be deleted now is.
      unknown.push(`${t} (${(e as Error).message})`);
    }
  }
  if (unknown.length) throw new Error(`user ${undo.username} may still be in ${unknown.join('; ')}: the write stays in the journal (npm run restore deletes it later)`);
  return deleted ? 'restored' : 'nothing';
}

/**
 * Before a user may come to exist: journalled (once per username, in `guarded`), and deleted from every target when
 * the test ends. `admin` sends with the admin token.
 */
export function guardUser(writes: WriteJournal, admin: Send, targets: string[], guarded: Set<string>, username: string): void {
  if (guarded.has(username)) return;
  guarded.add(username);
  const undo: UserUndo = { kind: 'user', username, targets };
  writes.intend('POST /api/v1/user/{target}', `delete user ${username}`, undo, async () => ((await restoreUser(undo, admin)) === 'restored' ? 'undone' : 'nothing'));
}

/** The suite's restore, for `npm run restore`. */
export async function restoreWrite(undo: StreamUndo, ctx: RestoreContext): Promise<'restored' | 'nothing' | { conflict: string }> {
  const send: Send = (r) => ctx.client.send(r);
  if (undo.kind === 'config') return restoreConfig(undo, send, ctx.settings as StreamProxySettings);
  if (undo.kind === 'bouquet') return restoreBouquet(undo, (r) => send({ ...r, authenticate: true, credential: 'user' }));
  return restoreUser(undo, send);
}

/** Whether a document holds the content it had (its scratch member, the only one the harness sets). */
export function sameScratch(a: unknown, b: unknown, settings: StreamProxySettings, doc: Doc): boolean {
  return JSON.stringify(getAt(a, settings.documents[doc].scratch)) === JSON.stringify(getAt(b, settings.documents[doc].scratch));
}
