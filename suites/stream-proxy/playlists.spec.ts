import type { Reply, RequestSpec } from '../../harness/http/client.ts';
import { providerFor } from './provider.ts';
import { test, reqTags, deviation, NotTested, Inconclusive, RequirementViolation, type OpenSetting, type Proxy, type RecordReading } from './proxy.ts';
import { beforeJudging } from './before-judging.ts';
import { Undecided, answerKind, answered, isAccepted, judged, mustAnswer, mustBeRefused, refused, showed } from '../../harness/answers.ts';

const LISTINGS = ['/api/v1/playlist/live', '/api/v1/playlist/vod', '/api/v1/playlist/series'];


const isJson = (r: Reply) => r.json !== undefined;

type UrlForm = 'absolute' | 'root-relative' | 'relative';

/**
 * The stream URL of a web-player answer: "plain-text stream URL". Whether it is absolute or relative is not shown
 * (B-NS-WEBPLAYER-URL): a relative one is resolved as any reference in an answer is, against the request's URL.
 */
function streamUrl(r: Reply): { url: URL; form: UrlForm } | undefined {
  const text = r.text.trim();
  if (!text || /\s/.test(text)) return undefined;
  try {
    const url = new URL(text, r.exchange.request.url);
    const form: UrlForm = /^[a-z][a-z0-9+.-]*:/i.test(text) ? 'absolute' : text.startsWith('/') ? 'root-relative' : 'relative';
    return /^https?:$/.test(url.protocol) ? { url, form } : undefined;
  } catch {
    return undefined;
  }
}

/** The reading of B-NS-WEBPLAYER-URL a stream URL's form and its answer after expiry show (a sighting: already judged). */
function recordWebPlayerUrl(reading: RecordReading, form: UrlForm, expired: Reply): void {
  if (form === 'absolute' && showed(expired, 401)) reading('B-NS-WEBPLAYER-URL', 'absolute-expired-401');
  else if (form === 'root-relative' && showed(expired, 403)) reading('B-NS-WEBPLAYER-URL', 'root-relative-expired-403');
  else reading('B-NS-WEBPLAYER-URL', undefined, `a ${form} URL, answered ${expired.status} once expired`);
}

/**
 * Why the refusals among one operation's answers prove nothing, or undefined where they are evidence (see
 * Proxy.refusalOpen): each request is valid by the document, and one the target accepted is the others' control.
 */
function openRefusals(proxy: Proxy, operation: string, replies: Array<[string, Reply]>, success = 200): string | undefined {
  // Every answer is the API's, or the check decides nothing (a throttle, a server error): thrown here, naming it.
  for (const [what, r] of replies) judged(r, `${operation} (${what})`);
  const control = replies.some(([, r]) => answered(r, success));
  const refusals = replies.filter(([, r]) => refused(r));
  if (refusals.length === 0) return undefined;
  const open = refusals.map(([, r]) => proxy.refusalOpen(r, { control }));
  if (open.some((why) => why === undefined)) return undefined;
  return `${operation} (${refusals.map(([what]) => what).join(', ')}) was ${open[0]}`;
}

/**
 * A playlist update's answer, as the API gave it. The document answers an update "503 server shutting down": a target
 * in that state judges none of the update rules (nothing is queued or refused), so a server error there leaves them
 * inconclusive, as any server error leaves the rule at hand; an undocumented 5xx is GEN-NO-5XX's failure, where it
 * shows, and the documented 503 is no failure at all.
 */
function updateJudged(r: Reply, what: string): 'accepted' | 'refused' {
  try {
    return judged(r, what);
  } catch (e) {
    if (e instanceof Undecided && e.kind === 'server-error') {
      throw new Inconclusive(`${what} was answered ${r.status}, a server error: the document answers an update 503 while the server is shutting down, when no update rule can be judged`);
    }
    throw e;
  }
}

