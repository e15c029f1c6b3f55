import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { buildSpec, deref, loadSpec, matchOperation, requirementById } from '../../harness/spec/load.ts';
import { checkResponse } from '../../harness/validation/responses.ts';
import { validRequest } from '../../harness/generic/requests.ts';
import { ROOT } from '../../harness/paths.ts';

// The documents live next to the repository (../shared/seeds), in CI as here.
const SEEDS = path.resolve(ROOT, '..', 'shared', 'seeds');
const ID = /^[CE]-[A-Z0-9-]+$/;
const normalise = (s: string) => s.replace(/\s+/g, ' ').trim();

// The two interfaces of this document (others, with other prefixes, get their own checks when they arrive).
const specs = ['game-bridge', 'chat'].map((name) => loadSpec(name));

test('both specs load, with their prefix, document and operations', () => {
  assert.deepEqual(
    specs.map((s) => [s.name, s.prefix, s.document]),
    [
      ['game-bridge', 'C', '002_e31f548efc8ec0bb.txt'],
      ['chat', 'E', '002_e31f548efc8ec0bb.txt'],
    ],
  );
  for (const s of specs) {
    assert.ok(s.operations.length > 0, s.name);
    assert.match(s.sha256, /^[0-9a-f]{64}$/);
    assert.equal(loadSpec(s.name), s, 'loaded once per process');
  }
});

test('requirement ids are unique, match the id pattern and carry the spec prefix', () => {
  const seen = new Set<string>();
  for (const s of specs) {
    for (const r of s.requirements) {
      assert.match(r.id, ID);
      assert.ok(r.id.startsWith(`${s.prefix}-`), `${r.id} in ${s.name}`);
      assert.ok(!seen.has(r.id), `duplicate id ${r.id}`);
      seen.add(r.id);
    }
    for (const n of s.notShown) {
      assert.match(n.id, ID);
      assert.ok(!seen.has(n.id), `not-shown id ${n.id} clashes`);
      seen.add(n.id);
    }
  }
});

test('every requirement has a level, a text and a source; listed operations exist', () => {
  for (const s of specs) {
    const keys = new Set(s.operations.map((o) => o.key));
    for (const r of s.requirements) {
      assert.ok(['must', 'should', 'advisory'].includes(r.level), `${r.id} level ${r.level}`);
      assert.equal(typeof r.text, 'string');
      assert.ok(r.text.trim().length > 0, `${r.id} text`);
      assert.equal(typeof r.source, 'string');
      assert.ok(r.source.trim().length > 0, `${r.id} source`);
      for (const op of r.operations ?? []) assert.ok(keys.has(op), `${r.id} names unknown operation ${op}`);
      if (r.observable === false) assert.ok(r.why, `${r.id}: an unobservable requirement says why`);
    }
  }
});

test('every written requirement and not-shown item quotes the document verbatim', () => {
  for (const s of specs) {
    const file = path.join(SEEDS, s.document);
    assert.ok(existsSync(file), `document ${file}`);
    const text = normalise(readFileSync(file, 'utf8'));
    for (const r of s.requirements.filter((r) => !r.generic)) {
      assert.ok(text.includes(normalise(r.source)), `${r.id}: source not in ${s.document}: ${r.source}`);
    }
    for (const n of s.notShown) {
      assert.ok(text.includes(normalise(n.source)), `${n.id}: source not in ${s.document}: ${n.source}`);
    }
  }
});

