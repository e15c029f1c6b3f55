import type { Reply, RequestSpec } from '../../harness/http/client.ts';
import { contentHash, saveBouquetBack, type BouquetUndo } from './restore.ts';
import { getAt, setAt } from '../../harness/json-pointer.ts';
import { resourceFromListing, scratchMember, test, reqTags, NotTested, Inconclusive, RequirementViolation, type Proxy, type RecordReading } from './proxy.ts';
import { accepted, answerKind, describeAnswer, judged, mustAccept, mustAnswer, mustBeRefused, needAccepted, showed } from '../../harness/answers.ts';
import { controlOfTheApi } from './controls.ts';

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

/** The reading of B-NS-AUTH-STATUS the refusals of a missing and of a wrong admin token show (sightings: already judged). */
function recordAuthStatus(reading: RecordReading, refusals: Record<'missing' | 'wrong', Reply[]>): void {
  const all = (replies: Reply[], status: number) => replies.length > 0 && replies.every((r) => showed(r, status));
  const { missing, wrong } = refusals;
  if (all(missing, 401) && all(wrong, 401)) reading('B-NS-AUTH-STATUS', 'always-401');
  else if (all(missing, 401) && all(wrong, 403)) reading('B-NS-AUTH-STATUS', '401-missing-403-wrong');
  else if (all(missing, 403) && all(wrong, 403)) reading('B-NS-AUTH-STATUS', 'always-403');
  else {
    const statuses = (replies: Reply[]) => [...new Set(replies.map((r) => r.status))].join(', ');
    reading('B-NS-AUTH-STATUS', undefined, `a missing token was answered ${statuses(missing)}, a wrong one ${statuses(wrong)}`);
  }
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
        const refusals: Record<'missing' | 'wrong', Reply[]> = { missing: [], wrong: [] };
        for (const r of adminReads(proxy)) {
          // A refusal counts only beside its control: the same request with the admin token, which the target accepts.
          // An endpoint that refuses its control (an input the deployment does not have) is left out; a throttled or
          // failing control decides nothing, and is thrown.
          const control = await proxy.admin({ ...r, label: label(r, 'with the admin token (the control)') });
          if (!accepted(control, label(r, 'with the admin token (the control)'))) continue;
          for (const [how, headers, kind] of [
            ['without a token', {}, 'missing'],
            ['with a wrong token', { Authorization: `Bearer ${wrong}` }, 'wrong'],
          ] as const) {
            const reply = await api.send({ ...r, headers, label: label(r, how) });
            mustBeRefused('B-AUTH-ADMIN', reply, `${r.method} ${r.path} ${how}`, { control, expected: 'a 4xx (the document gives no status)' });
            refusals[kind].push(reply);
          }
        }
        if (refusals.missing.length === 0) throw new Inconclusive('no admin request was accepted with the admin token: a refusal of the same request without it proves nothing');
        recordAuthStatus(reading, refusals);
      });
    } else {
      await verify('B-AUTH-BYPASS', async () => {
        let answeredWithout = 0;
        for (const r of adminReads(proxy)) {
          const what = label(r, 'without a token (web auth off)');
          const reply = await api.send({ ...r, label: what });
          switch (answerKind(reply, { json: true })) {
            case 'accepted':
              answeredWithout++;
              continue;
            // Refused for the want of a token, or sent to a login page: the endpoint did not answer without one. That is
            // this rule's subject, not trouble of the environment, but only beside the control below.
            case 'refused':
            case 'not-the-api':
              break;
            default:
              // A throttle or a server error decides nothing: thrown, naming the operation.
              judged(reply, what, { json: true });
          }
          // Evidence only if the same request with the admin token (the control) is accepted: otherwise the endpoint
          // refuses this request for a reason of its own (an input the deployment does not have), token or none.
          const control = await proxy.admin({ ...r, label: label(r, 'with the admin token (the control)') });
          if (!accepted(control, label(r, 'with the admin token (the control)'), { json: true })) continue;
          throw new RequirementViolation('B-AUTH-BYPASS', `${r.method} ${r.path} without a token was answered ${describeAnswer(reply, { json: true })} although web_auth_enabled is false; with the admin token it was accepted`, 'answered as with a token: no token needed', [reply.exchange, control.exchange]);
        }
        if (answeredWithout === 0) throw new NotTested('no admin request was answered, with or without a token');
      });
    }
  });

  test('the resource endpoint is public', { tag: reqTags('B-RESOURCE-PUBLIC') }, async ({ stream: proxy, api, verify }) => {
    await verify('B-RESOURCE-PUBLIC', async () => {
      const resource = proxy.settings.resource ?? (await resourceFromListing(proxy));
      if (!resource) throw new NotTested('the profile names no resource (settings.resource) and no listing carries one');
      const path = `/api/v1/playlist/resource/${encodeURIComponent(resource)}`;
      const r = await api.send({ method: 'GET', path, label: 'a resource without any token' });
      if (accepted(r, 'GET /api/v1/playlist/resource/{resource} without a token')) return;
      // A refusal counts only beside its control: the same resource with the admin token, accepted (a resource that is
      // gone, or a cached logo the deployment cannot fetch, is refused with a token too, and proves nothing here).
      const control = await proxy.admin({ method: 'GET', path, label: 'the same resource with the admin token (the control)' });
      needAccepted(control, 'the resource with the admin token (the control)', { why: 'a refusal of it without a token proves nothing' });
      mustAccept(r, 'GET /api/v1/playlist/resource/{resource} without a token (accepted with the admin token)', { expected: '200: public, no authentication' });
    });
  });

  test('the user endpoints take the user token, and exist only with the user UI on', { tag: reqTags('B-USER-AUTH', 'B-USER-UI-OFF') }, async ({ stream: proxy, api, secrets, verify, notApplicable }) => {
    for (const id of ['B-USER-AUTH', 'B-USER-UI-OFF']) if (proxy.scope.requirements[id]) notApplicable(id, proxy.scope.requirements[id]);
    const wrong = secrets.harmless('conformance-not-the-user-token');
    if (proxy.settings.userUiEnabled) {
      await verify('B-USER-AUTH', async () => {
        for (const r of USER_READS) {
          const ok = await proxy.user({ ...r, label: label(r, 'with the user token') });
          needAccepted(ok, `${r.method} ${r.path} with the user token`, { untested: true, why: 'a refusal of the others proves nothing' });
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
        // No form of the request is one the deployment would accept: the control is the same harness's admin read.
        const control = await controlOfTheApi(proxy);
        for (const r of USER_READS) {
          const reply = await proxy.user({ ...r, label: label(r, 'with the user UI off') });
          mustBeRefused('B-USER-UI-OFF', reply, `${r.method} ${r.path} with user_ui_enabled false`, { expected: 'the endpoint does not exist (any 4xx)', control });
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
      for (const r of [categories, before]) mustAnswer(r, 200, `${r.exchange.request.method} ${r.exchange.requestPath}`);
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
      // A throttled or failing save back is no "nothing to undo": it fails, saying so, and the journal keeps the write.
      const readBack = writes.intend('POST /api/v1/user/playlist/bouquet', 'save the bouquet back as it was', undo, async () => {
        await saveBouquetBack(original, (r) => proxy.user(r));
        return 'undone';
      });
      const saved = await proxy.user({ method: 'POST', path: '/api/v1/user/playlist/bouquet', json: mine, label: 'save a bouquet' });
      const unknownMember = `a deployment that knows its bouquet's members may drop or refuse one it does not know (B-NS-DTO-FIELDS): state a member it knows in settings.documents.bouquet.scratch`;
      const open = proxy.refusalOpen(saved, { open: [scratchMember('documents.bouquet.scratch', pointer)] });
      if (open) throw new NotTested(`a bouquet setting ${pointer} was ${open}`);
      mustAnswer(saved, 200, 'saving a bouquet');
      const after = await proxy.user({ method: 'GET', path: '/api/v1/user/playlist/bouquet', label: 'the bouquet after saving' });
      mustAnswer(after, 200, 'GET /api/v1/user/playlist/bouquet after saving');
      // As the deployment keeps it (it may add or drop members): what restore will recognise as the harness's.
      readBack({ sent: [contentHash(after.json)] });
      const back = getAt(after.json, pointer);
      if (JSON.stringify(back) === JSON.stringify(value)) {
        if (!stated) reading('B-NS-DTO-FIELDS', 'kept-as-sent');
        return;
      }
      if (!stated) throw new NotTested(`the bouquet saved with ${pointer}, a member of the harness's own, reads back without it: ${unknownMember}`);
      throw new RequirementViolation('B-USER-BOUQUET', `the bouquet saved with ${pointer} = ${JSON.stringify(value)} reads back (${after.status}) as ${after.text.slice(0, 200)}`, `${pointer} = ${JSON.stringify(value)}`, [saved.exchange, after.exchange]);
    });
  });
});
