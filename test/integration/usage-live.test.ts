/**
 * "A profile without writes, pointed at a recording server, proves that nothing is ingested": the usage-events
 * reference, holding a few events of another client, behind a recorder of the test's own, reached as a live target.
 * Ingesting bills customers, so a read-only run may send an ingest only as a request that must be refused (no token
 * or a wrong one, with an empty batch), and the store must hold afterwards exactly what it held before.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Value } from '@sinclair/typebox/value';
import { start } from '../../mocks/usage-events/server.ts';
import { usageEventsEntry, type UsageEventsSettings } from '../../interfaces/usage-events/settings.ts';
import { conformance, freshDir, readSummary, requirement, sleep, startProxy, withStatus, type Proxy, type Ran } from './helpers.ts';

const TOKEN = 'usage-live-access-token-0123456789';
const env = { TEST_USAGE_TOKEN: TOKEN };
const INGEST = '/v1/events/ingest';

// The meters of targets/reference.yaml, so that the metered reads are in scope and only the lack of writes rules them out.
const METERS = [
  { id: 'conformance-api-calls', filter: { conjunction: 'and', clauses: [{ property: 'name', operator: 'eq', value: 'conformance.api_call' }] }, aggregation: { func: 'count' } },
  { id: 'conformance-premium-units', filter: { conjunction: 'or', clauses: [{ property: 'tier', operator: 'eq', value: 'tier_b' }, { property: 'units', operator: 'gte', value: 80 }] }, aggregation: { func: 'sum', property: 'units' } },
];

// Another client's events, well outside the harness's stretches of time, so that a read can only find these.
const PRESET = [1, 2, 3].map((i) => ({ name: 'preset.api_call', external_customer_id: `usage-live-preset-${i}`, timestamp: `2020-01-0${i}T12:00:00Z`, properties: { units: i, seq: `usage-live-preset-${i}` } }));

interface Recorded {
  method: string;
  path: string;
  /** Whether the request carried Authorization: Bearer <the right token>: only such an ingest could store anything. */
  authorized: boolean;
  /** The length of the body's events array, for an ingest (undefined when the body has none). */
  events?: number;
  status: number;
}

function profile(name: string, baseUrl: string, writes = false): string {
  const file = path.join(freshDir('profile'), `${name}.yaml`);
  writeFileSync(
    file,
    [
      `name: ${name}`,
      `writes: ${writes}`,
      'requestTimeoutMs: 3000',
      'interfaces:',
      '  usage-events:',
      `    baseUrl: ${baseUrl}`,
      '    credentials: { accessToken: TEST_USAGE_TOKEN }',
      `    settings: ${JSON.stringify({ meters: METERS })}`,
    ].join('\n'),
  );
  return file;
}

function eventsIn(body: Buffer): number | undefined {
  try {
    const parsed = JSON.parse(body.toString('utf8')) as { events?: unknown };
    return Array.isArray(parsed.events) ? parsed.events.length : undefined;
  } catch {
    return undefined;
  }
}

/** Every event the reference holds, asked of it directly (not through the recorder, which would count the reads). */
async function stored(url: string): Promise<Array<Record<string, unknown>>> {
  const r = await fetch(`${url}/v1/events?limit=100`, { headers: { authorization: `Bearer ${TOKEN}` } });
  assert.equal(r.status, 200);
  return ((await r.json()) as { items: Array<Record<string, unknown>> }).items;
}

