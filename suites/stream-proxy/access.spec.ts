import type { Reply, RequestSpec } from '../../harness/http/client.ts';
import { contentHash, type BouquetUndo } from './restore.ts';
import { getAt, setAt } from '../../harness/json-pointer.ts';
import { resourceFromListing, scratchMember, test, reqTags, NotTested, RequirementViolation, type Proxy, type RecordReading } from './proxy.ts';
import { answerKind, describeAnswer, isAccepted, mustBeRefused } from '../../harness/answers.ts';
import { Inconclusive } from '../../harness/verdicts.ts';

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

/** The reading of B-NS-AUTH-STATUS the refusals of a missing and of a wrong admin token show. */
function recordAuthStatus(reading: RecordReading, refusals: Record<'missing' | 'wrong', number[]>): void {
  const only = (statuses: number[]) => (new Set(statuses).size === 1 ? statuses[0] : undefined);
  const [missing, wrong] = [only(refusals.missing), only(refusals.wrong)];
  if (missing === 401 && wrong === 401) reading('B-NS-AUTH-STATUS', 'always-401');
  else if (missing === 401 && wrong === 403) reading('B-NS-AUTH-STATUS', '401-missing-403-wrong');
  else if (missing === 403 && wrong === 403) reading('B-NS-AUTH-STATUS', 'always-403');
  else reading('B-NS-AUTH-STATUS', undefined, `a missing token was answered ${[...new Set(refusals.missing)].join(', ')}, a wrong one ${[...new Set(refusals.wrong)].join(', ')}`);
}

/**
 * The member of the bouquet the harness sets when the profile names none (settings.documents.bouquet.scratch): one of
 * its own, which a deployment that drops or refuses members it does not know (B-NS-DTO-FIELDS) will not keep.
 */
const OWN_BOUQUET_MEMBER = '/conformance';
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const label = (r: RequestSpec, how: string) => `${r.method} ${r.path} ${how}`;

