/**
 * The chat model (suites/chat/model.ts) held to document 002, "Interface E", row by row: the state table of the rate
 * limiter, the sentence on pruning, the sentence on instances and the sentence that says who a client is. The
 * expectations come from the document's words (quoted above each group), not from the embedded reference. Last, the
 * language identification the suite applies to the 429 message ("a fixed Spanish-language sentence").
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { CLOCK_SLACK_MS, SlidingWindow, clientIdOf, placeOf, type When } from '../../suites/chat/model.ts';
import { identifySpanish } from '../../suites/chat/language.ts';
import { COUNTING, DEV, chatScope, isLoopbackUrl, notApplicableIn } from '../../suites/chat/scope.ts';
import { ENGLISH_LIMIT_MESSAGE, LIMIT_MESSAGE } from '../../mocks/chat/server.ts';

const W = 1000; // windowMs
const M = 3; // maxRequests
/** An exchange the server handled at exactly `t` (sent and answered at the same instant). */
const at = (t: number): When => ({ sentAt: t, receivedAt: t });
/** A client with one stamp per time, all allowed. */
function withStamps(times: number[], model = new SlidingWindow(W, M)): SlidingWindow {
  for (const t of times) model.record('c', at(t), false);
  return model;
}

describe('| fewer than maxRequests stamps in window | chat request | always | stamp added; allowed | request proceeds |', () => {
  test('a client without stamps is allowed', () => {
    const e = new SlidingWindow(W, M).expect('c', at(0));
    assert.equal(e.answer, 'allowed');
    assert.equal(e.possible, 0);
  });

  test('with 1 .. maxRequests - 1 stamps in the window, the next request is still allowed', () => {
    for (let k = 1; k < M; k++) {
      const times = Array.from({ length: k }, (_, i) => i * 10);
      const e = withStamps(times).expect('c', at(100));
      assert.equal(e.answer, 'allowed', `${k} stamps`);
      assert.equal(e.certain, k);
    }
  });

  test('"stamp added": an allowed request adds a stamp', () => {
    const model = withStamps([0]);
    model.record('c', at(10), false);
    assert.equal(model.stampsOf('c').length, 2);
  });
});

describe('| maxRequests stamps in window | chat request | always | unchanged; limited | 429 returned; request not processed |', () => {
  test('with maxRequests stamps in the window, the next request is limited', () => {
    const e = withStamps([0, 10, 20]).expect('c', at(30));
    assert.equal(e.answer, 'limited');
    assert.equal(e.certain, M);
  });

  test('"unchanged": a limited request adds no stamp', () => {
    const model = withStamps([0, 10, 20]);
    model.record('c', at(30), true);
    model.record('c', at(40), true);
    assert.equal(model.stampsOf('c').length, M);
  });

  test('"per client identifier": another client is not limited by these stamps', () => {
    const model = withStamps([0, 10, 20]);
    assert.equal(model.expect('someone-else', at(30)).answer, 'allowed');
  });
});

describe('| limited | time passes | oldest stamp leaves the window | allowed again | none |', () => {
  test('still limited while the oldest stamp is certainly inside the window', () => {
    const model = withStamps([0, 400, 500]);
    assert.equal(model.expect('c', at(W - CLOCK_SLACK_MS - 1)).answer, 'limited');
  });

  test('allowed again once the oldest stamp has certainly left, while the others are still inside', () => {
    const model = withStamps([0, 400, 500]);
    const e = model.expect('c', at(W + CLOCK_SLACK_MS + 1));
    assert.equal(e.answer, 'allowed');
    assert.equal(e.certain, 2);
  });

  test('at the very edge of the window, the answer is left open (the server\'s own times are not known)', () => {
    const e = withStamps([0, 400, 500]).expect('c', at(W));
    assert.equal(e.answer, 'either');
  });

  test('"Retry-After (seconds to wait, derived from when the oldest stamp in the window expires)"', () => {
    const e = withStamps([0, 400, 500]).expect('c', at(600));
    // The oldest stamp (at 0) leaves the window at 1000: 400 ms after the limited request at 600.
    assert.ok(e.retryAfterMs[0] <= 400 && 400 <= e.retryAfterMs[1], `bracket ${e.retryAfterMs}`);
    assert.ok(e.retryAfterMs[1] - e.retryAfterMs[0] <= 2 * CLOCK_SLACK_MS, `bracket ${e.retryAfterMs}`);
  });

  test('limited retries in between do not move the moment the client is allowed again', () => {
    const model = withStamps([0, 400, 500]);
    for (const t of [600, 700, 800, 900]) model.record('c', at(t), true);
    assert.equal(model.expect('c', at(W + CLOCK_SLACK_MS + 1)).answer, 'allowed');
  });
});

describe('"On each request, stamps outside the current window are removed before counting." (and the 60-second cleanup)', () => {
  test('stamps older than the window do not count, with no cleanup having run', () => {
    const e = withStamps([0, 10, 20]).expect('c', at(5 * W));
    assert.equal(e.answer, 'allowed');
    assert.equal(e.possible, 0);
  });

  test('old and new stamps: only those inside the window count', () => {
    const e = withStamps([0, 10, 20, 3 * W, 3 * W + 10]).expect('c', at(3 * W + 20));
    assert.equal(e.certain, 2);
    assert.equal(e.answer, 'allowed');
  });
});

