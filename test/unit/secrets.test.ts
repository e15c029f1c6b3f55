import { test } from 'node:test';
import assert from 'node:assert/strict';
import { derive, Secrets, token, type Derivation } from '../../harness/secrets.ts';

// Shaped like the reference's generated keys (randomBytes(18) as base64url): mixed case, digits, "-" and "_".
const KEY = 'q7Xk-P2mZr_W9bLt4NcVh8Jd';
const DERIVATIONS: Derivation[] = ['upper', 'lower', 'swapcase', 'prefix:12', `prefix:${KEY.length - 1}`];

function withKey(): Secrets {
  const s = new Secrets();
  s.add('authKey', KEY);
  return s;
}

test('derive gives the documented variants', () => {
  assert.equal(derive('aB1c', 'exact'), 'aB1c');
  assert.equal(derive('aB1c', 'upper'), 'AB1C');
  assert.equal(derive('aB1c', 'lower'), 'ab1c');
  assert.equal(derive('aB1c', 'swapcase'), 'Ab1C');
  assert.equal(derive('aB1c', 'prefix:2'), 'aB');
  assert.equal(token('k'), '{{secret:k}}');
  assert.equal(token('k', 'prefix:3'), '{{secret:k|prefix:3}}');
});

test('a registered secret and its derived values never appear in redact output', () => {
  const s = withKey();
  const values = [KEY, ...DERIVATIONS.map((how) => s.derived('authKey', how))];
  const text = JSON.stringify({ headers: { 'X-Auth-Key': values }, body: `keys: ${values.join(' / ')}` });
  const out = s.redact(text);
  for (const v of values) assert.ok(!out.includes(v), `${v} leaked: ${out}`);
  assert.ok(out.includes(token('authKey')));
  for (const how of DERIVATIONS) assert.ok(out.includes(token('authKey', how)), `${how} token in ${out}`);
});

test('a letter-case variant that was never registered is still redacted', () => {
  const s = withKey();
  const odd = [...KEY].map((c, i) => (i % 3 === 0 ? c.toUpperCase() : c.toLowerCase())).join('');
  assert.notEqual(odd, KEY);
  const out = s.redact(`X-Auth-Key: ${odd}`);
  assert.ok(!out.includes(odd));
  assert.ok(!out.toLowerCase().includes(KEY.toLowerCase()));
});

test('expand(redact(x)) gives back x for the exact secret and for registered derivations', () => {
  const s = withKey();
  const exact = `GET /v2/status X-Auth-Key=${KEY}; again ${KEY}`;
  assert.equal(s.expand(s.redact(exact)), exact);
  for (const how of DERIVATIONS) {
    const v = s.derived('authKey', how);
    const line = `X-Auth-Key: ${v}`;
    assert.equal(s.expand(s.redact(line)), line, how);
  }
});

test('expand uses the current credentials (a cassette replays with another profile)', () => {
  const recorded = withKey().redact(`X-Auth-Key: ${KEY}`);
  const other = new Secrets();
  other.add('authKey', 'another-key-of-24-chars!');
  assert.equal(other.expand(recorded), 'X-Auth-Key: another-key-of-24-chars!');
  assert.throws(() => new Secrets().expand(recorded), /authKey is not set/);
});

test('a sensitive header with an unknown value becomes {{redacted}}, keeping a Bearer scheme word', () => {
  const s = withKey();
  assert.equal(s.redactHeader('X-Auth-Key', 'someone-elses-key'), '{{redacted}}');
  assert.equal(s.redactHeader('x-auth-key', 'someone-elses-key'), '{{redacted}}');
  assert.equal(s.redactHeader('Authorization', 'Bearer eyJhbGciOi.unknown.token'), 'Bearer {{redacted}}');
  assert.equal(s.redactHeader('Authorization', 'Basic dXNlcjpwYXNz'), 'Basic {{redacted}}');
  assert.equal(s.redactHeader('Authorization', 'opaque'), '{{redacted}}');
  // The known secret is shown by its token, so a replay can put the current one back.
  assert.equal(s.redactHeader('X-Auth-Key', KEY), token('authKey'));
  assert.equal(s.redactHeader('Authorization', `Bearer ${KEY}`), `Bearer ${token('authKey')}`);
  // The key with something appended is not the key: unknown.
  assert.equal(s.redactHeader('X-Auth-Key', `${KEY}x`), '{{redacted}}');
});

test('a header that is not sensitive keeps unknown values; headers marked sensitive later are redacted', () => {
  const s = withKey();
  assert.equal(s.redactHeader('Content-Type', 'application/json'), 'application/json');
  assert.equal(s.redactHeader('X-Trace', `id ${KEY}`), `id ${token('authKey')}`);
  assert.equal(s.redactHeader('BX-SIGNATURE', 'abcdef'), 'abcdef');
  s.markSensitiveHeader('BX-SIGNATURE');
  assert.equal(s.redactHeader('bx-signature', 'abcdef'), '{{redacted}}');
});

test('harmless values are kept in sensitive headers', () => {
  const s = withKey();
  const wrong = s.harmless('conformance-wrong-key');
  assert.equal(wrong, 'conformance-wrong-key');
  assert.equal(s.redactHeader('X-Auth-Key', wrong), wrong);
  assert.equal(s.redactHeader('X-Auth-Key', 'conformance-other-key'), '{{redacted}}');
});

test('empty values are not registered; unknown names throw', () => {
  const s = new Secrets();
  s.add('empty', '');
  assert.equal(s.has('empty'), false);
  assert.equal(s.redact('nothing to hide'), 'nothing to hide');
  assert.throws(() => s.get('missing'), /missing is not set/);
});

// A short registered value (a key's prefix "sec") also occurs inside the tokens redaction writes
// ("{{secret:authKey}}"); redaction must not rewrite its own tokens, or replays cannot expand them.
test('a short registered prefix does not corrupt tokens already inserted', () => {
  const s = new Secrets();
  s.add('authKey', 'secretKey-ABCdef123');
  const p = s.derived('authKey', 'prefix:3'); // "sec", which is also in "{{secret:"
  const line = `X-Auth-Key: secretKey-ABCdef123 / ${p}`;
  const out = s.redact(line);
  assert.equal(out, `X-Auth-Key: ${token('authKey')} / ${token('authKey', 'prefix:3')}`);
  assert.equal(s.expand(out), line);
});

test("the target's own secrets a body carries (x-secret-members) are redacted wherever they show, and short values are left", () => {
  const s = new Secrets();
  s.learnTargetSecrets(JSON.stringify({ sources: [{ inputs: [{ url: 'http://p', username: 'u', password: 'planted-provider-pass' }] }], other: { password: 'abc' } }), ['password']);
  assert.equal(s.redact('GET /panel?password=planted-provider-pass'), 'GET /panel?password={{secret:target_password}}');
  assert.equal(s.redact('abc'), 'abc');
  // A body that names no such member is not even parsed.
  s.learnTargetSecrets('not json "pass"', ['password']);
});
