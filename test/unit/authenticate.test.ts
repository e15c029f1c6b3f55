/**
 * The authentication seam: a signing step inside the client registers what it derives as a secret; a recorded
 * exchange keeps the request before authentication and is signed afresh, with other credentials, when sent again.
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client, closeAgents, type Authenticate } from '../../harness/http/client.ts';
import { redactExchange, type Exchange } from '../../harness/http/exchange.ts';
import { resend } from '../../harness/http/resend.ts';
import { Secrets } from '../../harness/secrets.ts';
import { hmacSign } from '../../harness/signing.ts';

const servers: Server[] = [];
after(async () => {
  for (const s of servers) s.close();
  await closeAgents();
});

/** A toy signed API: X-Key names the key, X-Signature is HMAC-SHA256 of "METHOD path body" with its secret. */
async function signedApi(keys: Record<string, string>): Promise<string> {
  const s = createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      const secret = keys[String(req.headers['x-key'])];
      const expected = secret && createHmac('sha256', secret).update(`${req.method} ${req.url} ${body}`).digest('hex');
      res.writeHead(expected && expected === req.headers['x-signature'] ? 200 : 401).end();
    });
  });
  servers.push(s);
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  return `http://127.0.0.1:${(s.address() as AddressInfo).port}/api`;
}

// The step signs the path under the base URL's prefix, as the target sees it.
const sign: Authenticate = (req, secrets) => {
  const body = req.json !== undefined ? JSON.stringify(req.json) : (req.body ?? '');
  const signature = hmacSign({ secret: secrets.get('secret'), message: `${req.method} /api${req.path} ${body}`, hash: 'sha256', encoding: 'hex' });
  secrets.add('signature', signature); // registered by the step itself, before anything can capture it
  return { ...req, headers: { ...req.headers, 'X-Key': secrets.get('keyId'), 'X-Signature': signature } };
};

function secretsOf(keyId: string, secret: string): Secrets {
  const s = new Secrets();
  s.add('keyId', keyId);
  s.add('secret', secret);
  s.markSensitiveHeader('X-Signature');
  return s;
}

test('a signed request recorded with one profile is signed afresh with another profile\'s credentials, and no signature shows', async () => {
  const url = await signedApi({ 'key-one-0001': 'secret-number-one', 'key-two-0002': 'secret-number-two' });
  const first = secretsOf('key-one-0001', 'secret-number-one');
  const captured: Exchange[] = [];
  const a = new Client({ interfaceName: 't', baseUrl: url, secrets: first, timeoutMs: 2000, live: false, requestsPerSecond: 0, authenticate: sign, onExchange: (e) => captured.push(e) });
  assert.equal((await a.send({ method: 'POST', path: '/orders', json: { qty: 1 }, authenticate: true })).status, 200);

  // What becomes evidence (a cassette): the signature and both credentials are tokens.
  const cassette = JSON.stringify(redactExchange(captured[0], first));
  const signature = captured[0].request.headers.find(([k]) => k === 'X-Signature')![1];
  for (const secret of [signature, 'secret-number-one', 'key-one-0001']) assert.ok(!cassette.includes(secret), `${secret.slice(0, 6)}… is not in the cassette`);
  assert.match(cassette, /\{\{secret:signature\}\}/);

  // Replayed with the second profile: its own key id and a fresh signature, which the target accepts.
  const second = secretsOf('key-two-0002', 'secret-number-two');
  const b = new Client({ interfaceName: 't', baseUrl: url, secrets: second, timeoutMs: 2000, live: false, requestsPerSecond: 0, authenticate: sign, onExchange: (e) => captured.push(e) });
  const again = await resend(JSON.parse(cassette) as Exchange, b, second);
  assert.ok(!(again instanceof Error) && again.status === 200, 'signed afresh and accepted');
  const sent = captured[1].request.headers;
  assert.equal(sent.find(([k]) => k === 'X-Key')![1], 'key-two-0002');
  assert.notEqual(sent.find(([k]) => k === 'X-Signature')![1], signature);
  assert.ok(!JSON.stringify(redactExchange(captured[1], second)).includes(sent.find(([k]) => k === 'X-Signature')![1]));
});
