/**
 * The unified-exchange suite's readings of answers (issue 43): an order lookup says "absent" only as the document has
 * it said; a test's own steps that meet trouble leave its requirements inconclusive; conservation on shared accounts.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { TestInfo } from '@playwright/test';
import { Undecided } from '../../harness/answers.ts';
import type { Client, Reply } from '../../harness/http/client.ts';
import { TargetError } from '../../harness/http/client.ts';
import { loadProfile } from '../../harness/profile/load.ts';
import type { Profile } from '../../harness/profile/types.ts';
import type { Recorder } from '../../harness/recorder.ts';
import type { Target } from '../../harness/targets.ts';
import { Inconclusive, NotTested, reqTags } from '../../harness/verdicts.ts';
import type { WriteJournal } from '../../harness/writes.ts';
import { balanceIn } from '../../suites/unified-exchange/balance-reads.ts';
import { guarded } from '../../suites/unified-exchange/guarded.ts';
import { ordersOf } from '../../suites/unified-exchange/orders.ts';
import { exclusiveAccounts } from '../../suites/unified-exchange/profile.ts';
import { undecidedWhy as decidesNothing } from '../../harness/answers.ts';

const UX = 'unified-exchange';
const base = loadProfile('targets/reference.yaml');

/** The reference profile, with `stated` settings of the unified exchange's entry stated as given. */
function profileStating(settings: Record<string, unknown> = {}): Profile {
  const entry = base.interfaces[UX]!;
  const merged = { ...(entry.settings as Record<string, unknown>), ...settings };
  return { ...base, interfaces: { ...base.interfaces, [UX]: { ...entry, settings: merged } }, stated: { ...base.stated, [UX]: [...(base.stated?.[UX] ?? []), ...Object.keys(settings).flatMap(flatKeys(settings))] } } as unknown as Profile;
}
const flatKeys = (o: Record<string, unknown>) => (k: string): string[] => {
  const v = o[k];
  return v && typeof v === 'object' && !Array.isArray(v) ? [k, ...Object.keys(v).flatMap(flatKeys(v as Record<string, unknown>)).map((s) => `${k}.${s}`)] : [k];
};

const lookupReply = (status: number, json?: unknown): Reply => {
  const kind = status >= 500 ? 'server-error' : status === 429 ? 'throttled' : status >= 400 ? 'refused' : 'accepted';
  return { status, kind, headers: { 'content-type': 'application/json' }, text: JSON.stringify(json ?? {}), json, sentAt: 0, receivedAt: 0, headersAt: 0, exchange: { label: 'look up order 1 by orderId', operation: 'GET /api/v3/trade/order-info', request: { method: 'GET', url: 'http://x/', headers: [] }, startedAt: 0, durationMs: 0 } } as unknown as Reply;
};
const orders = (profile = profileStating()) => ordersOf({ api: {} as Client, profile, target: { reference: {} } as unknown as Target, writes: {} as WriteJournal });

test('an order lookup reads "absent" only on a success without the order or the not-found refusal', () => {
  const o = orders();
  assert.equal(o.read(lookupReply(200, { code: '00000', data: null })).state, 'absent');
  assert.equal(o.read(lookupReply(200, { code: '00000', data: { orderId: '1', status: 'live' } })).state, 'open');
  // Unstated, the readings of U-NS-STATE-STATUS answer an unknown order 400 or 404.
  assert.equal(o.read(lookupReply(404, { code: '43025' })).state, 'absent');
  assert.equal(o.read(lookupReply(400, { code: '43025' })).state, 'absent');
});

