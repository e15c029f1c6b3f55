/**
 * Request cases for the error-code matrix. A case names the KIND of key it sends, never a key value, so that a
 * counterexample can be printed; the value is built from the run's secrets when the case is sent.
 */
import fc from 'fast-check';
import { ENDPOINTS, KEY_HEADER, METHODS, PATHS, type BodyKind, type BridgePath, type KeyKind } from './model.ts';

/** Every console line the harness writes starts with this, so that whoever reads the console knows its source. */
export const HARNESS_PREFIX = '[conformance-harness]';
/** Cases the matrix property runs at the default depth. */
export const MATRIX_RUNS = 150;
export const COMMON_LEVELS = ['info', 'warn', 'error', 'debug'];

export interface Body {
  kind: BodyKind;
  /** Sent as JSON with Content-Type application/json. */
  json?: unknown;
  /** Sent as it is, with `contentType` if given. */
  raw?: string;
  contentType?: string;
}

export interface RequestCase {
  method: string;
  path: BridgePath;
  key: KeyKind;
  headerName: string;
  body: Body;
}

/** One body of each kind, for the table rows; the property draws variants of them. */
export const EXAMPLE_BODIES: Record<BodyKind, Body> = {
  message: { kind: 'message', json: { message: `${HARNESS_PREFIX} table row`, level: 'info' } },
  'message-no-level': { kind: 'message-no-level', json: { message: `${HARNESS_PREFIX} table row without level` } },
  'message-any-level': { kind: 'message-any-level', json: { message: `${HARNESS_PREFIX} table row at level Trace`, level: 'Trace' } },
  'message-no-content-type': { kind: 'message-no-content-type', raw: JSON.stringify({ message: `${HARNESS_PREFIX} table row without Content-Type`, level: 'info' }) },
  'empty-message': { kind: 'empty-message', json: { message: '' } },
  'no-message': { kind: 'no-message', json: { level: 'info' } },
  'not-json': { kind: 'not-json', raw: '{"message": ', contentType: 'application/json' },
  'not-object': { kind: 'not-object', raw: 'null', contentType: 'application/json' },
  'message-not-string': { kind: 'message-not-string', json: { message: null, level: 'info' } },
  'level-not-string': { kind: 'level-not-string', json: { message: `${HARNESS_PREFIX} table row at level null`, level: null } },
  absent: { kind: 'absent' },
};

/** Bodies real clients and proxies send that look like JSON and are not: unquoted keys, single quotes, cut short. */
export const NOT_JSON = ['{"message": ', `${HARNESS_PREFIX} plain text`, 'message=hello&level=info', "{'message': 'x'}", '{message:hello}', '{"message": "x", "level": "info"', '{"message": "x",}'];
/** Present, but not a string: "A 400 is returned only when message is absent entirely". */
export const NOT_STRING_MESSAGES: unknown[] = [null, 42, 0, true, { text: 'x' }, ['x'], false];
/** A level present but not a string: null first, which clients send for "no level" and which broke real bridges. */
export const NOT_STRING_LEVELS: unknown[] = [null, 3, { name: 'warn' }, true, ['info']];

const message = fc.string({ maxLength: 30 }).map((s) => `${HARNESS_PREFIX} ${s}`);
const commonLevel = fc.constantFrom(...COMMON_LEVELS);
const otherLevel = fc
  .oneof(fc.constantFrom('INFO', 'Warn', 'DEBUG', 'trace', 'fine', 'severe', 'notice', 'fatal', ''), fc.string({ maxLength: 12 }))
  .filter((l) => !COMMON_LEVELS.includes(l));
const variants = <T>(kind: BodyKind, values: T[], toBody: (v: T) => Omit<Body, 'kind'>) => fc.constantFrom(...values).map((v) => ({ kind, ...toBody(v) }));

const BODIES: Record<BodyKind, fc.Arbitrary<Body>> = {
  message: fc.record({ message, level: commonLevel }).map((json) => ({ kind: 'message', json })),
  'message-no-level': message.map((m) => ({ kind: 'message-no-level', json: { message: m } })),
  'message-any-level': fc.record({ message, level: otherLevel }).map((json) => ({ kind: 'message-any-level', json })),
  'message-no-content-type': fc.record({ message, level: commonLevel }).map((j) => ({ kind: 'message-no-content-type', raw: JSON.stringify(j) })),
  'empty-message': variants('empty-message', [{ message: '' }, { message: '', level: 'info' }], (json) => ({ json })),
  'no-message': variants('no-message', [{}, { level: 'warn' }, { msg: `${HARNESS_PREFIX} msg`, level: 'info' }, { text: `${HARNESS_PREFIX} text` }], (json) => ({ json })),
  'not-json': variants('not-json', NOT_JSON, (raw) => ({ raw, contentType: 'application/json' })),
  'not-object': variants('not-object', ['null', '[]', '42', '"message"', 'true', '[{"message":"x"}]'], (raw) => ({ raw, contentType: 'application/json' })),
  'message-not-string': fc.record({ message: fc.constantFrom(...NOT_STRING_MESSAGES), level: fc.constantFrom(...COMMON_LEVELS) }).map((json) => ({ kind: 'message-not-string', json })),
  'level-not-string': fc.record({ message, level: fc.constantFrom(...NOT_STRING_LEVELS) }).map((json) => ({ kind: 'level-not-string', json })),
  absent: fc.constant(EXAMPLE_BODIES.absent),
};