test.describe('who may call what', () => {
  test('admin endpoints refuse a missing or wrong token; with web auth off they need none', { tag: reqTags('B-AUTH-ADMIN', 'B-AUTH-BYPASS') }, async ({ stream: proxy, api, secrets, verify, notApplicable, reading }) => {
    for (const id of ['B-AUTH-ADMIN', 'B-AUTH-BYPASS']) if (proxy.scope.requirements[id]) notApplicable(id, proxy.scope.requirements[id]);
    const wrong = secrets.harmless('conformance-not-the-admin-token');
    if (proxy.settings.webAuthEnabled) {
      await verify('B-AUTH-ADMIN', async () => {
        const refusals: Record<'missing' | 'wrong', number[]> = { missing: [], wrong: [] };
        for (const r of adminReads(proxy)) {
          // A refusal counts only beside its control: the same request with the admin token, which the target accepts.
          const control = await proxy.admin({ ...r, label: label(r, 'with the admin token (the control)') });
          if (!isAccepted(control)) continue;
          for (const [how, headers, kind] of [
            ['without a token', {}, 'missing'],
            ['with a wrong token', { Authorization: `Bearer ${wrong}` }, 'wrong'],
          ] as const) {
            const reply = await api.send({ ...r, headers, label: label(r, how) });
            mustBeRefused('B-AUTH-ADMIN', reply, `${r.method} ${r.path} ${how}`, { control, expected: 'a 4xx (the document gives no status)' });
            refusals[kind].push(reply.status);
          }
        }
        if (refusals.missing.length === 0) throw new NotTested('no admin request was accepted with the admin token: a refusal of the same request without it proves nothing');
        recordAuthStatus(reading, refusals);
      });
    } else {
      await verify('B-AUTH-BYPASS', async () => {
        let answered = 0;
        for (const r of adminReads(proxy)) {
          const reply = await api.send({ ...r, label: label(r, 'without a token (web auth off)') });
          const kind = answerKind(reply, { json: true });
          if (kind === 'accepted') {
            answered++;
            continue;
          }
          if (kind === 'throttled') throw new Inconclusive(`${r.method} ${r.path} without a token was throttled (429)`);
          // Refused for the want of a token, sent to a login page, or failing: the endpoint did not answer without one.
          // Another refusal counts only if the same request with the admin token (the control) is accepted.
          if (kind === 'refused' && reply.status !== 401 && reply.status !== 403) {
            const control = await proxy.admin({ ...r, label: label(r, 'with the admin token (the control)') });
            if (!isAccepted(control, { json: true })) continue;
          }
          throw new RequirementViolation('B-AUTH-BYPASS', `${r.method} ${r.path} without a token was answered ${describeAnswer(reply, { json: true })} although web_auth_enabled is false`, 'answered as with a token: no token needed', [reply.exchange]);
        }
        if (answered === 0) throw new NotTested('no admin request was answered, with or without a token');
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
            mustBeRefused('B-USER-AUTH', reply, `${r.method} ${r.path} ${how}`, { control: ok });
          }
        }
      });
    } else {
      await verify('B-USER-UI-OFF', async () => {
        for (const r of USER_READS) {
          const reply = await proxy.user({ ...r, label: label(r, 'with the user UI off') });
          mustBeRefused('B-USER-UI-OFF', reply, `${r.method} ${r.path} with user_ui_enabled false`, {
            expected: 'the endpoint does not exist (any 4xx)',
            control: { none: 'with the user UI off the endpoint must not exist: no form of the request is one it would accept' },
          });
        }
      });
    }
  });

  test('a user saves a bouquet and reads it back', { tag: reqTags('B-USER-BOUQUET') }, async ({ stream: proxy, verify, notApplicable, writes, identity, reading }) => {
    if (proxy.scope.requirements['B-USER-BOUQUET']) return notApplicable('B-USER-BOUQUET', proxy.scope.requirements['B-USER-BOUQUET']);
    // The bouquet is read back: no other check may save one meanwhile.
    await proxy.exclusive('bouquet');
    await verify('B-USER-BOUQUET', async () => {
      const categories = await proxy.user({ method: 'GET', path: '/api/v1/user/playlist/categories', label: 'categories' });
      const before = await proxy.user({ method: 'GET', path: '/api/v1/user/playlist/bouquet', label: 'the bouquet as it was' });
      for (const r of [categories, before]) if (r.status !== 200) throw new RequirementViolation('B-USER-BOUQUET', `${r.exchange.request.method} ${r.exchange.requestPath} was answered ${r.status}`, '200', [r.exchange]);
      if (before.json === null) reading('B-NS-BOUQUET-UNSAVED', 'null-until-saved');
      // PlaylistBouquetDto's members are not shown: the bouquet read back, with one member set to a value of the
      // harness's own (the profile's member, or one of the harness's), is saved and read again.
      const stated = proxy.stated('documents.bouquet.scratch');
      const pointer = proxy.settings.documents.bouquet?.scratch ?? OWN_BOUQUET_MEMBER;
      const value = [identity.name('bouquet')];
      const mine = setAt(isObject(before.json) ? before.json : {}, pointer, value);
      // A bouquet that was none (null) cannot be unsaved: the empty one is the nearest.
      const original = isObject(before.json) ? before.json : {};
      // Journalled before the save (on disk against a live target), so that npm run restore puts it back after a kill.
      const undo: BouquetUndo = { kind: 'bouquet', original, sent: [contentHash(mine)] };
      // When the test ends it is saved back as before; only npm run restore, later, first checks it is still ours.
      const readBack = writes.intend('POST /api/v1/user/playlist/bouquet', 'save the bouquet back as it was', undo, async () => {
        const r = await proxy.user({ method: 'POST', path: '/api/v1/user/playlist/bouquet', json: original, label: 'save the bouquet back' });
        return isAccepted(r) ? 'undone' : 'nothing';
      });
      const saved = await proxy.user({ method: 'POST', path: '/api/v1/user/playlist/bouquet', json: mine, label: 'save a bouquet' });
      const unknownMember = `a deployment that knows its bouquet's members may drop or refuse one it does not know (B-NS-DTO-FIELDS): state a member it knows in settings.documents.bouquet.scratch`;
      if (saved.status !== 200) {
        const open = proxy.refusalOpen(saved, { open: [scratchMember('documents.bouquet.scratch', pointer)] });
        if (open) throw new NotTested(`a bouquet setting ${pointer} was ${open}`);
        throw new RequirementViolation('B-USER-BOUQUET', `saving a bouquet was answered ${saved.status}`, '200', [saved.exchange]);
      }
      const after = await proxy.user({ method: 'GET', path: '/api/v1/user/playlist/bouquet', label: 'the bouquet after saving' });
      // As the deployment keeps it (it may add or drop members): what restore will recognise as the harness's.
      if (after.status === 200) readBack({ sent: [contentHash(after.json)] });
      const back = getAt(after.json, pointer);
      if (after.status === 200 && JSON.stringify(back) === JSON.stringify(value)) {
        if (!stated) reading('B-NS-DTO-FIELDS', 'kept-as-sent');
        return;
      }
      if (!stated && after.status === 200) throw new NotTested(`the bouquet saved with ${pointer}, a member of the harness's own, reads back without it: ${unknownMember}`);
      throw new RequirementViolation('B-USER-BOUQUET', `the bouquet saved with ${pointer} = ${JSON.stringify(value)} reads back (${after.status}) as ${after.text.slice(0, 200)}`, `${pointer} = ${JSON.stringify(value)}`, [saved.exchange, after.exchange]);
    });
  });
});
