/**
 * Whose 429 it is (issue 43): the chat driver (suites/chat/driver.ts) against small in-memory limiters, behind a
 * gateway that throttles the harness or not. A 429 no client could have earned is taken for the environment's (no
 * counting or client-identity rule fails on it) unless it is told apart as the limiter's own; a limiter that really
 * shares one counter between clients is still caught, and a correct one passes.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { answerKind } from '../../harness/answers.ts';
import type { Client, Reply, RequestSpec } from '../../harness/http/client.ts';
import type { Exchange } from '../../harness/http/exchange.ts';
import type { ChatSettings } from '../../harness/profile/types.ts';
import { Inconclusive, NotTested, RequirementViolation } from '../../harness/verdicts.ts';
import { ChatRun } from '../../suites/chat/driver.ts';

const SETTINGS = { windowMs: 60_000, maxRequests: 3, instances: 1, clientAddressesPreserved: true, developmentMode: false } as ChatSettings;

/** What answers a chat request, at a time of the fake clock: a status, headers and a body. */
type Answer = { status: number; headers: Record<string, string>; body: unknown };
type Server = (client: string, now: number) => Answer;

/** A sliding-window limiter as the document describes it; `shared`: one counter for every client (a seeded bug). */
function limiter(o: { shared?: boolean } = {}): Server {
  const stamps = new Map<string, number[]>();
  return (client, now): Answer => {
    const key = o.shared ? 'everyone' : client;
    const mine = (stamps.get(key) ?? []).filter((t) => t > now - SETTINGS.windowMs);
    stamps.set(key, mine);
    if (mine.length >= SETTINGS.maxRequests) {
      const wait = Math.ceil((mine[0] + SETTINGS.windowMs - now) / 1000);
      return { status: 429, headers: { 'content-type': 'application/json', 'retry-after': String(wait), 'x-ratelimit-remaining': '0' }, body: { error: 'Too Many Requests', message: 'Has superado el límite de solicitudes. Por favor, vuelve a intentarlo en unos segundos.', retryAfter: wait } };
    }
    mine.push(now);
    return { status: 200, headers: { 'content-type': 'application/json' }, body: { reply: 'Hola' } };
  };
}

/** A gateway in front: after `after` requests it answers every one 429 itself, with a body of its own. */
function gateway(inner: Server, after: number): Server {
  let seen = 0;
  return (client, now) => (++seen > after ? { status: 429, headers: { 'content-type': 'application/json', 'retry-after': '1' }, body: { message: 'API rate limit exceeded' } } : inner(client, now));
}

/** A client of the harness's Client shape over a server, on a fake clock that moves a millisecond a request. */
function fakeApi(server: Server): Client {
  let clock = 1_000;
  return {
    async send(spec: RequestSpec): Promise<Reply> {
      const sentAt = clock++;
      const client = String((spec.headers as Record<string, string> | undefined)?.['X-Forwarded-For'] ?? 'socket').split(',')[0].trim();
      const a = server(client, sentAt);
      const receivedAt = clock++;
      const text = JSON.stringify(a.body);
      // Labelled with the client, so that a test can tell whose answer the evidence ends with.
      const exchange = { label: client, operation: 'POST /api/chat', request: { method: 'POST', url: 'http://chat/api/chat', headers: [] }, response: { status: a.status, headers: a.headers, body: text }, startedAt: sentAt, durationMs: 1 } as unknown as Exchange;
      return { status: a.status, kind: answerKind(a), headers: a.headers, text, json: a.body, sentAt, headersAt: receivedAt, receivedAt, exchange };
    },
  } as unknown as Client;
}

let address = 0;
const fresh = () => `198.18.${Math.floor(++address / 250)}.${address % 250}`;

/** Two clients fill their windows side by side, then each sends once more; the verdicts of the counting rules. */
async function verdicts(server: Server, runs: ChatRun[] = []): Promise<Record<string, string>> {
  const ids = ['E-LIMIT-ALLOWED', 'E-LIMIT-429', 'E-PER-CLIENT', 'E-CLIENT-ID-XFF-FIRST', 'E-429-BODY-ERROR'];
  const run = new ChatRun(fakeApi(server), SETTINGS, fresh, (id) => ids.includes(id));
  runs.push(run);
  const a = run.client();
  const b = run.client();
  await run.together([
    async () => {
      await run.fill(a);
      await run.send(b);
    },
    async () => {
      await run.fill(b, 'xff-spaced');
    },
  ]);
  const out: Record<string, string> = {};
  await run.judge(async (id, check) => {
    try {
      await check();
      out[id] = 'passed';
      return true;
    } catch (e) {
      // A violation fails every requirement it names with the same evidence, as the recorder does.
      if (e instanceof RequirementViolation) for (const other of e.requirements) out[other] = 'failed';
      out[id] = e instanceof RequirementViolation ? 'failed' : e instanceof Inconclusive ? 'inconclusive' : e instanceof NotTested ? 'not-tested' : `broke: ${e}`;
      return false;
    }
  }, ids);
  return out;
}

test('a correct limiter: the limit is seen and nothing fails', async () => {
  const v = await verdicts(limiter());
  assert.equal(v['E-LIMIT-429'], 'passed');
  assert.equal(v['E-429-BODY-ERROR'], 'passed');
  assert.ok(!Object.values(v).includes('failed'), JSON.stringify(v));
});

test('a gateway answering every request 429: nothing fails, nothing passes, the counting rules are inconclusive', async () => {
  const v = await verdicts(gateway(limiter(), 0));
  assert.ok(!Object.values(v).includes('failed'), JSON.stringify(v));
  assert.ok(!Object.values(v).includes('passed'), JSON.stringify(v));
  assert.equal(v['E-LIMIT-ALLOWED'], 'inconclusive');
  assert.equal(v['E-PER-CLIENT'], 'inconclusive');
});

test('a gateway that starts throttling mid-fill: a client with a stamp or two is not blamed for the gateway\'s 429', async () => {
  for (const after of [1, 2, 3, 4]) {
    const v = await verdicts(gateway(limiter(), after));
    assert.ok(!Object.values(v).includes('failed'), `after ${after}: ${JSON.stringify(v)}`);
  }
});

test('a limiter with one counter for every client is still caught: its 429 is the limiter\'s own', async () => {
  const runs: ChatRun[] = [];
  const v = await verdicts(limiter({ shared: true }), runs);
  assert.equal(v['E-PER-CLIENT'], 'failed', JSON.stringify(v));
  // The evidence ends with the answer that broke the rule (the report shows the last exchange as "the answer", with
  // its curl): the limited client's 429, after the fresh client that told the cause apart.
  const d = runs[0].deviations.find((x) => x.ids.includes('E-PER-CLIENT'))!;
  const last = d.exchanges.at(-1)!;
  assert.equal(last.response?.status, 429);
  assert.ok(d.message.startsWith(`${last.label} `), `the evidence ends with ${last.label}'s answer; the deviation is ${d.message.slice(0, 60)}`);
  assert.ok(d.exchanges.length > 1 && d.exchanges.slice(0, -1).some((ex) => ex.label !== last.label), 'the witness comes before it');
});
