import { test } from 'node:test';
import assert from 'node:assert/strict';
import { badBodies, validValue } from '../../harness/generic/bodies.ts';
import { loadSpec } from '../../harness/spec/load.ts';
import { makeAjv } from '../../harness/validation/ajv.ts';

const ajv = makeAjv();

/**
 * Compiles a schema of a spec with the spec's components beside it, so that its local references
 * ("#/components/schemas/X") resolve as they do in the spec.
 */
function validator(doc: any, schema: unknown) {
  return ajv.compile({ components: doc.components ?? {}, allOf: [schema] });
}

/** A body string as a server that follows the schema sees it: JSON that validates, or refused. */
function accepted(check: ReturnType<typeof validator>, body: string): boolean {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return false;
  }
  return check(value) as boolean;
}

const withBodies = ['game-bridge', 'chat'].map((name) => loadSpec(name)).flatMap((spec) => spec.operations.filter((op) => op.requestSchema).map((op) => ({ spec, op })));

test('the specs have request schemas to derive bodies from', () => {
  const keys = withBodies.map(({ op }) => op.key);
  for (const key of ['POST /api/chat', 'POST /v2/log']) assert.ok(keys.includes(key), key);
});

for (const { spec, op } of withBodies) {
  test(`${spec.name} ${op.key}: validValue validates against the request schema`, () => {
    const check = validator(spec.doc, op.requestSchema);
    const value = validValue(spec.doc, op.requestSchema);
    assert.equal(check(value), true, `${JSON.stringify(value)}: ${ajv.errorsText(check.errors)}`);
    assert.equal(accepted(check, JSON.stringify(value)), true);
  });

  test(`${spec.name} ${op.key}: bodies marked certainlyRefused do not validate`, () => {
    const check = validator(spec.doc, op.requestSchema);
    const bad = badBodies(spec.doc, op.requestSchema);
    const refused = bad.filter((b) => b.certainlyRefused);
    assert.ok(refused.length >= 5, 'broken JSON, empty, null, array, number at least');
    for (const b of refused) assert.equal(accepted(check, b.body), false, `${b.label}: ${b.body}`);
    // The wrong-type bodies are not certainly refused (a server may coerce), but the schema does refuse them.
    const wrongType = bad.filter((b) => !b.certainlyRefused);
    assert.ok(wrongType.length > 0);
    for (const b of wrongType) assert.equal(accepted(check, b.body), false, `${b.label}: ${b.body}`);
    assert.equal(new Set(bad.map((b) => b.label)).size, bad.length, 'labels are unique');
  });
}

test('validValue takes the spec\'s example where it gives one, and otherwise any value valid by the schema, required members only', () => {
  const doc = { components: { schemas: { Item: { type: 'object', required: ['n'], properties: { n: { type: 'integer', minimum: 3 }, extra: { type: 'string' } } } } } };
  assert.equal(validValue(doc, { type: 'string', example: 'ex', enum: ['a', 'ex'] }), 'ex');
  assert.equal(validValue(doc, { type: 'string', examples: ['first', 'second'] }), 'first');
  assert.deepEqual(validValue(doc, { type: 'object', required: ['role'], properties: { role: { type: 'string', examples: ['user'] } } }), { role: 'user' });
  assert.equal(validValue(doc, { const: 7 }), 7);
  assert.ok(['b', 'c'].includes(validValue(doc, { enum: ['b', 'c'] }) as string));
  assert.deepEqual(Object.keys(validValue(doc, { $ref: '#/components/schemas/Item' }) as object), ['n'], 'optional members left out');
  assert.deepEqual(validValue(doc, { $ref: '#/components/schemas/Item' }), validValue(doc, { $ref: '#/components/schemas/Item' }), 'the same value every time');
  const schemas = [
    { $ref: '#/components/schemas/Item' },
    { type: 'array', items: { $ref: '#/components/schemas/Item' } },
    { type: 'object', required: ['a', 'b'], properties: { a: { type: 'number' }, b: { type: 'array', items: { type: 'boolean' }, minItems: 2 } } },
    { type: ['boolean', 'null'] },
    { type: 'null' },
  ];
  for (const s of schemas) assert.equal(validator(doc, s)(validValue(doc, s)), true, JSON.stringify(s));
});

// Interface D's ingest request is the kind of schema the next interfaces bring: formats, patterns, array sizes, oneOf.
test('a valid request for an ingest-like schema validates against its own schema', () => {
  const doc = {
    components: {
      schemas: {
        UsageEvent: {
          type: 'object',
          required: ['name', 'timestamp', 'properties'],
          properties: {
            name: { type: 'string', pattern: '^[A-Za-z0-9_.]+$', minLength: 1 },
            customer_id: { type: 'string', minLength: 1 },
            external_customer_id: { type: 'string', minLength: 1 },
            timestamp: { type: 'string', format: 'date-time' },
            properties: { type: 'object', additionalProperties: { type: ['string', 'number', 'boolean'] } },
            idempotency_key: { type: 'string', format: 'uuid' },
          },
          oneOf: [
            { required: ['customer_id'], not: { required: ['external_customer_id'] } },
            { required: ['external_customer_id'], not: { required: ['customer_id'] } },
          ],
        },
        Ingest: { type: 'object', required: ['events'], additionalProperties: false, properties: { events: { type: 'array', minItems: 1, maxItems: 100, items: { $ref: '#/components/schemas/UsageEvent' } } } },
      },
    },
  };
  const check = validator(doc, { $ref: '#/components/schemas/Ingest' });
  for (const seed of [1, 2, 3, 4, 5]) {
    const value = validValue(doc, { $ref: '#/components/schemas/Ingest' }, seed);
    assert.equal(check(value), true, `seed ${seed}: ${JSON.stringify(value).slice(0, 300)}: ${ajv.errorsText(check.errors)}`);
  }
});

test('badBodies lists no "required members absent" when nothing is required', () => {
  const labels = badBodies({}, { type: 'object', properties: { a: { type: 'string' } } }).map((b) => b.label);
  assert.ok(!labels.includes('required members absent'));
  assert.ok(!labels.some((l) => l.endsWith('of the wrong type')));
});

// certainlyRefused bodies are sent even where the profile forbids writes: for a request schema that is an array
// (a batch of events, say) or admits null, `[]` and `null` are valid requests, so they must not be marked refused.
test('certainlyRefused bodies do not validate for array or nullable request schemas', () => {
  for (const schema of [{ type: 'array', items: { type: 'object' } }, { type: ['object', 'null'] }]) {
    const check = validator({}, schema);
    for (const b of badBodies({}, schema).filter((b) => b.certainlyRefused)) {
      assert.equal(accepted(check, b.body), false, `${JSON.stringify(schema)} ${b.label}: ${b.body}`);
    }
  }
});