describe('usage-events: a profile without writes, against a recording server, ingests nothing', () => {
  let reference: { url: string; close(): Promise<void> };
  let recorder: Proxy;
  const recorded: Recorded[] = [];
  let run: Ran;

  before(async () => {
    const settings = Value.Default(usageEventsEntry().properties.settings, { meters: METERS }) as UsageEventsSettings;
    reference = await start({ settings, reference: { queryableAfterMs: 30 }, secrets: { accessToken: TOKEN }, host: '127.0.0.1', port: 0 });
    const preset = await fetch(`${reference.url}${INGEST}`, { method: 'POST', headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' }, body: JSON.stringify({ events: PRESET }) });
    assert.equal(preset.status, 200, await preset.text());
    // Past queryableAfterMs, so that the run's reads (and the count below) see all three.
    await sleep(100);
    assert.equal((await stored(reference.url)).length, 3);
    recorder = await startProxy(reference.url, async (req, forward) => {
      const answer = await forward();
      recorded.push({
        method: req.method,
        path: req.path,
        authorized: req.headers.authorization === `Bearer ${TOKEN}`,
        events: req.path.split('?')[0] === INGEST ? eventsIn(req.body) : undefined,
        status: answer.status,
      });
      return answer;
    });
    run = await conformance(['--target', profile('usage-read-only', recorder.url), '--interfaces', 'usage-events', '--seed', '7'], env, 60_000);
  }, { timeout: 70_000 });

  after(async () => {
    await recorder?.close();
    await reference?.close();
  });

  test('the run passes', () => {
    assert.equal(run.code, 0, run.out.slice(-3000));
    assert.ok(recorded.length > 0, 'the run reached the recorder');
  });

  test('no ingest carried the token, every ingest sent was an empty batch, and each was refused', () => {
    const ingests = recorded.filter((r) => r.method === 'POST' && r.path.split('?')[0] === INGEST);
    assert.deepEqual(ingests.filter((r) => r.authorized), [], JSON.stringify(ingests));
    assert.ok(ingests.every((r) => r.events === 0), JSON.stringify(ingests));
    assert.ok(ingests.every((r) => r.status >= 400 && r.status < 500), JSON.stringify(ingests));
    // D-AUTH's refusals (no token, a wrong token) are the only reason for an ingest here: without them it was not judged.
    assert.ok(ingests.length >= 2, `D-AUTH sent its refused ingests (${ingests.length})`);
  });

  test('only reads reached the target besides those refused ingests', () => {
    const others = recorded.filter((r) => r.method !== 'GET' && !(r.method === 'POST' && r.path.split('?')[0] === INGEST && !r.authorized));
    assert.deepEqual(others, []);
  });

  test('the reference holds exactly the three events it held before the run', async () => {
    const items = await stored(reference.url);
    assert.deepEqual(items.map((e) => e.external_customer_id).sort(), PRESET.map((e) => e.external_customer_id).sort());
  });

  test('the summary lists every ingest sent, each refused, and no other write; it rules out what needs events of its own, and judges auth and the reads', () => {
    const s = readSummary(run.reports);
    assert.equal(s.profile.writes, false);
    // Exactly what the recording proxy saw: every request that could change state, each marked refused.
    const ingests = recorded.filter((r) => r.method === 'POST' && r.path.split('?')[0] === INGEST);
    assert.equal(s.writes.length, ingests.length, JSON.stringify(s.writes));
    assert.ok(s.writes.every((w) => w.operation === 'POST /v1/events/ingest' && w.outcome === 'refused' && !w.acceptedWhileForbidden), JSON.stringify(s.writes));
    for (const id of ['D-INGEST-ACCEPTED', 'D-IDEMPOTENCY', 'D-FILTER-TIME', 'D-STATS-COUNT']) assert.equal(requirement(s, id).status, 'not-applicable', id);
    for (const id of ['D-AUTH', 'D-GET-EVENT']) assert.equal(requirement(s, id).status, 'passed', id);
    assert.deepEqual(withStatus(s, 'failed'), []);
  });

  test('--list says no event will be ingested, and which ingests are sent to be refused', { timeout: 30_000 }, async () => {
    const before = recorded.length;
    const listed = await conformance(['--list', '--target', profile('usage-read-only-list', recorder.url), '--interfaces', 'usage-events'], {}, 25_000);
    assert.equal(listed.code, 0, listed.out);
    assert.match(listed.out, /writes not allowed/);
    const line = listed.out.split('\n').find((l) => l.trim().startsWith(`POST ${INGEST}:`));
    assert.ok(line, listed.out);
    assert.match(line, /: not as a write: the profile does not allow writes: .*only requests that must be refused are sent/);
    assert.equal(recorded.length, before, '--list sent nothing');
  });
});

/**
 * Ingesting bills customers: where the answer leaves unknown whether an ingest was taken (a gateway's 503 after the
 * backend took it, a connection reset before the answer came back), the report's list of ingests claims neither way.
 */
describe('usage-events: an ingest taken behind a 503 or a reset is listed, of unknown effect, never as not taken', () => {
  let reference: { url: string; close(): Promise<void> };
  let proxy: Proxy;
  const recorded: Recorded[] = [];
  let run: Ran;

  before(async () => {
    const settings = Value.Default(usageEventsEntry().properties.settings, { meters: METERS }) as UsageEventsSettings;
    reference = await start({ settings, reference: { queryableAfterMs: 30 }, secrets: { accessToken: TOKEN }, host: '127.0.0.1', port: 0 });
    let taken = 0;
    proxy = await startProxy(reference.url, async (req, forward) => {
      const events = req.path.split('?')[0] === INGEST ? eventsIn(req.body) : undefined;
      const authorized = req.headers.authorization === `Bearer ${TOKEN}`;
      // The backend takes every request; an authenticated batch's answer is then lost: the first to a reset, the
      // others to a balancer's 503 page.
      const answer = await forward();
      const lost = req.method === 'POST' && authorized && (events ?? 0) > 0;
      recorded.push({ method: req.method, path: req.path, authorized, events, status: lost ? (taken === 0 ? 0 : 503) : answer.status });
      if (!lost) return answer;
      return taken++ === 0 ? 'drop' : { status: 503, headers: { 'content-type': 'text/html' }, body: '<html><body>503 Service Unavailable</body></html>' };
    });
    run = await conformance(['--target', profile('usage-ingest-lost', proxy.url, true), '--interfaces', 'usage-events', '--grep', 'bearer token', '--seed', '7'], env, 60_000);
  }, { timeout: 70_000 });

  after(async () => {
    await proxy?.close();
    await reference?.close();
  });

  test('the batches whose answers were lost were taken: the reference holds their events', async () => {
    const lost = recorded.filter((r) => r.method === 'POST' && r.authorized && (r.events ?? 0) > 0);
    assert.ok(lost.length >= 2, `a reset and a 503 (${JSON.stringify(recorded)})`);
    assert.ok((await stored(reference.url)).length >= lost.length, 'the events of the lost answers are stored');
  });

  test('the summary lists every ingest sent, the lost ones of unknown effect, none claimed taken or refused', () => {
    const s = readSummary(run.reports);
    const ingests = recorded.filter((r) => r.method === 'POST' && r.path.split('?')[0] === INGEST);
    const listed = s.writes.filter((w) => w.operation === 'POST /v1/events/ingest');
    assert.equal(listed.length, ingests.length, `${JSON.stringify(listed)} for ${JSON.stringify(ingests)}`);
    const lost = ingests.filter((r) => r.authorized && (r.events ?? 0) > 0).length;
    assert.equal(listed.filter((w) => w.outcome === 'other').length, lost, JSON.stringify(listed));
    assert.deepEqual(listed.filter((w) => w.outcome === undefined), [], 'no ingest is claimed taken');
    // What the lost answers were to judge is undecided, never passed nor failed.
    assert.ok(!['passed', 'failed'].includes(requirement(s, 'D-AUTH').status), run.out.slice(-2000));
  });
});
