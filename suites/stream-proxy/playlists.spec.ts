import type { Reply } from '../../harness/http/client.ts';
import { startProvider, type Provider } from './provider.ts';
import { test, reqTags, deviation, NotTested, RequirementViolation, type Proxy } from './proxy.ts';

const LISTINGS = ['/api/v1/playlist/live', '/api/v1/playlist/vod', '/api/v1/playlist/series'];

/** The provider the deployment can reach: the profile's, or on the reference one the harness serves itself. */
async function providerFor(proxy: Proxy): Promise<(Omit<Provider, 'close'> & { close?: () => Promise<void> }) | undefined> {
  if (proxy.settings.provider) return proxy.settings.provider;
  return proxy.live ? undefined : startProvider();
}

const isJson = (r: Reply) => r.json !== undefined;

test.describe('playlists, the programme guide, updates and the web player', () => {
  test('each PlaylistRequest variant lists live, VOD and series items; two variants or none are refused', { tag: reqTags('B-PLAYLIST-VARIANTS', 'B-PLAYLIST-ONE-VARIANT') }, async ({ stream: proxy, verify }) => {
    const provider = await providerFor(proxy);
    try {
      const variants: Array<[string, unknown]> = [
        ['Target', { Target: proxy.settings.targets[0].id }],
        ['Input', { Input: proxy.settings.inputId }],
        ...(provider
          ? ([
              ['CustomM3u', { CustomM3u: { url: provider.m3uUrl } }],
              ['CustomPanel', { CustomPanel: { url: provider.panelUrl, username: provider.username, password: provider.password } }],
            ] as Array<[string, unknown]>)
          : []),
      ];
      await verify('B-PLAYLIST-VARIANTS', async () => {
        for (const path of LISTINGS) {
          for (const [name, body] of variants) {
            const r = await proxy.admin({ method: 'POST', path, json: body, label: `${path} with the ${name} variant` });
            if (r.status !== 200 || !isJson(r)) throw new RequirementViolation('B-PLAYLIST-VARIANTS', `${path} with the ${name} variant was answered ${r.status} ${r.text.slice(0, 200)}`, '200 with JSON', [r.exchange]);
          }
        }
      });
      await verify('B-PLAYLIST-ONE-VARIANT', async () => {
        for (const [what, body] of [
          ['two variants', { Target: proxy.settings.targets[0].id, Input: proxy.settings.inputId }],
          ['no variant', {}],
        ] as const) {
          const r = await proxy.admin({ method: 'POST', path: LISTINGS[0], json: body, label: `${LISTINGS[0]} with ${what}` });
          if (r.status < 400 || r.status >= 500) throw new RequirementViolation('B-PLAYLIST-ONE-VARIANT', `a PlaylistRequest with ${what} was answered ${r.status}`, 'a 4xx: exactly one variant per body', [r.exchange]);
        }
      });
    } finally {
      await provider?.close?.();
    }
  });

  test('the programme guide for a target and for a custom EPG document', { tag: reqTags('B-EPG') }, async ({ stream: proxy, verify }) => {
    const provider = await providerFor(proxy);
    try {
      await verify('B-EPG', async () => {
        const bodies: Array<[string, unknown]> = [['Target', { Target: proxy.settings.targets[0].id }], ...(provider ? ([['Custom', { Custom: provider.epgUrl }]] as Array<[string, unknown]>) : [])];
        for (const [name, body] of bodies) {
          const r = await proxy.admin({ method: 'POST', path: '/api/v1/playlist/epg', json: body, label: `EPG with the ${name} variant` });
          if (r.status !== 200) throw new RequirementViolation('B-EPG', `POST /api/v1/playlist/epg with the ${name} variant was answered ${r.status} ${r.text.slice(0, 200)}`, '200 with EPG data', [r.exchange]);
        }
      });
    } finally {
      await provider?.close?.();
    }
  });

  test('playlist update: 202 at once and for rapid repeats, one run queued; invalid names 400 when none is pending', { tag: reqTags('B-UPDATE-ACCEPTED', 'B-UPDATE-COLLAPSED', 'B-UPDATE-INVALID') }, async ({ stream: proxy, verify, notApplicable, notTested, api }) => {
    const ids = ['B-UPDATE-ACCEPTED', 'B-UPDATE-COLLAPSED', 'B-UPDATE-INVALID'];
    if (proxy.scope.requirements['B-UPDATE-ACCEPTED']) return ids.forEach((id) => notApplicable(id, proxy.scope.requirements[id]));
    // Only the reference lets one see how many runs were queued (the documented interface shows no such thing).
    const runs = async () => (proxy.live ? undefined : ((await api.send({ method: 'GET', path: '/__reference/playlist-update-runs', label: 'how many update runs (reference only)' })).json as { runs: number; pending: boolean }));
    const idle = async () => {
      for (let i = 0; i < 100 && (await runs())?.pending; i++) await new Promise((r) => setTimeout(r, 100));
    };
    await idle();
    const before = await runs();
    const names = [proxy.settings.targets[0].name];
    const replies: Reply[] = [];
    await verify('B-UPDATE-ACCEPTED', async () => {
      for (let i = 0; i < 4; i++) replies.push(await proxy.admin({ method: 'POST', path: '/api/v1/playlist/update', json: names, label: i === 0 ? 'update one target' : `the same update again (${i})` }));
      const bad = replies.filter((r) => r.status !== 202);
      if (bad.length) throw new RequirementViolation('B-UPDATE-ACCEPTED', `an update and its rapid repeats were answered ${replies.map((r) => r.status).join(', ')}`, '202 each time (queued or already pending)', replies.map((r) => r.exchange));
    });
    if (proxy.live) notTested('B-UPDATE-COLLAPSED', 'whether a second run was queued cannot be seen through the documented interface of a live target');
    else {
      await verify('B-UPDATE-COLLAPSED', async () => {
        if (replies.length < 4) throw new NotTested('the updates were not all accepted');
        await idle();
        const after = await runs();
        const added = (after?.runs ?? 0) - (before?.runs ?? 0);
        if (added !== 1) throw deviation(`4 rapid updates of ${names[0]} made ${added} runs`, 'one run: rapid repeats collapse into one pending run');
      });
    }
    await verify('B-UPDATE-INVALID', async () => {
      await idle();
      const r = await proxy.admin({ method: 'POST', path: '/api/v1/playlist/update', json: ['conformance-no-such-target'], label: 'update a target that does not exist' });
      if (r.status === 400) return;
      if (r.status === 202 && proxy.live) throw new NotTested('answered 202: an update may still be pending on the live target, when any request gets 202');
      throw new RequirementViolation('B-UPDATE-INVALID', `an update of an unknown target name, with no update pending, was answered ${r.status}`, '400', [r.exchange]);
    });
  });

  test('the web-player URL works at once and no longer once its token has expired', { tag: reqTags('B-WEBPLAYER', 'B-WEBPLAYER-EXPIRY') }, async ({ stream: proxy, api, verify, notApplicable, plannedWait }, testInfo) => {
    const s = proxy.settings;
    let url: string | undefined;
    await verify('B-WEBPLAYER', async () => {
      const r = await proxy.admin({ method: 'POST', path: '/api/v1/playlist/webplayer', json: { target_id: s.targets[0].id, cluster: s.webPlayer.cluster, virtual_id: s.webPlayer.virtualId }, label: 'web-player URL' });
      const text = r.text.trim();
      if (r.status !== 200 || !/^https?:\/\//.test(text)) throw new RequirementViolation('B-WEBPLAYER', `the web-player request was answered ${r.status} ${text.slice(0, 200)}`, '200 with a plain-text stream URL', [r.exchange]);
      const stream = await api.send({ method: 'GET', path: text, label: 'the stream URL, at once' });
      if (stream.status !== 200) throw new RequirementViolation('B-WEBPLAYER', `the fresh stream URL was answered ${stream.status}`, '200 while its token lives', [r.exchange, stream.exchange]);
      url = text;
    });
    if (proxy.scope.requirements['B-WEBPLAYER-EXPIRY']) return notApplicable('B-WEBPLAYER-EXPIRY', proxy.scope.requirements['B-WEBPLAYER-EXPIRY']);
    testInfo.setTimeout(testInfo.timeout + s.webPlayerTokenMs + 5000);
    await verify('B-WEBPLAYER-EXPIRY', async () => {
      if (!url) throw new NotTested('no working stream URL to watch expire');
      const wait = s.webPlayerTokenMs + 1000;
      plannedWait(wait);
      await new Promise((r) => setTimeout(r, wait));
      const late = await api.send({ method: 'GET', path: url, label: `the stream URL, ${wait} ms later` });
      if (late.status >= 200 && late.status < 300) throw new RequirementViolation('B-WEBPLAYER-EXPIRY', `the stream URL still works ${wait} ms after it was issued (token lifetime ${s.webPlayerTokenMs} ms)`, 'refused once the token has expired', [late.exchange]);
    });
  });
});
