/**
 * What the stream-proxy suite's restore makes of the answers it gets (issue 43): only the API's own answers say what a
 * deployment holds. A throttle, a server error or a page that is not the API is never "restored" and never "nothing to
 * restore": the restore fails, naming what could not be put back, so that the journal keeps the write for
 * `npm run restore`.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Reply, RequestSpec } from '../../harness/http/client.ts';
import { contentHash, restoreBouquet, restoreConfig, restoreUser, type ConfigUndo } from '../../suites/stream-proxy/restore.ts';
import type { StreamProxySettings } from '../../interfaces/stream-proxy/settings.ts';

/** An answer as the client hands it over: the status, its kind worked out as the client would, and a body. */
function reply(status: number, o: { json?: unknown; headers?: Record<string, string>; html?: boolean } = {}): Reply {
  const headers = { 'content-type': o.html ? 'text/html' : 'application/json', ...o.headers };
  const kind = status >= 500 ? 'server-error' : status === 429 ? 'throttled' : status >= 400 ? 'refused' : status >= 300 || o.html ? 'not-the-api' : 'accepted';
  const text = o.html ? '<html><body>Service Unavailable</body></html>' : JSON.stringify(o.json ?? {});
  return { status, kind, headers, text, json: o.html ? undefined : (o.json ?? {}), sentAt: 0, receivedAt: 0, headersAt: 0, exchange: { operation: 'a restore request', request: { method: 'GET', url: 'http://target/' } } } as unknown as Reply;
}

/** A target that answers each request with the next reply of the list, and remembers what it was sent. */
function target(...answers: Reply[]) {
  const sent: RequestSpec[] = [];
  return {
    sent,
    send: async (r: RequestSpec) => {
      sent.push(r);
      const next = answers.shift();
      if (!next) throw new Error(`no answer left for ${r.method} ${r.path}`);
      return next;
    },
  };
}

const THROTTLED = reply(429, { headers: { 'retry-after': '1' } });
const UNAVAILABLE = reply(503, { html: true });

test('a user is restored on a deletion accepted, and is nothing to restore only on the document\'s "400 not found" in every target', async () => {
  assert.equal(await restoreUser({ kind: 'user', username: 'u', targets: ['main', 'backup'] }, target(reply(200), reply(400)).send), 'restored');
  assert.equal(await restoreUser({ kind: 'user', username: 'u', targets: ['main', 'backup'] }, target(reply(400), reply(400)).send), 'nothing');
});

test('a user whose deletion was throttled, failed or refused otherwise is not restored: the restore fails, naming the targets, after trying them all', async () => {
  for (const [answer, said] of [
    [THROTTLED, /main \(answered 429, throttled/],
    [UNAVAILABLE, /main \(answered 503, a server error/],
    [reply(401), /main \(answered 401, refused/],
  ] as const) {
    const t = target(answer, reply(200));
    await assert.rejects(restoreUser({ kind: 'user', username: 'u', targets: ['main', 'backup'] }, t.send), (e: Error) => {
      assert.match(e.message, said);
      assert.match(e.message, /user u may still be in/);
      assert.match(e.message, /stays in the journal/);
      return true;
    });
    assert.equal(t.sent.length, 2, 'the other target is still tried');
  }
});

const settings = { documents: { main: { inConfig: '/config', scratch: '/note' }, sources: { inConfig: '/sources', scratch: '/note' }, apiProxy: { inConfig: '/api_proxy', scratch: '/note' } } } as unknown as StreamProxySettings;
const undo = (): ConfigUndo => ({ kind: 'config', doc: 'main', original: { note: 'before' }, originalRevision: 'r0', written: ['r1'], sent: [] });
const read = (revision: string, note: string) => reply(200, { json: { config: { note } }, headers: { 'x-config-main-revision': revision } });

test('a configuration document is nothing to restore at its original revision, and restored over a revision the harness wrote', async () => {
  assert.equal(await restoreConfig(undo(), target(read('r0', 'before')).send, settings), 'nothing');
  const t = target(read('r1', 'harness'), reply(200, { headers: { 'x-config-main-revision': 'r2' } }));
  assert.equal(await restoreConfig(undo(), t.send, settings), 'restored');
  assert.equal(t.sent[1]?.headers?.['If-Match'], 'r1');
});

test('a configuration document whose read or save back was throttled or failed is not restored: the restore fails and the journal keeps it', async () => {
  for (const answer of [THROTTLED, UNAVAILABLE]) {
    await assert.rejects(restoreConfig(undo(), target(answer).send, settings), /the main document could not be put back now: GET \/api\/v1\/config was answered (429|503).*stays in the journal/);
    await assert.rejects(restoreConfig(undo(), target(read('r1', 'harness'), answer).send, settings), /could not be put back now: saving main back .* was answered (429|503)/);
  }
  // "409 changed on server": somebody else's save since, a conflict left as it is.
  assert.deepEqual(await restoreConfig(undo(), target(read('r1', 'harness'), reply(409)).send, settings), { conflict: 'the main document changed while it was being restored (409)' });
});

test('a bouquet whose read or save back was throttled or failed is not restored', async () => {
  const bouquetUndo = () => ({ kind: 'bouquet' as const, original: {}, sent: [contentHash({ mine: 1 })] });
  assert.equal(await restoreBouquet(bouquetUndo(), target(reply(200, { json: {} })).send), 'nothing');
  assert.equal(await restoreBouquet(bouquetUndo(), target(reply(200, { json: { mine: 1 } }), reply(200)).send), 'restored');
  for (const answer of [THROTTLED, UNAVAILABLE]) {
    await assert.rejects(restoreBouquet(bouquetUndo(), target(answer).send), /the bouquet could not be put back now/);
    await assert.rejects(restoreBouquet(bouquetUndo(), target(reply(200, { json: { mine: 1 } }), answer).send), /the bouquet could not be put back now: saving the bouquet back/);
  }
});

test('a body that is no JSON at all has a content hash too: the generic checks journal their bad input before sending it', () => {
  assert.match(contentHash(undefined), /^[0-9a-f]{64}$/);
  assert.notEqual(contentHash(undefined), contentHash({}));
});