/** B-NS-WEBPLAYER-CLUSTER: the spelling of the cluster ("for example the live cluster"). */
const WEBPLAYER_CLUSTER: OpenSetting = { point: 'B-NS-WEBPLAYER-CLUSTER', setting: 'webPlayer.cluster', what: 'another spelling of the cluster: state it in settings.webPlayer.cluster' };
/** B-NS-UNKNOWN-SOURCE: which items a target lists (the harness's default virtual id may be none of them). */
const WEBPLAYER_ITEM: OpenSetting = { point: 'B-NS-UNKNOWN-SOURCE', setting: 'webPlayer.virtualId', what: 'an item the target lists: state its virtual id in settings.webPlayer.virtualId' };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Whether a playlist update of the harness's is still pending. "What ends a pending update, and when" is not shown
 * (B-NS-TRANSITIONS): the reference's own view of the runs says so (a deployment need not offer one,
 * B-NS-DUPLICATE-UPDATE), else the profile's upper bound on how long an update stays pending (settings.jobs).
 */
function pendingUpdates(proxy: Proxy, api: { send(r: RequestSpec): Promise<Reply> }) {
  let lastAcceptedAt: number | undefined;
  const runs = async (): Promise<{ runs: number; pending: boolean } | undefined> => {
    if (proxy.live) return undefined;
    const r = await api.send({ method: 'GET', path: '/__reference/playlist-update-runs', label: 'how many update runs (reference only)' });
    const seen = r.json as { runs?: unknown; pending?: unknown } | undefined;
    // The reference's own back door, never troubled: a view of it, not an answer of the API to judge.
    return isAccepted(r) && typeof seen?.runs === 'number' && typeof seen.pending === 'boolean' ? { runs: seen.runs, pending: seen.pending } : undefined;
  };
  return {
    runs,
    /** An update's answer: an acceptance may have queued a run, which stays pending a while. */
    sent: (r: Reply) => {
      if (isAccepted(r)) lastAcceptedAt = r.exchange.startedAt + r.exchange.durationMs;
      return r;
    },
    /** Waits until no update of the harness's is pending; false when there is no telling. */
    idle: async (): Promise<boolean> => {
      let seen = await runs();
      if (seen) {
        for (let i = 0; i < 100 && seen?.pending; i++, seen = await runs()) await sleep(100);
        return seen?.pending === false;
      }
      // None of the harness's updates was accepted: none of its own can be pending.
      if (lastAcceptedAt === undefined) return true;
      const most = proxy.stated('jobs.maxUpdatePendingMs') ? proxy.settings.jobs.maxUpdatePendingMs : undefined;
      if (most === undefined) return false;
      await sleep(Math.max(0, lastAcceptedAt + most + 100 - Date.now()));
      return true;
    },
  };
}

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
        let open: string | undefined;
        for (const path of LISTINGS) {
          const replies: Array<[string, Reply]> = [];
          for (const [name, body] of variants) replies.push([name, await proxy.admin({ method: 'POST', path, json: body, label: `${path} with the ${name} variant` })]);
          const here = openRefusals(proxy, `POST ${path}`, replies.map(([name, r]) => [`the ${name} variant`, r]));
          open ??= here;
          for (const [name, r] of replies) {
            if (answered(r, 200) ? isJson(r) : here) continue;
            throw new RequirementViolation('B-PLAYLIST-VARIANTS', `${path} with the ${name} variant was answered ${r.status} ${r.text.slice(0, 200)}`, '200 with JSON', [r.exchange]);
          }
        }
        if (open) throw new NotTested(open);
      });
      await verify('B-PLAYLIST-ONE-VARIANT', async () => {
        // A refusal counts only beside its control: the same request with exactly one variant, which the target accepts
        // (mustBeRefused leaves the rule inconclusive where the control was refused).
        const control = await proxy.admin({ method: 'POST', path: LISTINGS[0], json: { Target: proxy.settings.targets[0].id }, label: `${LISTINGS[0]} with one variant (the control)` });
        for (const [what, body] of [
          ['two variants', { Target: proxy.settings.targets[0].id, Input: proxy.settings.inputId }],
          ['no variant', {}],
        ] as const) {
          const r = await proxy.admin({ method: 'POST', path: LISTINGS[0], json: body, label: `${LISTINGS[0]} with ${what}` });
          mustBeRefused('B-PLAYLIST-ONE-VARIANT', r, `a PlaylistRequest with ${what}`, { control, expected: 'a 4xx: exactly one variant per body' });
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
        const replies: Array<[string, Reply]> = [];
        for (const [name, body] of bodies) replies.push([name, await proxy.admin({ method: 'POST', path: '/api/v1/playlist/epg', json: body, label: `EPG with the ${name} variant` })]);
        const open = openRefusals(proxy, 'POST /api/v1/playlist/epg', replies.map(([name, r]) => [`the ${name} variant`, r]));
        if (open) throw new NotTested(open);
        for (const [name, r] of replies) mustAnswer(r, 200, `POST /api/v1/playlist/epg with the ${name} variant`, { expected: '200 with EPG data' });
      });
    } finally {
      await provider?.close?.();
    }
  });

  /** What counting runs, and a refusal of invalid names beside its control, need: an update of valid names accepted. */
  const UPDATE_ACCEPTED = 'an update of valid target names accepted (202)';
  test('playlist update: 202 at once and for rapid repeats, one run queued; invalid names 400 when none is pending', { tag: reqTags('B-UPDATE-ACCEPTED', 'B-UPDATE-COLLAPSED', 'B-UPDATE-INVALID') }, async ({ stream: proxy, verify, notApplicable, notTested, api, reading, recorder }) => {
    const ids = ['B-UPDATE-ACCEPTED', 'B-UPDATE-COLLAPSED', 'B-UPDATE-INVALID'];
    if (proxy.scope.requirements['B-UPDATE-ACCEPTED']) return ids.forEach((id) => notApplicable(id, proxy.scope.requirements[id]));
    // The runs are counted: no other check may queue one meanwhile.
    await proxy.exclusive('update-runs');
    const pending = pendingUpdates(proxy, api);
    // Counting the runs before judges nothing: a target already given up on leaves the three rules undecided.
    const start = await beforeJudging(ids, { recorder, api, what: 'before the playlist updates' }, async () => {
      const observable = (await pending.runs()) !== undefined;
      await pending.idle();
      return { observable, before: await pending.runs() };
    });
    if (!start) return;
    const { observable, before } = start;
    // Only the reference may offer a way to count the runs (the documented interface shows none); a live target is not asked.
    if (!proxy.live) reading('B-NS-DUPLICATE-UPDATE', observable ? 'reference-observation' : 'not-observable');
    const names = [proxy.settings.targets[0].name];
    const replies: Reply[] = [];
    /** Whether an update of valid names was queued (202): what the other two rules need; a throttled or failing one decides nothing. */
    const queued = (sent: Reply[]) => sent.some((r, i) => updateJudged(r, i === 0 ? `an update of ${names[0]}` : `repeat ${i} of the update`) === 'accepted' && answered(r, 202));
    await verify('B-UPDATE-ACCEPTED', async () => {
      for (let i = 0; i < 4; i++) replies.push(pending.sent(await proxy.admin({ method: 'POST', path: '/api/v1/playlist/update', json: names, label: i === 0 ? 'update one target' : `the same update again (${i})` })));
      replies.forEach((r, i) => updateJudged(r, i === 0 ? `an update of ${names[0]}` : `repeat ${i} of the update`));
      const open = openRefusals(proxy, 'POST /api/v1/playlist/update', replies.map((r, i) => [i === 0 ? `an update of ${names[0]}` : `repeat ${i}`, r]), 202);
      if (open) throw new NotTested(open);
      const bad = replies.filter((r) => !answered(r, 202));
      if (bad.length) throw new RequirementViolation('B-UPDATE-ACCEPTED', `an update and its rapid repeats were answered ${replies.map((r) => r.status).join(', ')}`, '202 each time (queued or already pending)', replies.map((r) => r.exchange));
    });
    if (proxy.live) notTested('B-UPDATE-COLLAPSED', 'whether a second run was queued cannot be seen through the documented interface of a live target');
    else {
      await verify('B-UPDATE-COLLAPSED', async (seen) => {
        if (!observable) throw new NotTested('the target offers no way to see how many update runs were queued (B-NS-DUPLICATE-UPDATE)');
        if (!queued(replies)) return;
        seen(UPDATE_ACCEPTED);
        await pending.idle();
        const after = await pending.runs();
        const added = (after?.runs ?? 0) - (before?.runs ?? 0);
        if (added !== 1) throw deviation(`4 rapid updates of ${names[0]} made ${added} runs`, 'one run: rapid repeats collapse into one pending run');
      }, { needs: [UPDATE_ACCEPTED] });
    }
    await verify('B-UPDATE-INVALID', async (seen) => {
      // A refusal counts only beside its control: an update of valid names, which the target accepted.
      if (!queued(replies)) return;
      seen(UPDATE_ACCEPTED);
      const known = await pending.idle();
      const r = await proxy.admin({ method: 'POST', path: '/api/v1/playlist/update', json: ['conformance-no-such-target'], label: 'update a target that does not exist' });
      updateJudged(r, 'an update of a target that does not exist');
      if (answered(r, 400)) return;
      if (answered(r, 202) && proxy.live) throw new NotTested('answered 202: an update may still be pending on the live target, when any request gets 202');
      if (answered(r, 202) && !known) throw new NotTested(`answered 202: an update of the harness's may still be pending, when any request gets 202; the target shows no runs, and the profile does not state how long an update stays pending (settings.jobs.maxUpdatePendingMs)`);
      const why = answered(r, 202) && !observable ? ` (unless an update stayed pending longer than the ${proxy.settings.jobs.maxUpdatePendingMs} ms the profile states)` : '';
      throw new RequirementViolation('B-UPDATE-INVALID', `an update of an unknown target name, with no update pending, was answered ${r.status}${why}`, '400', [r.exchange]);
    }, { needs: [UPDATE_ACCEPTED] });
  });

  test('the web-player URL works at once and no longer once its token has expired', { tag: reqTags('B-WEBPLAYER', 'B-WEBPLAYER-EXPIRY') }, async ({ stream: proxy, api, verify, notApplicable, plannedWait, reading }, testInfo) => {
    const s = proxy.settings;
    let url: { url: URL; form: UrlForm } | undefined;
    await verify('B-WEBPLAYER', async () => {
      const r = await proxy.admin({ method: 'POST', path: '/api/v1/playlist/webplayer', json: { target_id: s.targets[0].id, cluster: s.webPlayer.cluster, virtual_id: s.webPlayer.virtualId }, label: 'web-player URL' });
      // The spelling of the cluster and the items a target lists are not shown: the profile states them, or guesses.
      const open = proxy.refusalOpen(r, { open: [WEBPLAYER_CLUSTER, WEBPLAYER_ITEM] });
      if (open) throw new NotTested(`the web-player request was ${open}`);
      const given = answered(r, 200) ? streamUrl(r) : undefined;
      if (!given) throw new RequirementViolation('B-WEBPLAYER', `the web-player request was answered ${r.status} ${r.text.trim().slice(0, 200)}`, '200 with a plain-text stream URL', [r.exchange]);
      const stream = await api.send({ method: 'GET', path: given.url.href, label: 'the stream URL, at once' });
      mustAnswer(stream, 200, 'the fresh stream URL', { expected: '200 while its token lives' });
      url = given;
    });
    if (proxy.scope.requirements['B-WEBPLAYER-EXPIRY']) return notApplicable('B-WEBPLAYER-EXPIRY', proxy.scope.requirements['B-WEBPLAYER-EXPIRY']);
    testInfo.setTimeout(testInfo.timeout + s.webPlayerTokenMs + 5000);
    await verify('B-WEBPLAYER-EXPIRY', async () => {
      if (!url) throw new NotTested('no working stream URL to watch expire');
      const wait = s.webPlayerTokenMs + 1000;
      plannedWait(wait);
      await new Promise((r) => setTimeout(r, wait));
      const late = await api.send({ method: 'GET', path: url.url.href, label: `the stream URL, ${wait} ms later` });
      // A browser-facing URL may send an expired visitor elsewhere: whether a redirect "works" is not for the harness to say.
      if (answerKind(late) === 'not-the-api') throw new NotTested(`the stream URL was answered ${late.status} (a redirect) ${wait} ms after it was issued: whether it still works cannot be told`);
      mustBeRefused('B-WEBPLAYER-EXPIRY', late, `the stream URL, ${wait} ms after it was issued (token lifetime ${s.webPlayerTokenMs} ms),`, {
        expected: 'refused once the token has expired (a 4xx)',
        control: { accepted: 'the same stream URL was answered 200 at once (B-WEBPLAYER)' },
      });
      recordWebPlayerUrl(reading, url.form, late);
    });
  });
});