test('generic requirements are derived from each spec, not written in it', () => {
  const bridge = loadSpec('game-bridge');
  const chat = loadSpec('chat');
  for (const s of specs) {
    const written = (s.doc['x-requirements'] as Array<{ id: string }>).map((r) => r.id);
    assert.ok(!written.some((id) => id.includes('-GEN-')), `${s.name} writes no generic requirement`);
    for (const r of s.requirements.filter((r) => r.id.includes('-GEN-'))) assert.equal(r.generic, true, r.id);
    for (const id of ['GEN-NO-5XX', 'GEN-CONTENT-TYPE', 'GEN-SCHEMA']) {
      assert.ok(requirementById(s, `${s.prefix}-${id}`), `${s.prefix}-${id}`);
    }
  }
  // The refusal status is judged only where a body is sent and the spec documents its 400: the bridge's log has
  // one, chat documents no 400.
  assert.deepEqual(requirementById(bridge, 'C-GEN-REFUSAL-STATUS')?.operations, ['POST /v2/log']);
  assert.equal(requirementById(chat, 'E-GEN-REFUSAL-STATUS'), undefined);
  // game-bridge has a security scheme and per-path wrong-method answers; chat has neither, but documents headers.
  assert.ok(requirementById(bridge, 'C-GEN-AUTH'));
  assert.deepEqual(requirementById(bridge, 'C-GEN-AUTH')?.operations?.slice().sort(), bridge.operations.map((o) => o.key).sort());
  assert.ok(requirementById(bridge, 'C-GEN-WRONG-METHOD'));
  assert.equal(requirementById(bridge, 'C-GEN-HEADERS'), undefined);
  assert.equal(requirementById(chat, 'E-GEN-AUTH'), undefined);
  assert.equal(requirementById(chat, 'E-GEN-WRONG-METHOD'), undefined);
  assert.deepEqual(requirementById(chat, 'E-GEN-HEADERS')?.operations, ['POST /api/chat']);
});

test('operations are flattened with security, switches, bodies and responses', () => {
  const bridge = loadSpec('game-bridge');
  const log = bridge.operations.find((o) => o.key === 'POST /v2/log');
  assert.ok(log);
  assert.deepEqual(log.security, ['authKey']);
  assert.equal(log.enabledBy, 'log');
  assert.ok(log.write);
  assert.equal(log.requestBodyRequired, true);
  assert.deepEqual(deref(bridge.doc, log.requestSchema), bridge.doc.components.schemas.LogRequest);
  assert.equal(log.responses['401'].contentType, 'application/json', 'response $ref resolved');
  assert.equal(log.wrongMethod?.status, 405);

  const chat = loadSpec('chat');
  const post = chat.operations.find((o) => o.key === 'POST /api/chat');
  assert.ok(post);
  assert.deepEqual(post.security, []);
  assert.equal(post.responses['200'].contentType, undefined, 'success body not shown');
  assert.equal(post.responses['429'].headers['retry-after'].required, true, 'header names lowercased');
});

test('matchOperation finds the operation and tells a known path from an unknown one', () => {
  const bridge = loadSpec('game-bridge');
  assert.equal(matchOperation(bridge, 'POST', '/v2/log').op?.key, 'POST /v2/log');
  // HTTP methods are case-sensitive: "post" is not POST.
  assert.equal(matchOperation(bridge, 'post', '/v2/log').op, undefined);
  assert.deepEqual(matchOperation(bridge, 'GET', '/v2/log?x=1'), { op: undefined, pathKnown: true });
  assert.deepEqual(matchOperation(bridge, 'GET', '/v2/tps'), { op: undefined, pathKnown: false });
});

test('static segments win over templates, whatever the order of the spec; default responses are honoured', () => {
  const events = buildSpec(
    'events',
    `openapi: 3.1.0
info: { title: t, version: v1 }
x-requirement-prefix: D
paths:
  /v1/events/{id}:
    get:
      responses:
        '200': { description: one event, content: { application/json: { schema: { type: object, required: [id] } } } }
        default: { description: error, content: { application/json: { schema: { type: object, required: [error] } } } }
  /v1/events/statistics:
    get:
      responses:
        '200': { description: rows, content: { application/json: { schema: { type: array } } } }
`,
    'specs/events.yaml',
  );
  assert.equal(matchOperation(events, 'GET', '/v1/events/statistics').op?.path, '/v1/events/statistics');
  assert.equal(matchOperation(events, 'GET', '/v1/events/evt_123').op?.path, '/v1/events/{id}');
  assert.equal(matchOperation(events, 'GET', '/v1/events/evt_123/extra').pathKnown, false);
  const json = { 'content-type': 'application/json' };
  assert.deepEqual(checkResponse(events, { method: 'GET', path: '/v1/events/statistics', status: 200, headers: json, body: '[]' }).schema, []);
  assert.equal(checkResponse(events, { method: 'GET', path: '/v1/events/e1', status: 503, headers: json, body: '{}' }).schema.length, 1, 'validated against default');
});