/**
 * One dimension of a case: the conforming value, or with `share` percent one of the deviations. It shrinks to the
 * conforming value, so that a counterexample keeps only the deviations it needs (one, when one alone fails).
 */
function dim<T>(normal: fc.Arbitrary<T>, deviations: fc.Arbitrary<T>, share: number): fc.Arbitrary<T> {
  return fc.oneof({ withCrossShrink: true }, { arbitrary: normal, weight: 100 - share }, { arbitrary: deviations, weight: share });
}

/** The spelling of the key header's name: as written, lower, upper, or a random mix of capitals. */
const headerName = fc.oneof(
  { withCrossShrink: true },
  fc.constantFrom(KEY_HEADER, KEY_HEADER.toLowerCase(), KEY_HEADER.toUpperCase()),
  fc.array(fc.boolean(), { minLength: KEY_HEADER.length, maxLength: KEY_HEADER.length }).map((up) => [...KEY_HEADER].map((ch, i) => (up[i] ? ch.toUpperCase() : ch.toLowerCase())).join('')),
);

const WRONG_KEYS: KeyKind[] = ['missing', 'wrong', 'case-swapped', 'prefix', 'empty', 'appended'];
const OTHER_BODIES = (Object.keys(BODIES) as BodyKind[]).filter((k) => k !== 'message').map((k) => BODIES[k]);
/** A log body as the document describes it: a message with a common level, or without level (it is optional). */
const DOCUMENTED_BODY = fc.oneof({ withCrossShrink: true }, BODIES.message, BODIES['message-no-level']);

/** Percent of cases that deviate in each dimension, by what a case focuses on. */
interface Focus {
  key: number;
  method: number;
  body: number;
  logOnly?: boolean;
}

function focused(f: Focus): fc.Arbitrary<RequestCase> {
  return fc
    .record({
      path: f.logOnly ? fc.constant<BridgePath>('/v2/log') : fc.constantFrom(...PATHS),
      wrongMethod: dim(fc.constant(0), fc.integer({ min: 1, max: METHODS.length - 1 }), f.method),
      key: dim(fc.constant<KeyKind>('right'), fc.constantFrom(...WRONG_KEYS), f.key),
      headerName,
      body: dim(DOCUMENTED_BODY, fc.oneof(...OTHER_BODIES), f.body),
    })
    .map(({ path, wrongMethod, key, headerName, body }) => {
      const right = ENDPOINTS[path].method;
      const method = wrongMethod === 0 ? right : METHODS.filter((m) => m !== right)[wrongMethod - 1];
      // A GET carries no body; the body kinds are about POST /v2/log.
      return { method, path, key, headerName, body: method === 'GET' ? { kind: 'absent' as const } : body };
    });
}

/**
 * Most cases deviate in one dimension, so that every row of the tables is met at the default depth; a share
 * combines deviations, where the document leaves the order of the checks open.
 */
export const requestCase: fc.Arbitrary<RequestCase> = fc.oneof(
  { arbitrary: focused({ key: 10, method: 10, body: 10 }), weight: 2 },
  { arbitrary: focused({ key: 40, method: 40, body: 40 }), weight: 2 },
  { arbitrary: focused({ key: 90, method: 10, body: 10 }), weight: 3 },
  { arbitrary: focused({ key: 10, method: 85, body: 10 }), weight: 2 },
  { arbitrary: focused({ key: 5, method: 5, body: 90, logOnly: true }), weight: 6 },
);

/** The rows of the tables: the conforming request to each endpoint, then each with one thing changed. */
export function tableRows(): RequestCase[] {
  const rows: RequestCase[] = [];
  for (const path of PATHS) {
    const right = ENDPOINTS[path].method;
    const base: RequestCase = { method: right, path, key: 'right', headerName: KEY_HEADER, body: right === 'POST' ? EXAMPLE_BODIES.message : EXAMPLE_BODIES.absent };
    rows.push(base);
    for (const key of WRONG_KEYS) rows.push({ ...base, key });
    for (const headerName of [KEY_HEADER.toLowerCase(), KEY_HEADER.toUpperCase()]) rows.push({ ...base, headerName });
    for (const method of METHODS.filter((m) => m !== right)) rows.push({ ...base, method, body: method === 'GET' ? EXAMPLE_BODIES.absent : base.body });
    if (path === '/v2/log') {
      for (const body of Object.values(EXAMPLE_BODIES)) if (body !== base.body) rows.push({ ...base, body });
      for (const raw of NOT_JSON.slice(1)) rows.push({ ...base, body: { kind: 'not-json', raw, contentType: 'application/json' } });
      for (const message of NOT_STRING_MESSAGES.slice(1, 5)) rows.push({ ...base, body: { kind: 'message-not-string', json: { message } } });
      for (const level of NOT_STRING_LEVELS.slice(1)) rows.push({ ...base, body: { kind: 'level-not-string', json: { message: `${HARNESS_PREFIX} table row`, level } } });
    }
  }
  return rows;
}
