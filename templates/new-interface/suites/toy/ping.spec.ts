import { deviation } from '../../harness/fixtures.ts';
import { reqTags } from './tags.ts';
import { test } from './test.ts';

test('GET /toy/ping answers pong', { tag: reqTags('T-PING-200') }, async ({ api, verify }) => {
  await verify('T-PING-200', async () => {
    const r = await api.send({ method: 'GET', path: '/toy/ping', authenticate: true });
    if (r.status !== 200 || r.json?.pong !== true) throw deviation(`answered ${r.status} ${r.text}`, '200 with pong true');
  });
});