describe('"counters are not shared between server instances"', () => {
  test('with two instances, maxRequests stamps may or may not be limited, 2 x maxRequests are', () => {
    const model = new SlidingWindow(W, M, 2);
    for (let i = 0; i < M; i++) model.record('c', at(i), false);
    assert.equal(model.expect('c', at(10)).answer, 'either');
    for (let i = M; i < 2 * M; i++) model.record('c', at(i), false);
    assert.equal(model.expect('c', at(10)).answer, 'limited');
  });

  test('with two instances, fewer than maxRequests stamps are allowed on whichever instance answers', () => {
    const model = new SlidingWindow(W, M, 2);
    for (let i = 0; i < M - 1; i++) model.record('c', at(i), false);
    assert.equal(model.expect('c', at(10)).answer, 'allowed');
  });
});

describe('requests of one client sent at once (replies that wait for a model): each may be stamped before the others', () => {
  const span = (from: number, to: number): When => ({ sentAt: from, receivedAt: to });

  test('maxRequests sent at once from a fresh client: each must be allowed, none is demanded a 429', () => {
    const model = new SlidingWindow(W, M);
    const sent = Array.from({ length: M }, (_, i) => span(i, 50 + i));
    for (const r of sent) {
      const e = model.expect('c', r, sent.filter((o) => o !== r));
      assert.equal(e.answer, 'allowed');
      assert.equal(e.possible, M - 1);
      assert.equal(e.certain, 0);
    }
  });

  test('one more than maxRequests at once: none is demanded either way', () => {
    const model = new SlidingWindow(W, M);
    const sent = Array.from({ length: M + 1 }, (_, i) => span(i, 50 + i));
    for (const r of sent) assert.equal(model.expect('c', r, sent.filter((o) => o !== r)).answer, 'either');
  });

  test('a stamp whose answer came after this request left may be after it: possible, not certain', () => {
    const model = new SlidingWindow(W, M);
    model.record('c', span(0, 100), false);
    const e = model.expect('c', span(50, 60));
    assert.equal(e.possible, 1);
    assert.equal(e.certain, 0);
  });

  test('excess: more allowed at once than the stamps already in the window leave room for', () => {
    const model = new SlidingWindow(W, M);
    model.record('c', at(0), false);
    const together = Array.from({ length: M }, (_, i) => span(10 + i, 60 + i));
    assert.equal(model.excess('c', together), 1);
    assert.equal(model.excess('c', together.slice(1)), 0);
    // Spread over more than a window, they need not have been in one window together.
    assert.equal(model.excess('c', [span(10, 20), span(10, W + 20)]), 0);
  });

  test('excess of one request is a request allowed where the model demands a 429', () => {
    const model = withStamps([0, 10, 20]);
    assert.equal(model.excess('c', [at(30)]), 1);
    assert.equal(model.excess('c', [at(W + 30)]), 0);
  });
});

describe('placeOf: where a stamp lies in the window of a later request', () => {
  test('a stamp younger than the window by more than the slack is inside', () => {
    assert.equal(placeOf(at(0), at(W - CLOCK_SLACK_MS - 1), W), 'inside');
  });
  test('a stamp older than the window by more than the slack is outside', () => {
    assert.equal(placeOf(at(0), at(W + CLOCK_SLACK_MS + 1), W), 'outside');
  });
  test('a stamp whose age straddles the window length is undecided', () => {
    assert.equal(placeOf(at(0), at(W), W), 'maybe');
    // An exchange that took long: the stamp was made somewhere between 0 and 300.
    assert.equal(placeOf({ sentAt: 0, receivedAt: 300 }, at(W + 100), W), 'maybe');
  });
});

