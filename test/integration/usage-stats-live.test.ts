/**
 * "Statistics are judged live too": the usage-events reference reached as a live target (a base URL, writes allowed).
 * A run ingests into a stretch of time of its own; two runs that share their stretches (two shards of the same seed
 * alone, so the same random offset and the same blocks) show that an earlier run's events, which a live target keeps,
 * never fail the statistics; and the reference with a seeded aggregation fault fails them against the same profile.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Value } from '@sinclair/typebox/value';
import { start } from '../../mocks/usage-events/server.ts';
import { usageEventsEntry, type UsageEventsSettings } from '../../interfaces/usage-events/settings.ts';
import { conformance, freshDir, readSummary, requirement, withStatus } from './helpers.ts';

const TOKEN = 'usage-stats-live-token-0123456789';
const env = { TEST_USAGE_TOKEN: TOKEN };
const METERS = [
  { id: 'conformance-api-calls', filter: { conjunction: 'and', clauses: [{ property: 'name', operator: 'eq', value: 'conformance.api_call' }] }, aggregation: { func: 'count' } },
  { id: 'conformance-premium-units', filter: { conjunction: 'or', clauses: [{ property: 'tier', operator: 'eq', value: 'tier_b' }, { property: 'units', operator: 'gte', value: 80 }] }, aggregation: { func: 'sum', property: 'units' } },
];
const STATS = ['D-STATS-ROWS', 'D-STATS-INTERVALS', 'D-STATS-COUNT', 'D-STATS-SUM'];

function profile(baseUrl: string): string {
  const file = path.join(freshDir('profile'), 'usage-live-stats.yaml');
  const settings = { meters: METERS, queryableWithinMs: 3000 };
  writeFileSync(file, ['name: usage-live-stats', 'writes: true', 'requestTimeoutMs: 3000', 'interfaces:', '  usage-events:', `    baseUrl: ${baseUrl}`, '    credentials: { accessToken: TEST_USAGE_TOKEN }', `    settings: ${JSON.stringify(settings)}`].join('\n'));
  return file;
}

const servers: Array<{ close(): Promise<void> }> = [];
after(async () => void (await Promise.all(servers.map((s) => s.close()))));

async function reference(fault?: string): Promise<string> {
  const settings = Value.Default(usageEventsEntry().properties.settings, { meters: METERS }) as UsageEventsSettings;
  const s = await start({ settings, reference: { queryableAfterMs: 30 }, secrets: { accessToken: TOKEN }, fault, host: '127.0.0.1', port: 0 });
  servers.push(s);
  return s.url;
}

// The statistics property alone, at quick depth, as one shard of one: the stretches depend on the seed alone.
const run = (target: string) => conformance(['--target', target, '--interfaces', 'usage-events', '--grep', 'statistics', '--seed', '11', '--depth', 'quick', '--shard', '1/1', '--strict'], env, 90_000);

describe('usage-events statistics against a live target', () => {
  test('are judged, and pass; a second run in the same stretches of time steps over the first run\'s events', { timeout: 200_000 }, async () => {
    const target = profile(await reference());
    const first = await run(target);
    assert.equal(first.code, 0, first.out.slice(-3000));
    const s1 = readSummary(first.reports);
    for (const id of STATS) assert.equal(requirement(s1, id).status, 'passed', id);
    const second = await run(target);
    assert.equal(second.code, 0, second.out.slice(-3000));
    const s2 = readSummary(second.reports);
    for (const id of STATS) assert.equal(requirement(s2, id).status, 'passed', id);
    assert.ok(!s1.notes.some((n) => /already held events/.test(n)), s1.notes.join('\n'));
    assert.ok(s2.notes.some((n) => /already held events/.test(n)), `the second run met the first run's events: ${s2.notes.join('\n')}`);
  });

  test('fail with a seeded aggregation fault', { timeout: 100_000 }, async () => {
    const faulty = await run(profile(await reference('sum-as-count')));
    assert.equal(faulty.code, 1, faulty.out.slice(-3000));
    const s = readSummary(faulty.reports);
    assert.equal(requirement(s, 'D-STATS-SUM').status, 'failed');
    assert.deepEqual(withStatus(s, 'failed'), ['D-STATS-SUM']);
  });
});