test('a valid request fills path, query and header parameters from their schemas, or from what the target supplied', () => {
  const events = buildSpec(
    'events',
    `openapi: 3.1.0
info: { title: t, version: v1 }
paths:
  /v1/events/{id}:
    parameters:
      - { name: id, in: path, required: true, schema: { type: string, pattern: '^evt_[a-z0-9]{6}$' } }
    get:
      parameters:
        - { name: interval, in: query, required: true, schema: { enum: [hour, day, week, month] } }
        - { name: limit, in: query, schema: { type: integer } }
        - { name: X-Customer, in: header, required: true, schema: { type: string, format: uuid } }
      responses: { '200': { description: ok } }
`,
    'specs/events.yaml',
  );
  const op = events.operations[0];
  const r = validRequest(events, op);
  const url = new URL(r.path, 'http://x');
  assert.match(decodeURIComponent(url.pathname), /^\/v1\/events\/evt_[a-z0-9]{6}$/);
  assert.ok(['hour', 'day', 'week', 'month'].includes(url.searchParams.get('interval')!));
  assert.equal(url.searchParams.has('limit'), false, 'optional parameters are not sent');
  assert.match(r.headers?.['X-Customer'] ?? '', /^[0-9a-f-]{36}$/i);
  assert.equal(matchOperation(events, 'GET', url.pathname).op, op);
  assert.equal(new URL(validRequest(events, op, { id: 'evt_created' }).path, 'http://x').pathname, '/v1/events/evt_created');
});

test('a spec is parsed from YAML once per content: later loads read the kept JSON, a changed spec is parsed afresh', () => {
  const cacheDir = path.join(ROOT, 'node_modules', '.cache', 'conformance-harness');
  const name = `cache-check-${process.pid}`;
  const kept = () => readdirSync(cacheDir).filter((f) => f.startsWith(`spec-${name}-`));
  const text = (v: string) => `openapi: 3.1.0\ninfo: { title: t, version: ${v} }\nx-requirement-prefix: D\npaths: {}\n`;
  try {
    const first = buildSpec(name, text('v1'), 'specs/x.yaml');
    assert.deepEqual(kept(), [`spec-${name}-${first.sha256}.json`]);
    // What the cache gives back is what YAML gave.
    assert.deepEqual(buildSpec(name, text('v1'), 'specs/x.yaml').doc, first.doc);
    assert.equal(first.version, 'v1');
    const changed = buildSpec(name, text('v2'), 'specs/x.yaml');
    assert.equal(changed.version, 'v2');
    assert.deepEqual(kept(), [`spec-${name}-${changed.sha256}.json`], 'the stale version is removed');
  } finally {
    for (const f of kept()) rmSync(path.join(cacheDir, f), { force: true });
  }
});

test('a misspelt requirement id is a compile error, by the ids generated from the spec', async () => {
  const { reqTags } = await import('../../suites/chat/tags.ts');
  // @ts-expect-error: specs/chat.yaml has no requirement E-LIMIT-ALOWED
  assert.deepEqual(reqTags('E-LIMIT-ALOWED'), ['@E-LIMIT-ALOWED']);
  assert.deepEqual(reqTags('E-LIMIT-ALLOWED'), ['@E-LIMIT-ALLOWED']);
});
