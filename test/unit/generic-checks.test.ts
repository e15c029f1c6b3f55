/**
 * The named generic checks: one registry, each check judging a generic requirement the specs derive, selectable by
 * name; and the judgements that keep a correct deployment from a false alarm (a documented range is documented, a
 * refusal beside a refused control decides nothing, a success of an operation busy by design is no refusal missed).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CHECKS, checksListing, selectedChecks } from '../../harness/generic/checks.ts';
import { REQUEST_CHECKS, type Finding, type OperationContext } from '../../harness/generic/request-checks.ts';
import { Inconclusive, NotTested, RequirementViolation } from '../../harness/verdicts.ts';
import type { Reply, RequestSpec } from '../../harness/http/client.ts';
import { Secrets } from '../../harness/secrets.ts';
import { documents } from '../../harness/spec/statuses.ts';
import { loadSpec } from '../../harness/spec/load.ts';
import type { Operation } from '../../harness/spec/types.ts';

test('every named check judges a generic requirement some spec derives, and every derived one has a check', () => {
  const derived = new Set(['exchange-session', 'stream-proxy', 'usage-events', 'game-bridge', 'chat'].flatMap((n) => loadSpec(n).requirements.filter((r) => r.generic).map((r) => r.id.replace(/^[A-Z]+-/, ''))));
  for (const c of CHECKS) assert.ok(derived.has(c.requirement), `${c.name} judges ${c.requirement}, which no spec derives`);
  for (const id of derived) assert.ok(CHECKS.some((c) => c.requirement === id), `no check judges ${id}`);
  for (const c of CHECKS.filter((c) => c.kind === 'request')) assert.ok(c.name in REQUEST_CHECKS, `${c.name} has no implementation`);
});

test('--checks selects by name, answers an unknown name with the list, and --checks list names every check', () => {
  assert.equal(selectedChecks(undefined).size, CHECKS.length);
  assert.deepEqual([...selectedChecks('negative-data-rejection, other-role-refused')], ['negative-data-rejection', 'other-role-refused']);
  assert.throws(() => selectedChecks('not-a-check'), /no check named not-a-check; the checks are not-a-server-error, /);
  const listing = checksListing();
  for (const c of CHECKS) assert.match(listing, new RegExp(`^${c.name} .*${c.requirement}`, 'm'));
});

test('a documented range ("4XX") documents each status of its class', () => {
  const op = { responses: { '200': {}, '4XX': {} } } as unknown as Operation;
  assert.ok(documents(op, 404));
  assert.ok(documents(op, 200));
  assert.ok(!documents(op, 201));
  assert.ok(!documents(op, 301));
});

/** An operation context whose target answers each request in turn from `answers`. */
function context(op: Operation, answers: number[], o: Partial<OperationContext> = {}): OperationContext & { sent: RequestSpec[] } {
  const sent: RequestSpec[] = [];
  const reply = (status: number): Reply => ({ status, headers: {}, text: '', json: undefined, exchange: { request: { method: 'GET', url: 'http://t/', headers: [] }, startedAt: 0, durationMs: 0 } }) as unknown as Reply;
  return {
    spec: { doc: {}, securitySchemes: [{ name: 'bearer', type: 'http', scheme: 'bearer' }], operations: [op] } as never,
    op,
    send: async (r) => (sent.push(r), reply(answers.shift() ?? 200)),
    secrets: new Secrets(),
    answersDisabled: () => false,
    writesAllowed: true,
    baseHeaders: {},
    valid: async () => ({ request: { method: op.method, path: op.path, authenticate: true } }),
    refusalOpen: () => undefined,
    unsecured: () => undefined,
    otherRoles: async () => [],
    sent,
    ...o,
  };
}

const secured = (extra: Partial<Operation> = {}): Operation => ({ key: 'GET /x', method: 'GET', path: '/x', security: ['bearer'], refusedRoles: [], hasRequestBody: false, requestBodyRequired: false, responses: { '200': { status: '200', headers: {} }, '4XX': { status: '4XX', headers: {} } }, parameters: [], ...extra }) as Operation;

test('a request without credentials refused beside an accepted control holds; beside a refused control it decides nothing', async () => {
  const check = REQUEST_CHECKS['missing-credential-refused'];
  const held = await check.run(context(secured(), [401, 200]));
  assert.equal(held[0].outcome, 'held');
  const both = await check.run(context(secured(), [401, 503]));
  assert.equal(both[0].outcome, 'inconclusive');
  const accepted = await check.run(context(secured(), [200]));
  assert.equal(accepted[0].outcome, 'broken');
});

test('the credential header is left out, not emptied, and the rest of the authentication step still applies', async () => {
  const ctx = context(secured(), [401, 200]);
  await REQUEST_CHECKS['missing-credential-refused'].run(ctx);
  assert.equal(ctx.sent[0].authenticate, true);
  assert.ok('Authorization' in (ctx.sent[0].headers ?? {}));
  assert.equal(ctx.sent[0].headers?.Authorization, undefined);
});

test('where the document leaves open whether credentials are needed, an answer without them is not tested', async () => {
  const r = await REQUEST_CHECKS['missing-credential-refused'].run(context(secured({ securityOpen: ['X-NS-PUBLIC'] }), [200]));
  assert.equal(r[0].outcome, 'not-tested');
});

test('no request at all goes to a write operation where the profile forbids writes', async () => {
  const op = secured({ method: 'POST', key: 'POST /x', write: 'stores things', hasRequestBody: true, requestBodyRequired: true, requestSchema: { type: 'object' } });
  for (const name of ['positive-data-acceptance', 'negative-data-rejection', 'missing-credential-refused'] as const) {
    const ctx = context(op, [], { writesAllowed: false });
    const findings = await REQUEST_CHECKS[name].run(ctx);
    assert.equal(ctx.sent.length, 0, name);
    assert.ok(findings.every((f) => f.outcome === 'not-applicable'), name);
  }
});

