import { answered, mustAnswer, mustBeRefused } from '../../harness/answers.ts';
import { test, reqTags, NotTested, RequirementViolation } from './proxy.ts';
import { controlOfTheApi } from './controls.ts';

test.describe('server state and the media library', () => {
  test('status, active streams, a batch CSV and the GeoIP update answer as the table says', { tag: reqTags('B-STATUS', 'B-STREAMS', 'B-BATCH-CSV', 'B-GEOIP') }, async ({ stream: proxy, verify, reading }) => {
    await verify('B-STATUS', async () => {
      const r = await proxy.admin({ method: 'GET', path: '/api/v1/status', label: 'server status' });
      mustAnswer(r, 200, 'GET /api/v1/status', { expected: '200 with a JSON object' });
      if (!r.json || typeof r.json !== 'object' || Array.isArray(r.json)) throw new RequirementViolation('B-STATUS', `GET /api/v1/status was answered ${r.status} ${r.text.slice(0, 200)}`, '200 with a JSON object', [r.exchange]);
    });
    await verify('B-STREAMS', async () => {
      const r = await proxy.admin({ method: 'GET', path: '/api/v1/streams', label: 'active streams' });
      mustAnswer(r, 200, 'GET /api/v1/streams', { expected: '200 with a JSON list' });
      if (!Array.isArray(r.json)) throw new RequirementViolation('B-STREAMS', `GET /api/v1/streams was answered ${r.status} ${r.text.slice(0, 200)}`, '200 with a JSON list', [r.exchange]);
    });
    await verify('B-BATCH-CSV', async () => {
      const r = await proxy.admin({ method: 'GET', path: `/api/v1/config/batchContent/${proxy.settings.inputId}`, label: 'batch CSV of the input' });
      mustAnswer(r, 200, `the batch content of input ${proxy.settings.inputId}`, { expected: '200 as text/csv' });
      const type = (r.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
      if (type !== 'text/csv') throw new RequirementViolation('B-BATCH-CSV', `the batch content of input ${proxy.settings.inputId} was answered ${r.status} as ${type || 'no content type'}`, '200 as text/csv', [r.exchange]);
    });
    await verify('B-GEOIP', async () => {
      const r = await proxy.admin({ method: 'GET', path: '/api/v1/geoip/update', label: 'GeoIP update' });
      mustAnswer(r, [200, 400], 'GET /api/v1/geoip/update', { expected: '200, or 400 when GeoIP is disabled or the download failed' });
      // A 400 is a disabled GeoIP or a failed download; either way the update was not made.
      reading('B-NS-GEOIP-UPDATE', answered(r, 200) ? 'enabled-downloads' : 'disabled');
    });
  });

  test('library: a scan starts with 202, a second while it runs gets 400, the status answers; disabled, neither succeeds', { tag: reqTags('B-LIBRARY-SCAN', 'B-LIBRARY-STATUS', 'B-LIBRARY-DISABLED') }, async ({ stream: proxy, verify, notApplicable, reading }) => {
    const ids = ['B-LIBRARY-SCAN', 'B-LIBRARY-STATUS', 'B-LIBRARY-DISABLED'];
    for (const id of ids) if (proxy.scope.requirements[id]) notApplicable(id, proxy.scope.requirements[id]);
    if (!proxy.settings.libraryEnabled) {
      await verify('B-LIBRARY-DISABLED', async () => {
        // "The library endpoints exist only when library.enabled is true", yet a scan "400 library not enabled":
        // both readings are accepted, a success never is. Without writes only the status is asked.
        const asks = [{ method: 'GET', path: '/api/v1/library/status' }, ...(proxy.scope.operations['POST /api/v1/library/scan'] ? [] : [{ method: 'POST', path: '/api/v1/library/scan', json: { force_rescan: false } }])];
        const control = await controlOfTheApi(proxy);
        for (const a of asks) {
          const what = `${a.method} ${a.path} with the library disabled`;
          const r = await proxy.admin({ ...a, label: what });
          mustBeRefused('B-LIBRARY-DISABLED', r, what, { control, expected: '400, 404 or 405' });
          mustAnswer(r, [400, 404, 405], what);
          const seen = answered(r, 404) ? 'not-routed-404' : answered(r, 400) ? 'registered-refusing' : undefined;
          if (a.method === 'GET') reading('B-NS-DISABLED-ANSWER', seen, seen ? undefined : `the library status was answered ${r.status}`);
        }
      });
      return;
    }
    await verify('B-LIBRARY-STATUS', async () => {
      const r = await proxy.admin({ method: 'GET', path: '/api/v1/library/status', label: 'library status' });
      mustAnswer(r, 200, 'GET /api/v1/library/status', { expected: '200 with JSON' });
      if (r.json === undefined) throw new RequirementViolation('B-LIBRARY-STATUS', `GET /api/v1/library/status was answered ${r.status} ${r.text.slice(0, 200)}`, '200 with JSON', [r.exchange]);
    });
    if (proxy.scope.requirements['B-LIBRARY-SCAN']) return;
    // The generic checks scan too: one scan check at a time.
    await proxy.exclusive('library-scan');
    await verify('B-LIBRARY-SCAN', async () => {
      // A scan that is already running (another check's, or the operator's) answers 400 too: wait for it to end.
      let first = await proxy.admin({ method: 'POST', path: '/api/v1/library/scan', json: { force_rescan: false }, label: 'start a library scan' });
      for (let i = 0; i < 50 && answered(first, 400); i++) {
        await new Promise((r) => setTimeout(r, 200));
        first = await proxy.admin({ method: 'POST', path: '/api/v1/library/scan', json: { force_rescan: false }, label: 'start a library scan (again, the last was running)' });
      }
      const open = proxy.refusalOpen(first);
      if (open) throw new NotTested(`a scan was ${open}`);
      mustAnswer(first, 202, 'a scan with none running', { expected: '202: scan started' });
      const second = await proxy.admin({ method: 'POST', path: '/api/v1/library/scan', json: { force_rescan: true }, label: 'a second scan while the first runs' });
      if (answered(second, 400)) return;
      // How long a scan runs is not shown (B-NS-TRANSITIONS): a small library's may be over before the second request
      // arrives. The first surely still ran if the second was answered within the least time the profile states.
      const least = proxy.stated('jobs.minScanMs') ? proxy.settings.jobs.minScanMs : undefined;
      // Counted from the first request's sending to the second's answer; startedAt is whole milliseconds (one more).
      const within = second.exchange.startedAt + 1 + second.exchange.durationMs - first.exchange.startedAt;
      if (answered(second, 202) && (least === undefined || within >= least)) {
        throw new NotTested(`the second scan was answered 202 ${Math.round(within)} ms after the first was sent: the first may have ended by then (${least === undefined ? 'the profile does not state how long a scan runs at least: settings.jobs.minScanMs' : `a scan runs at least ${least} ms, the profile says`})`);
      }
      throw new RequirementViolation('B-LIBRARY-SCAN', `a scan sent while one ran (within ${Math.round(within)} ms of it) was answered ${second.status}`, '400: scan already running', [first.exchange, second.exchange]);
    });
  });
});
