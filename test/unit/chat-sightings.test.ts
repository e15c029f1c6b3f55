/**
 * What the chat suite makes of answers it never judges: which reading of an open point of specs/chat.yaml an answer
 * shows (suites/chat/sightings.ts), and the client addresses it writes (suites/chat/driver.ts), which a limiter keying
 * IPv6 clients by network (E-NS-IPV6-KEY) must still count apart.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Reply } from '../../harness/http/client.ts';
import { answerKind } from '../../harness/answers.ts';
import { addressOf, networkNeighbour } from '../../suites/chat/driver.ts';
import { readingsOf, sightAllowed, sightBadBodyAnswers, sightLimited } from '../../suites/chat/sightings.ts';

function reply(status: number, type: string, body: unknown, headers: Record<string, string> = {}, ms = 3): Reply {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  const answer = { status, headers: { 'content-type': type, ...headers } };
  return { ...answer, kind: answerKind(answer), text, json: typeof body === 'string' ? undefined : body, sentAt: 0, headersAt: ms, receivedAt: ms, exchange: {} as Reply['exchange'] };
}

function sightings(f: (record: (point: string, reading: string | undefined, detail?: string) => void) => void): Record<string, string | undefined> {
  const seen: Record<string, string | undefined> = {};
  f((point, reading, detail) => void (seen[point] = reading ?? `? ${detail}`));
  return seen;
}

test('an allowed reply: its body, rate-limit headers and reply time', () => {
  assert.deepEqual(sightings((r) => sightAllowed(reply(200, 'application/json', { reply: 'hola' }), r)), {
    'E-NS-SUCCESS-BODY': 'json-reply',
    'E-NS-ALLOWED-HEADERS': 'none',
    'E-NS-REPLY-TIME': 'immediate',
  });
  const streamed = sightings((r) => sightAllowed(reply(200, 'text/event-stream; charset=utf-8', 'data: {}\n\n', { 'x-ratelimit-remaining': '3' }, 1200), r));
  assert.deepEqual(streamed, { 'E-NS-SUCCESS-BODY': 'sse-stream', 'E-NS-ALLOWED-HEADERS': 'x-ratelimit', 'E-NS-REPLY-TIME': 'model-latency' });
  assert.equal(sightings((r) => sightAllowed(reply(200, 'application/json', { object: 'chat.completion' }), r))['E-NS-SUCCESS-BODY'], 'openai-json');
  assert.match(sightings((r) => sightAllowed(reply(200, 'application/xml', '<a/>'), r))['E-NS-SUCCESS-BODY'] ?? '', /^\? 200 application\/xml/);
});

test('a 429: media type, members, sentence, rounding', () => {
  const body = { type: 'about:blank', title: 'Too Many Requests', status: 429, error: 'Too Many Requests', message: 'Has superado el límite de solicitudes. Por favor, vuelve a intentarlo en unos segundos.', retryAfter: 2.417 };
  assert.deepEqual(sightings((r) => sightLimited(reply(429, 'application/problem+json', body, { 'retry-after': '3' }), [2300, 2500], r)), {
    'E-NS-LIMITED-MEDIA-TYPE': 'problem-json',
    'E-NS-LIMITED-BODY-MEMBERS': 'documented-members',
    'E-NS-MESSAGE-TEXT': 'tu-sentence',
    'E-NS-RETRY-ROUNDING': 'body-unrounded',
  });
  const plain = { error: 'Too Many Requests', message: 'Otra frase.', retryAfter: 3, limit: 5, windowMs: 3000, resetAt: 'x' };
  const seen = sightings((r) => sightLimited(reply(429, 'application/json', plain, { 'retry-after': '3' }), [2100, 2300], r));
  assert.equal(seen['E-NS-LIMITED-BODY-MEMBERS'], 'with-limit-details');
  assert.match(seen['E-NS-MESSAGE-TEXT'] ?? '', /^\? another sentence/);
  // Rounded up from below half a second: up, not to the nearest.
  assert.equal(seen['E-NS-RETRY-ROUNDING'], 'ceil');
  const down = sightings((r) => sightLimited(reply(429, 'application/json', { ...plain, retryAfter: 2 }, { 'retry-after': '2' }), [2100, 2300], r));
  assert.equal(down['E-NS-RETRY-ROUNDING'], 'round');
});

test('refusals of bad bodies', () => {
  const json400 = reply(400, 'application/json', { error: 'Bad Request' });
  assert.deepEqual(sightings((r) => sightBadBodyAnswers([json400], [json400], r)), { 'E-NS-BAD-BODY-ANSWER': '400-json' });
  assert.deepEqual(sightings((r) => sightBadBodyAnswers([json400], [reply(422, 'application/json', { issues: [] })], r)), { 'E-NS-BAD-BODY-ANSWER': '422-validation' });
  assert.deepEqual(sightings((r) => sightBadBodyAnswers([reply(400, 'text/plain', 'no')], [reply(400, 'text/plain', 'no')], r)), { 'E-NS-BAD-BODY-ANSWER': '400-text' });
});

test('a test records only the points whose requirements it is tagged with', () => {
  const seen = sightings((r) => sightAllowed(reply(200, 'application/json', { reply: 'hola' }), readingsOf(['E-CLIENT-ID-XFF-FIRST'], r)));
  // E-NS-SUCCESS-BODY and E-NS-REPLY-TIME list E-CLIENT-ID-XFF-FIRST, E-NS-ALLOWED-HEADERS does not.
  assert.deepEqual(Object.keys(seen).sort(), ['E-NS-REPLY-TIME', 'E-NS-SUCCESS-BODY']);
});

test('IPv6 clients of the harness differ within their first 56 bits; a neighbour shares the /56 only', () => {
  const a = addressOf('v6', '198.18.7.39');
  const b = addressOf('v6', '198.18.7.40');
  const c = addressOf('v6', '198.19.7.39');
  assert.equal(a, '2001:db8:727:12c6::1');
  const prefix56 = (x: string) => x.split(':').slice(2, 4).map((g) => g.padStart(4, '0')).join('').slice(0, 6);
  assert.notEqual(prefix56(a), prefix56(b));
  assert.notEqual(prefix56(a), prefix56(c));
  const n = networkNeighbour(a);
  assert.equal(prefix56(n), prefix56(a));
  assert.notEqual(n.split(':')[3], a.split(':')[3]);
  assert.equal(addressOf('v4-mapped', '198.18.7.39'), '::ffff:198.18.7.39');
});
