import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import YAML from 'yaml';
import { describeErrors, loadProfile, ProfileError } from '../../harness/profile/load.ts';
import { unifiedExchangeEntry } from '../../interfaces/unified-exchange/settings.ts';
import { Value } from '@sinclair/typebox/value';
import { TARGETS_DIR } from '../../harness/paths.ts';
import { profileSchema } from '../../harness/profile/schema.ts';
import { makeAjv } from '../../harness/validation/ajv.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'profile-test-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** A valid profile (the reference one) to break one field at a time. */
function base(): any {
  return YAML.parse(readFileSync(path.join(TARGETS_DIR, 'reference.yaml'), 'utf8'));
}

function write(name: string, content: unknown): string {
  const file = path.join(dir, name);
  writeFileSync(file, typeof content === 'string' ? content : YAML.stringify(content));
  return file;
}

/** Loading must throw a ProfileError naming the file and each given text (the dotted field path). */
function assertRefused(file: string, ...expected: Array<string | RegExp>): string {
  let error: unknown;
  try {
    loadProfile(file);
  } catch (e) {
    error = e;
  }
  assert.ok(error instanceof ProfileError, `expected a ProfileError, got ${error}`);
  const message = error.message;
  assert.ok(message.includes(path.basename(file)), `message names the file: ${message}`);
  for (const e of expected) {
    if (typeof e === 'string') assert.ok(message.includes(e), `message has ${JSON.stringify(e)}: ${message}`);
    else assert.match(message, e);
  }
  return message;
}

test('the profile schema is valid JSON Schema 2020-12 (the loader compiles it without checking that at every start)', () => {
  const ajv = makeAjv();
  assert.equal(ajv.validateSchema(profileSchema()), true, ajv.errorsText());
});

test('every profile under targets/ loads', () => {
  const files = readdirSync(TARGETS_DIR).filter((f) => f.endsWith('.yaml'));
  assert.ok(files.includes('reference.yaml'));
  for (const f of files) {
    const p = loadProfile(path.join(TARGETS_DIR, f));
    assert.equal(p.file, path.join(TARGETS_DIR, f));
    assert.ok(p.name.length > 0, f);
    const entries = Object.entries(p.interfaces);
    assert.ok(entries.length > 0, f);
    for (const [name, entry] of entries) {
      assert.ok(Boolean(entry!.baseUrl) !== Boolean(entry!.reference), `${f} ${name}: exactly one of baseUrl or reference`);
    }
  }
});

test('defaults are filled in', () => {
  const p = base();
  delete p.writes;
  delete p.requestsPerSecond;
  delete p.requestTimeoutMs;
  p.interfaces.chat.settings = { windowMs: 1000, maxRequests: 2 };
  const loaded = loadProfile(write('defaults.yaml', p));
  assert.equal(loaded.writes, false);
  assert.equal(loaded.requestsPerSecond, 0);
  assert.equal(loaded.requestTimeoutMs, 5000);
  assert.equal(loaded.probeTimeoutMs, 5000);
  assert.deepEqual(loaded.interfaces.chat?.settings, { windowMs: 1000, maxRequests: 2, instances: 1, clientAddressesPreserved: true, developmentMode: false, replyMs: 0, requestMembers: {} });
});

test('a field of the wrong type names its dotted path', () => {
  const p = base();
  p.interfaces.chat.settings.windowMs = 'three seconds';
  assertRefused(write('wrong-type.yaml', p), 'interfaces.chat.settings.windowMs: must be integer');

  const q = base();
  q.interfaces['game-bridge'].settings.endpoints.log = 'yes';
  assertRefused(write('wrong-type-nested.yaml', q), 'interfaces.game-bridge.settings.endpoints.log: must be boolean');

  const r = base();
  r.requestsPerSecond = 'fast';
  assertRefused(write('wrong-type-top.yaml', r), 'requestsPerSecond: must be number');
});

test('an unknown field names its dotted path', () => {
  const p = base();
  p.interfaces.chat.settings.windowSeconds = 3;
  assertRefused(write('unknown-field.yaml', p), 'interfaces.chat.settings.windowSeconds: unknown field');

  const q = base();
  (q.interfaces as Record<string, unknown>)['no-such-interface'] = { reference: {}, settings: {} };
  assertRefused(write('unknown-interface.yaml', q), 'interfaces.no-such-interface: unknown field');
});

test('a missing required field names its dotted path', () => {
  const p = base();
  delete p.interfaces['game-bridge'].settings.maxList;
  assertRefused(write('missing-field.yaml', p), 'interfaces.game-bridge.settings.maxList: required field missing');

  const q = base();
  delete q.name;
  assertRefused(write('missing-name.yaml', q), /(^|: )name: required field missing/);

  const r = base();
  r.interfaces['game-bridge'].credentials = {};
  assertRefused(write('missing-credential.yaml', r), 'interfaces.game-bridge.credentials.authKey: required field missing');
});

test('both baseUrl and reference, or neither, is refused on that interface', () => {
  const p = base();
  p.interfaces.chat.baseUrl = 'https://chat.example.com';
  const message = assertRefused(write('both.yaml', p), 'interfaces.chat: give exactly one of baseUrl');
  assert.doesNotMatch(message, /game-bridge/);

  const q = base();
  delete q.interfaces['game-bridge'].reference;
  const m2 = assertRefused(write('neither.yaml', q), 'interfaces.game-bridge: give exactly one of baseUrl');
  // The failing branches of oneOf are summed up by the oneOf message, not listed as missing fields.
  assert.doesNotMatch(m2, /baseUrl: required field missing|reference: required field missing/);
});

test('broken YAML is refused with the file named', () => {
  const file = write('broken.yaml', 'name: t\ninterfaces:\n  chat: {\n    settings: [\n');
  assertRefused(file, 'not valid YAML', /line \d+/);
});

test('an unreadable file is refused with the file named', () => {
  assertRefused(path.join(dir, 'no-such-profile.yaml'), 'cannot read the profile');
});

test('a unified-exchange entry needs its trading key or a read-only key, and takes a read-only key alone', () => {
  // Its entry's schema itself: the interface may wait unregistered (interfaces/registry.ts), its profiles in targets/pending/.
  const entry = unifiedExchangeEntry();
  const validate = makeAjv().compile(entry);
  const settings = Value.Default(entry.properties.settings, {});
  const key = (role: string) => ({ apiKey: `UX_${role}_KEY`, secret: `UX_${role}_SECRET`, passphrase: `UX_${role}_PASSPHRASE` });
  assert.ok(validate({ reference: {}, credentials: { read: key('READ') }, settings }), describeErrors(validate.errors ?? []));
  assert.equal(validate({ reference: {}, credentials: { copy: key('COPY') }, settings }), false);
  assert.equal(describeErrors(validate.errors ?? []), 'credentials: give at least one of trade or read');
});
