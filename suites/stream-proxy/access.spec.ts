import type { Reply, RequestSpec } from '../../harness/http/client.ts';
import { test, reqTags, NotTested, RequirementViolation, type Proxy } from './proxy.ts';

/** Admin endpoints whose requests change nothing, each with what it is sent: the ones the auth checks knock on. */
function adminReads(p: Proxy): RequestSpec[] {
  const s = p.settings;
  return [
    { method: 'GET', path: '/api/v1/status' },
    { method: 'GET', path: '/api/v1/streams' },
    { method: 'GET', path: '/api/v1/config' },
    { method: 'GET', path: '/api/v1/config/apiproxy' },
    { method: 'GET', path: `/api/v1/config/batchContent/${s.inputId}` },
    { method: 'GET', path: '/api/v1/file/download/info' },
    { method: 'POST', path: '/api/v1/playlist/live', json: { Target: s.targets[0].id } },
    ...(s.libraryEnabled ? [{ method: 'GET', path: '/api/v1/library/status' }] : []),
  ];
}

const USER_READS: RequestSpec[] = [
  { method: 'GET', path: '/api/v1/user/playlist/categories' },
  { method: 'GET', path: '/api/v1/user/playlist/bouquet' },
];

const refusedStatus = (r: Reply) => r.status >= 400 && r.status < 500;
const label = (r: RequestSpec, how: string) => `${r.method} ${r.path} ${how}`;

