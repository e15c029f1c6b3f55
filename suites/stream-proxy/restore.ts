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
  return createHash('sha256').update(JSON.stringify(canonical(value))).digest('hex');
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

async function current(send: Send, doc: Doc, inConfig: string): Promise<{ revision?: string; content: unknown }> {
  const r = await send({ method: 'GET', path: doc === 'apiProxy' ? '/api/v1/config/apiproxy' : '/api/v1/config', authenticate: true, label: `restore: the ${doc} document now` });
  if (r.status !== 200) throw new Error(`the configuration could not be read (${r.status})`);
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
  if (r.status === 409) return { conflict: `the ${undo.doc} document changed while it was being restored (409)` };
  if (r.status !== 200) throw new Error(`saving ${undo.doc} back was answered ${r.status} ${r.text.slice(0, 200)}`);
  return 'restored';
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
  if (now.status !== 200) throw new Error(`the bouquet could not be read (${now.status})`);
  if (contentHash(now.json) === contentHash(undo.original)) return 'nothing';
  if (!undo.sent.includes(contentHash(now.json))) return { conflict: 'the bouquet is not the one the harness saved: somebody changed it since; it is left as it is' };
  const r = await send({ method: 'POST', path: '/api/v1/user/playlist/bouquet', json: undo.original, label: 'restore: save the bouquet back as it was' });
  if (r.status !== 200) throw new Error(`saving the bouquet back was answered ${r.status} ${r.text.slice(0, 200)}`);
  return 'restored';
}

export async function restoreUser(undo: UserUndo, send: Send): Promise<'restored' | 'nothing'> {
  let deleted = false;
  for (const t of undo.targets) {
    const r = await send({ method: 'DELETE', path: `/api/v1/user/${encodeURIComponent(t)}/${encodeURIComponent(undo.username)}`, authenticate: true, label: `restore: delete user ${undo.username} from ${t}` });
    if (r.status === 200) deleted = true;
  }
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