describe('"the limiter identifies clients by IP address, taken from the first address of the X-Forwarded-For header, else from the X-Real-IP header, else from the socket remote address"', () => {
  const socket = '10.9.8.7';
  test('X-Forwarded-For with one address', () => {
    assert.equal(clientIdOf({ 'X-Forwarded-For': '198.51.100.1' }, socket), '198.51.100.1');
  });
  test('"the first address": several hops, with and without spaces', () => {
    assert.equal(clientIdOf({ 'X-Forwarded-For': '198.51.100.1, 203.0.113.5, 192.0.2.9' }, socket), '198.51.100.1');
    assert.equal(clientIdOf({ 'X-Forwarded-For': '198.51.100.1,203.0.113.5' }, socket), '198.51.100.1');
    assert.equal(clientIdOf({ 'X-Forwarded-For': '  198.51.100.1 ,203.0.113.5' }, socket), '198.51.100.1');
  });
  test('IPv6 and IPv4-mapped IPv6 addresses are taken as written', () => {
    assert.equal(clientIdOf({ 'X-Forwarded-For': '2001:db8::1, 198.51.100.1' }, socket), '2001:db8::1');
    assert.equal(clientIdOf({ 'X-Real-IP': '2001:db8::2' }, socket), '2001:db8::2');
    assert.equal(clientIdOf({ 'X-Forwarded-For': '::ffff:198.51.100.1' }, socket), '::ffff:198.51.100.1');
  });
  test('X-Forwarded-For wins over X-Real-IP', () => {
    assert.equal(clientIdOf({ 'X-Forwarded-For': '198.51.100.1', 'X-Real-IP': '203.0.113.5' }, socket), '198.51.100.1');
  });
  test('"else from the X-Real-IP header"', () => {
    assert.equal(clientIdOf({ 'X-Real-IP': '203.0.113.5' }, socket), '203.0.113.5');
  });
  test('an X-Forwarded-For with no address in it names nobody: X-Real-IP, then the socket', () => {
    assert.equal(clientIdOf({ 'X-Forwarded-For': ' ', 'X-Real-IP': '203.0.113.5' }, socket), '203.0.113.5');
    assert.equal(clientIdOf({ 'X-Forwarded-For': '' }, socket), socket);
  });
  test('"else from the socket remote address"', () => {
    assert.equal(clientIdOf({}, socket), socket);
  });
  test('header names are matched in any letter case, as HTTP says', () => {
    assert.equal(clientIdOf({ 'x-forwarded-for': '198.51.100.1' }, socket), '198.51.100.1');
    assert.equal(clientIdOf({ 'X-REAL-IP': '203.0.113.5' }, socket), '203.0.113.5');
  });
});

describe('"message (a fixed Spanish-language sentence ...)": the language identification of the 429 message', () => {
  const spanish = [
    LIMIT_MESSAGE,
    'Demasiadas solicitudes. Inténtalo de nuevo en unos segundos.',
    'Se ha excedido el límite de peticiones; por favor, espere unos segundos antes de volver a intentarlo.',
    'Has enviado demasiados mensajes seguidos. Espera un poco y prueba otra vez.',
    'Límite de solicitudes superado. Reintenta en unos segundos.',
    'Superaste el límite. Intentá de nuevo en unos segundos.',
  ];
  const notSpanish = [
    ENGLISH_LIMIT_MESSAGE,
    'Too many requests, please try again later.',
    'Rate limit exceeded. Try again in a few seconds.',
    'Slow down! You are sending messages too quickly.',
    'Você excedeu o limite de solicitações. Por favor, tente novamente em alguns segundos.',
    'Trop de requêtes. Réessayez dans quelques secondes.',
    'Слишком много запросов. Повторите попытку через несколько секунд.',
  ];
  for (const text of spanish) {
    test(`Spanish: ${text}`, () => assert.equal(identifySpanish(text).verdict, 'spanish', identifySpanish(text).detail));
  }
  for (const text of notSpanish) {
    test(`not Spanish: ${text}`, () => assert.equal(identifySpanish(text).verdict, 'other', identifySpanish(text).detail));
  }
  test('a message too short to tell its language is left undecided, whatever it says', () => {
    for (const text of ['Espera.', 'Too many requests', 'Límite']) assert.equal(identifySpanish(text).verdict, 'undecided', text);
  });
});

describe('"In development mode localhost connections are allowed": what a profile lets the suite assert', () => {
  const settings = { windowMs: 3000, maxRequests: 5, instances: 1, clientAddressesPreserved: true, developmentMode: true };

  test('loopback base URLs: 127.0.0.0/8, ::1 (also IPv4-mapped) and localhost', () => {
    for (const url of ['http://127.0.0.1:3000', 'http://127.8.9.10/', 'http://localhost:8080', 'http://[::1]:80', 'http://[::ffff:127.0.0.1]/']) assert.ok(isLoopbackUrl(url), url);
    for (const url of ['https://chat.example.com', 'http://10.0.0.5:3000', 'http://[2001:db8::1]/', 'http://128.0.0.1', 'not a url']) assert.ok(!isLoopbackUrl(url), url);
  });

  test('development mode over loopback: only the header-less check applies, every counting check is not applicable', () => {
    const na = notApplicableIn(chatScope(settings, 'http://127.0.0.1:4000'));
    assert.ok(!(DEV in na));
    for (const id of COUNTING) assert.ok(id in na, id);
  });

  test('development mode away from loopback: both readings count the harness like any client, the normal checks apply', () => {
    const na = notApplicableIn(chatScope(settings, 'https://chat.example.com'));
    assert.deepEqual(Object.keys(na), [DEV]);
  });

  test('no development mode: the header-less check is not applicable, the rest applies', () => {
    const na = notApplicableIn(chatScope({ ...settings, developmentMode: false }, 'http://127.0.0.1:4000'));
    assert.deepEqual(Object.keys(na), [DEV]);
  });

  test('client addresses rewritten by a proxy: no counting check, and no development-mode check either', () => {
    const na = notApplicableIn(chatScope({ ...settings, clientAddressesPreserved: false }, 'http://127.0.0.1:4000'));
    for (const id of [...COUNTING, DEV]) assert.ok(id in na, id);
  });
});