test.describe('who may call what', () => {
  test('admin endpoints refuse a missing or wrong token; with web auth off they need none', { tag: reqTags('B-AUTH-ADMIN', 'B-AUTH-BYPASS') }, async ({ stream: proxy, api, secrets, verify, notApplicable }) => {
    for (const id of ['B-AUTH-ADMIN', 'B-AUTH-BYPASS']) if (proxy.scope.requirements[id]) notApplicable(id, proxy.scope.requirements[id]);
    const wrong = secrets.harmless('conformance-not-the-admin-token');
    if (proxy.settings.webAuthEnabled) {
      await verify('B-AUTH-ADMIN', async () => {
        for (const r of adminReads(proxy)) {
          for (const [how, headers] of [
            ['without a token', {}],
            ['with a wrong token', { Authorization: `Bearer ${wrong}` }],
          ] as const) {
            const reply = await api.send({ ...r, headers, label: label(r, how) });
            if (!refusedStatus(reply)) throw new RequirementViolation('B-AUTH-ADMIN', `${r.method} ${r.path} ${how} was answered ${reply.status}`, 'a 4xx (the document gives no status)', [reply.exchange]);
          }
        }
      });
    } else {
      await verify('B-AUTH-BYPASS', async () => {
        for (const r of adminReads(proxy)) {
          const reply = await api.send({ ...r, label: label(r, 'without a token (web auth off)') });
          if (reply.status === 401 || reply.status === 403) throw new RequirementViolation('B-AUTH-BYPASS', `${r.method} ${r.path} without a token was answered ${reply.status} although web_auth_enabled is false`, 'no token needed', [reply.exchange]);
        }
      });
    }
  });

  test('the resource endpoint is public', { tag: reqTags('B-RESOURCE-PUBLIC') }, async ({ stream: proxy, api, verify }) => {
    await verify('B-RESOURCE-PUBLIC', async () => {
      const resource = proxy.settings.resource ?? (await resourceFromListing(proxy));
      if (!resource) throw new NotTested('the profile names no resource (settings.resource) and no listing carries one');
      const r = await api.send({ method: 'GET', path: `/api/v1/playlist/resource/${encodeURIComponent(resource)}`, label: 'a resource without any token' });
      if (r.status !== 200) throw new RequirementViolation('B-RESOURCE-PUBLIC', `GET /api/v1/playlist/resource/{resource} without a token was answered ${r.status}`, '200: public, no authentication', [r.exchange]);
    });
  });

  test('the user endpoints take the user token, and exist only with the user UI on', { tag: reqTags('B-USER-AUTH', 'B-USER-UI-OFF') }, async ({ stream: proxy, api, secrets, verify, notApplicable }) => {
    for (const id of ['B-USER-AUTH', 'B-USER-UI-OFF']) if (proxy.scope.requirements[id]) notApplicable(id, proxy.scope.requirements[id]);
    const wrong = secrets.harmless('conformance-not-the-user-token');
    if (proxy.settings.userUiEnabled) {
      await verify('B-USER-AUTH', async () => {
        for (const r of USER_READS) {
          const ok = await proxy.user({ ...r, label: label(r, 'with the user token') });
          if (ok.status !== 200) throw new NotTested(`${r.method} ${r.path} with the user token was answered ${ok.status}: a refusal of the others proves nothing`);
          for (const [how, headers] of [
            ['without a token', {}],
            ['with a wrong token', { Authorization: `Bearer ${wrong}` }],
          ] as const) {
            const reply = await api.send({ ...r, headers, label: label(r, how) });
            if (!refusedStatus(reply)) throw new RequirementViolation('B-USER-AUTH', `${r.method} ${r.path} ${how} was answered ${reply.status}`, 'a 4xx', [reply.exchange]);
          }
        }
      });
    } else {
      await verify('B-USER-UI-OFF', async () => {
        for (const r of USER_READS) {
          const reply = await proxy.user({ ...r, label: label(r, 'with the user UI off') });
          if (reply.status >= 200 && reply.status < 300) throw new RequirementViolation('B-USER-UI-OFF', `${r.method} ${r.path} was answered ${reply.status} although user_ui_enabled is false`, 'the endpoint does not exist (a 4xx)', [reply.exchange]);
        }
      });
    }
  });

  test('a user saves a bouquet and reads it back', { tag: reqTags('B-USER-BOUQUET') }, async ({ stream: proxy, verify, notApplicable, writes, identity }) => {
    if (proxy.scope.requirements['B-USER-BOUQUET']) return notApplicable('B-USER-BOUQUET', proxy.scope.requirements['B-USER-BOUQUET']);
    await verify('B-USER-BOUQUET', async () => {
      const categories = await proxy.user({ method: 'GET', path: '/api/v1/user/playlist/categories', label: 'categories' });
      const before = await proxy.user({ method: 'GET', path: '/api/v1/user/playlist/bouquet', label: 'the bouquet as it was' });
      for (const r of [categories, before]) if (r.status !== 200) throw new RequirementViolation('B-USER-BOUQUET', `${r.exchange.request.method} ${r.exchange.requestPath} was answered ${r.status}`, '200', [r.exchange]);
      // PlaylistBouquetDto is opaque: the one read back, with a member of the harness's own, is saved and read again.
      const mine = { ...(before.json as Record<string, unknown>), conformance: identity.name('bouquet') };
      writes.undo('POST /api/v1/user/playlist/bouquet', 'save the bouquet back as it was', async () => void (await proxy.user({ method: 'POST', path: '/api/v1/user/playlist/bouquet', json: before.json, label: 'save the bouquet back' })));
      const saved = await proxy.user({ method: 'POST', path: '/api/v1/user/playlist/bouquet', json: mine, label: 'save a bouquet' });
      if (saved.status !== 200) throw new RequirementViolation('B-USER-BOUQUET', `saving a bouquet was answered ${saved.status}`, '200', [saved.exchange]);
      const after = await proxy.user({ method: 'GET', path: '/api/v1/user/playlist/bouquet', label: 'the bouquet after saving' });
      if (JSON.stringify(after.json) !== JSON.stringify(mine)) throw new RequirementViolation('B-USER-BOUQUET', `the bouquet reads back as ${after.text.slice(0, 200)}`, JSON.stringify(mine).slice(0, 200), [saved.exchange, after.exchange]);
    });
  });
});

/** A resource identifier the server generated, from the first listing item that links one. */
async function resourceFromListing(proxy: Proxy): Promise<string | undefined> {
  const r = await proxy.admin({ method: 'POST', path: '/api/v1/playlist/live', json: { Target: proxy.settings.targets[0].id }, label: 'a listing, for a resource identifier' });
  const m = /\/api\/v1\/playlist\/resource\/([^"?\s/]+)/.exec(r.text);
  return m ? decodeURIComponent(m[1]) : undefined;
}