test('a lookup throttled, answered 5xx or refused for another reason is no "absent": it is thrown', () => {
  const o = orders();
  assert.throws(() => o.read(lookupReply(429)), (e) => e instanceof Undecided && e.kind === 'throttled');
  assert.throws(() => o.read(lookupReply(500)), (e) => e instanceof Undecided && e.kind === 'server-error' && /GEN-NO-5XX/.test(e.message));
  // A key refused its lookup (403) says nothing of the order.
  assert.throws(() => o.read(lookupReply(403, { code: '40014' })), (e) => e instanceof Inconclusive && !(e instanceof Undecided) && /not the document's not-found answer/.test(e.message));
  // Where the profile states the state refusal's status, only it and 404 say "not found".
  const stated = orders(profileStating({ refusalStatus: { auth: 401, permission: 403, validation: 400, state: 409, throttle: 429 } }));
  assert.deepEqual(stated.notFoundStatuses, [409, 404]);
  assert.throws(() => stated.read(lookupReply(400)), Inconclusive);
  assert.equal(stated.read(lookupReply(409)).state, 'absent');
});

test('a read of balances throttled shows nothing, and says why', () => {
  const r = balanceIn(lookupReply(429), 'USDT', 'available', 'the account assets');
  assert.ok('unreadable' in r && /429, throttled/.test(r.unreadable));
});

test('an answer that decides nothing is named, the API\'s own answers are not', () => {
  assert.match(decidesNothing(lookupReply(429), 'the book') ?? '', /the book .* was throttled/);
  assert.match(decidesNothing(lookupReply(503), 'the book') ?? '', /server error/);
  assert.equal(decidesNothing(lookupReply(400), 'the book'), undefined);
  assert.equal(decidesNothing(lookupReply(200), 'the book'), undefined);
});

/** A recorder that keeps what it is told, for guarded(). */
function recorder(): Recorder & { seen: Array<[string, string, string | undefined]> } {
  const seen: Array<[string, string, string | undefined]> = [];
  return { seen, judged: (id: string) => seen.some(([s]) => s === id), record: (id: string, status: string, why?: string) => void seen.push([id, status, why]) } as unknown as Recorder & { seen: typeof seen };
}
const info = { tags: reqTags('U-ORDER-LOOKUP-UNKNOWN', 'U-CANCEL-UNKNOWN') } as unknown as TestInfo;

test("a test's own steps that meet trouble leave what it has not judged inconclusive, naming it", async () => {
  const r = recorder();
  r.record('U-CANCEL-UNKNOWN', 'passed');
  await guarded(r, info, async () => {
    throw new Undecided('a far SPOT buy (POST /api/v3/trade/place-order) was throttled (429)', 'throttled', {} as Reply['exchange']);
  });
  assert.deepEqual(r.seen[1], ['U-ORDER-LOOKUP-UNKNOWN', 'inconclusive', 'a far SPOT buy (POST /api/v3/trade/place-order) was throttled (429)']);
  assert.equal(r.seen.length, 2, 'what was judged stays judged');

  const given = recorder();
  await guarded(given, info, async () => {
    throw new TargetError('POST /x: not sent: the target stopped answering', {} as Reply['exchange'], 'given-up');
  });
  assert.ok(given.seen.every(([, status, why]) => status === 'inconclusive' && /^outage: /.test(why ?? '')));

  const untested = recorder();
  await guarded(untested, info, async () => {
    throw new NotTested('a resting order was refused: the countdown needs open orders to cancel');
  });
  assert.ok(untested.seen.every(([, status]) => status === 'not-tested'));
});

test("a harness error in a test's own steps still breaks it", async () => {
  await assert.rejects(guarded(recorder(), info, async () => {
    throw new TypeError('x is undefined');
  }), TypeError);
});

test('only the harness moves the funds where the profile says so; unstated, on the embedded reference, not on a live target', () => {
  assert.equal(exclusiveAccounts(profileStating(), true), true);
  assert.equal(exclusiveAccounts(profileStating(), false), false);
  assert.equal(exclusiveAccounts(profileStating({ exclusiveAccounts: false }), true), false);
  assert.equal(exclusiveAccounts(profileStating({ exclusiveAccounts: true }), false), true);
});