test('a success for bad input breaks no refusal rule where the documented success answers anything while busy', async () => {
  const op = secured({ method: 'POST', key: 'POST /x', hasRequestBody: true, requestBodyRequired: true, requestSchema: { type: 'array' }, responses: { '202': { status: '202', headers: {} }, '400': { status: '400', headers: {} } } as never });
  const busy = await REQUEST_CHECKS['negative-data-rejection'].run(context({ ...op, acceptedWhileBusy: 'an update is pending' }, Array(10).fill(202)));
  assert.equal(busy.find((f) => f.requirement === 'GEN-REFUSAL-STATUS')?.outcome, 'held');
  const strict = await REQUEST_CHECKS['negative-data-rejection'].run(context(op, Array(10).fill(202)));
  assert.equal(strict.find((f) => f.requirement === 'GEN-REFUSAL-STATUS')?.outcome, 'broken');
});

test('a throttle, a 5xx or a redirect decides nothing for any request check: inconclusive, marked as the environment\'s trouble', async () => {
  const post = secured({ method: 'POST', key: 'POST /x', hasRequestBody: true, requestBodyRequired: true, requestSchema: { type: 'object' }, responses: { '200': { status: '200', headers: {} }, '400': { status: '400', headers: {} } } as never });
  for (const status of [429, 503, 302]) {
    const valid = await REQUEST_CHECKS['positive-data-acceptance'].run(context(secured(), [status, status]));
    assert.deepEqual(valid.map((f) => [f.outcome, f.trouble]), [['inconclusive', true]], `valid request answered ${status}`);
    const refused = await REQUEST_CHECKS['missing-credential-refused'].run(context(secured(), [status]));
    assert.deepEqual(refused.map((f) => [f.outcome, f.trouble]), [['inconclusive', true]], `no credential answered ${status}`);
    const control = await REQUEST_CHECKS['missing-credential-refused'].run(context(secured(), [401, status]));
    assert.deepEqual(control.map((f) => [f.outcome, f.trouble]), [['inconclusive', true]], `control answered ${status}`);
  }
  // Bad input answered 429 every time: neither GEN-NO-5XX nor GEN-REFUSAL-STATUS holds on answers it never got.
  const throttled = await REQUEST_CHECKS['negative-data-rejection'].run(context(post, Array(20).fill(429)));
  assert.deepEqual(throttled.map((f) => [f.requirement, f.outcome]), [['GEN-NO-5XX', 'inconclusive'], ['GEN-REFUSAL-STATUS', 'inconclusive']]);
  // A 5xx to bad input is GEN-NO-5XX's failure, and no refusal GEN-REFUSAL-STATUS could judge.
  const crashed = await REQUEST_CHECKS['negative-data-rejection'].run(context(post, Array(20).fill(500)));
  assert.deepEqual(crashed.map((f) => [f.requirement, f.outcome]), [['GEN-NO-5XX', 'broken'], ['GEN-REFUSAL-STATUS', 'not-tested']]);
  // Without a body to refuse, GEN-REFUSAL-STATUS has nothing to find wrong on the operation.
  const bodiless = await REQUEST_CHECKS['negative-data-rejection'].run(context(secured(), [400]));
  assert.deepEqual(bodiless.map((f) => [f.requirement, f.outcome]), [['GEN-NO-5XX', 'held'], ['GEN-REFUSAL-STATUS', 'not-applicable']]);
});

test('the document\'s answer of a switched-off operation leaves the operation to its disabled rule', async () => {
  const ctx = context(secured({ wrongMethod: { status: 405 } }), [403, 403, 403, 403, 403], { answersDisabled: (r) => r.status === 403 });
  const method = await REQUEST_CHECKS['unsupported-method'].run(ctx);
  assert.equal(method[0].outcome, 'not-tested');
  const auth = await REQUEST_CHECKS['missing-credential-refused'].run(context(secured(), [403], { answersDisabled: (r) => r.status === 403 }));
  assert.equal(auth[0].outcome, 'not-tested');
});

test('a requirement over every operation fails where one broke, is undecided where trouble left one undecided, and passes only where none did', async () => {
  const { conclude } = await import('../../harness/generic/define.ts');
  const f = (outcome: Finding['outcome'], trouble = false): Finding => ({ requirement: 'GEN-AUTH', outcome, message: `GET /x: ${outcome}`, ...(trouble ? { trouble } : {}) });
  assert.throws(() => conclude([f('held'), f('broken'), f('inconclusive', true)]), RequirementViolation);
  assert.throws(() => conclude([f('held'), f('held'), f('inconclusive', true)]), (e) => e instanceof Inconclusive && /held on 2 operation\(s\), but the environment's trouble left 1 undecided/.test(e.message));
  assert.doesNotThrow(() => conclude([f('held'), f('inconclusive'), f('not-tested')]));
  assert.throws(() => conclude([f('not-tested')]), NotTested);
});

test('an error of the harness\'s own inside a check is not a finding: it breaks the test (exit 2), whatever the other operations found', async () => {
  const { isHarnessFault } = await import('../../harness/generic/define.ts');
  assert.equal(isHarnessFault(new TypeError("Cannot read properties of undefined (reading 'id')")), true);
  for (const e of [new RequirementViolation('X', 'broke'), new NotTested('no'), new Inconclusive('trouble')]) assert.equal(isHarnessFault(e), false, e.constructor.name);
});
