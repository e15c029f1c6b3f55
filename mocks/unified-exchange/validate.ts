// The parameters every operation is checked for before a part sees them, from the spec's own schemas (ajv): the
// query parameters of a GET (required ones, types, the values listed), the JSON body of a POST. "GET parameters go in
// the query string; POST parameters go in a JSON body."
//
// What the routing leaves to the parts: the conditional rules (the spec's if/then - price for a limit order, chain for
// an on-chain withdrawal, symbol for an isolated-margin transfer, amount when repayAll is no, price or premium by
// priceType - and "one of the two" - orderId or clientOid, pledgeAmount or loanAmount). Order rules are the trading
// part's, the others the funds part's: they are stripped from the schemas here, so that a part's fault skipping one
// shows.
//
// Readings taken here: U-NS-NUMBER-INPUT (a JSON number where a decimal string is documented: taken as its string, or
// refused), U-NS-UNKNOWN-MEMBERS (a body member the spec does not list: ignored, or refused; unknown query parameters
// are always passed on, so that a part can read what its own readings need beyond the spec, such as category on the
// lookup), U-NS-REQUEST-CONTENT-TYPE (json-required: a POST body not declared application/json is refused 415),
// U-NS-UNLISTED-CATEGORY (a category value the operation does not list is told apart from a value that is none, so
// that the routing can answer a read of it with no records), U-NS-ID-TYPES integers (an id sent back as an integer is
// taken as its digits).
import type { ValidateFunction } from 'ajv';
import { makeAjv } from '../../harness/validation/ajv.ts';
import type { Choices, RoutingFault, RoutingReading } from './choices.ts';
import { refused, type Outcome } from './contract.ts';
import type { Op } from './operations.ts';
import { CODES, ID_MEMBERS, type RouteFailure } from './replies.ts';

/** Every category value (the document's five, and FUTURES of score-weights and fee-group). */
const CATEGORY_VALUES = new Set(['SPOT', 'MARGIN', 'USDT-FUTURES', 'COIN-FUTURES', 'USDC-FUTURES', 'FUTURES']);
const FUTURES_CATEGORIES = new Set(['USDT-FUTURES', 'COIN-FUTURES', 'USDC-FUTURES']);
/** Operations taking SPOT or FUTURES, whose futures category values are U-NS-GROUP-CATEGORIES (a part's point). */
const GROUP_OPERATIONS = new Set(['getScoreWeights', 'getFeeGroup']);
/** The fault enum-not-checked: these filters' values are not checked (an unknown one is dropped). */
const UNCHECKED_FILTERS: Record<string, string> = { listBrokerSubAccounts: 'status', getLoanHistory: 'status', getFeeGroup: 'group' };
/**
 * Body members a deployment knows beyond the spec's (U-NS-UNKNOWN-MEMBERS refused does not refuse them): the order
 * references of the public exchange carry category and symbol too, and U-NS-EXTRA-PARAMETERS category-required needs
 * them.
 */
const KNOWN_BEYOND_SPEC: Record<string, readonly string[]> = {
  cancelOrder: ['category', 'symbol'],
  cancelStrategyOrder: ['category', 'symbol'],
  batchModifyOrders: ['category', 'symbol'],
};
/** The fault required-not-checked: these operations do without symbol. */
const SYMBOL_DEFAULTED = new Set(['getOrderBook', 'getCandles', 'getHistoryCandles']);

export type Checked =
  | {
      ok: true;
      params: Record<string, unknown>;
      /**
       * A category value the operation does not list: params name the first it lists instead, and `variants` every
       * listed category (with the symbol as sent, then the profile's symbol of the category), for an answer with no
       * records in a listed category's shape.
       */
      unlisted?: { value: string; variants: Array<Record<string, unknown>> };
    }
  | { ok: false; outcome: Outcome; /** The body as parsed, where it was JSON (the parts are told of a refused write). */ body?: unknown }
  | { ok: false; failure: RouteFailure };

export interface ValidatorOptions {
  doc: Record<string, any>;
  choices: Choices;
  reading: RoutingReading;
  on: RoutingFault;
  /** U-NS-GROUP-CATEGORIES futures-categories-too, where a part's catalogue has that point. */
  groupFuturesTaken: boolean;
  /** The profile's symbol of a category (the fault required-not-checked serves it). */
  symbolOf(category: string): string;
  /** What of this operation's body a part's seeded fault lets through unchecked: all of it, or one member. */
  bodyUnchecked(operationId: string): { member?: string } | undefined;
}

export interface Validator {
  query(op: Op, query: URLSearchParams): Checked;
  body(op: Op, raw: string, contentType: string | undefined): Checked;
}

export function validator(o: ValidatorOptions): Validator {
  const ajv = makeAjv({ validateSchema: false });
  const compiled = new Map<string, { check: ValidateFunction; schema: any }>();
  const numbersTaken = o.reading('U-NS-NUMBER-INPUT') === 'accepted';
  const unknownRefused = o.reading('U-NS-UNKNOWN-MEMBERS') === 'refused';
  const integerIds = o.reading('U-NS-ID-TYPES') === 'integers';
  const invalid = (msg: string, body?: unknown): Checked => ({ ok: false, outcome: refused('validation', msg, CODES.validation), ...(body !== undefined ? { body } : {}) });

  /** The operation's schema, its $refs inlined and the parts' rules stripped, compiled once. */
  function compiledFor(key: string, make: () => unknown) {
    let hit = compiled.get(key);
    if (!hit) {
      const schema = strip(inline(make(), o.doc));
      hit = { check: ajv.compile(schema as object), schema };
      compiled.set(key, hit);
    }
    return hit;
  }

  function query(op: Op, q: URLSearchParams): Checked {
    const params: Record<string, unknown> = {};
    for (const [k, v] of q) if (!(k in params)) params[k] = v;
    const { check, schema } = compiledFor(`query ${op.id}`, () => ({
      type: 'object',
      properties: Object.fromEntries(op.query.map((p) => [p.name, partOwnsBound(op.id, p.name) ? { ...(p.schema as object), maximum: undefined } : (p.schema ?? {})])),
      required: op.query.filter((p) => p.required).map((p) => p.name),
    }));
    // The fault: a filter's value is not checked against its list; an unknown one is dropped.
    const filter = UNCHECKED_FILTERS[op.id];
    if (filter && o.on('enum-not-checked') && params[filter] !== undefined && !(schema.properties[filter]?.enum ?? []).includes(params[filter])) delete params[filter];
    // The fault: symbol is not required; the profile's symbol of the category is served.
    if (SYMBOL_DEFAULTED.has(op.id) && o.on('required-not-checked') && params.symbol === undefined && typeof params.category === 'string') params.symbol = o.symbolOf(params.category);
    // Query values are text: a number or a boolean parameter is the one its digits write.
    for (const p of op.query) {
      const value = params[p.name];
      if (typeof value !== 'string') continue;
      const type = schema.properties[p.name]?.type;
      if ((type === 'integer' || type === 'number') && /^-?\d+(\.\d+)?$/.test(value)) params[p.name] = Number(value);
      if (type === 'boolean' && (value === 'true' || value === 'false')) params[p.name] = value === 'true';
    }
    const listed: unknown[] | undefined = schema.properties.category?.enum;
    const value = listedCategory(op, params, listed);
    if (!check(params)) return invalid(message(check, 'query'));
    if (value === undefined || !listed) return { ok: true, params };
    const variants = listed.flatMap((category) => [
      { ...params, category },
      ...(params.symbol !== undefined ? [{ ...params, category, symbol: o.symbolOf(String(category)) }] : []),
    ]);
    return { ok: true, params, unlisted: { value, variants } };
  }

  function body(op: Op, raw: string, contentType: string | undefined): Checked {
    if (o.reading('U-NS-REQUEST-CONTENT-TYPE') === 'json-required' && !/^application\/([\w.-]+\+)?json\s*(;|$)/i.test(contentType ?? '')) {
      return { ok: false, failure: { status: 415, code: CODES.mediaType, msg: 'The body must be sent as application/json.' } };
    }
    if (raw.trim() === '') return op.bodyRequired ? invalid('A JSON body is required.') : { ok: true, params: {} };
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch (e) {
      // The fault: the parser's error escapes the handler.
      if (o.on('5xx-on-bad-input')) throw e;
      // A body that is not JSON is 400 even where well-formed bad input is 422 (U-NS-VALIDATION-STATUS).
      const status = o.choices.status.validation === 422 ? 400 : o.choices.status.validation;
      return { ok: false, failure: { status, code: CODES.notJson, msg: 'The body is not JSON.' } };
    }
    if (!op.bodySchema) return { ok: true, params: isObject(parsed) ? parsed : {} };
    const { check, schema } = compiledFor(`body ${op.id}`, () => op.bodySchema);
    const items = Array.isArray(parsed) ? parsed : [parsed];
    const itemSchema = Array.isArray(parsed) ? (schema.items ?? {}) : schema;
    for (const item of items) if (isObject(item)) coerce(item, itemSchema);
    if (unknownRefused) {
      const known = knownMembers(itemSchema);
      const beyond = new Set(KNOWN_BEYOND_SPEC[op.id] ?? []);
      const extra = [...new Set(items.flatMap((item) => (isObject(item) && known ? Object.keys(item).filter((k) => !known.has(k) && !beyond.has(k)) : [])))];
      if (extra.length) return invalid(`Unknown member(s): ${extra.join(', ')}.`, parsed);
    }
    // The fault: the trading operations' bodies go to the trading part unchecked.
    if (o.on('order-body-unchecked') && op.path.startsWith('/api/v3/trade/')) return { ok: true, params: parsed as Record<string, unknown> };
    const unchecked = o.bodyUnchecked(op.id);
    if (unchecked && unchecked.member === undefined) return { ok: true, params: isObject(parsed) ? parsed : {} };
    const checked = unchecked?.member !== undefined && isObject(parsed) ? Object.fromEntries(Object.entries(parsed).filter(([k]) => k !== unchecked.member)) : parsed;
    if (!check(checked)) return invalid(message(check, 'body'), parsed);
    // An array body (the batches) is handed over as it is: "body is an array".
    return { ok: true, params: parsed as Record<string, unknown> };
  }

  /** U-NS-NUMBER-INPUT accepted and U-NS-ID-TYPES integers: JSON numbers where the spec wants digits, as their text. */
  function coerce(item: Record<string, unknown>, schema: any): void {
    for (const [k, v] of Object.entries(item)) {
      if (typeof v !== 'number' || !Number.isFinite(v)) continue;
      const member = propertiesOf(schema)[k];
      const digits = member?.type === 'string' && typeof member.pattern === 'string' && member.pattern.startsWith('^[0-9]+');
      if ((digits && numbersTaken) || (integerIds && ID_MEMBERS.has(k) && Number.isSafeInteger(v))) item[k] = String(v);
    }
  }

  /**
   * A category value the operation does not list (MARGIN for tickers) is replaced by the first it lists, and returned:
   * the routing refuses it or answers it with no records (U-NS-UNLISTED-CATEGORY). A futures category value at
   * score-weights or fee-group is FUTURES where U-NS-GROUP-CATEGORIES takes it so.
   */
  function listedCategory(op: Op, params: Record<string, unknown>, listed: unknown[] | undefined): string | undefined {
    const value = params.category;
    if (typeof value !== 'string' || !listed) return undefined;
    if (GROUP_OPERATIONS.has(op.id) && o.groupFuturesTaken && FUTURES_CATEGORIES.has(value)) params.category = 'FUTURES';
    if (listed.includes(params.category) || !CATEGORY_VALUES.has(value)) return undefined;
    params.category = listed[0];
    return value;
  }

  return { query, body };
}

/**
 * A limit whose larger values a part answers: candles above 1000 are capped or refused by the market part, as
 * U-NS-CANDLE-LIMIT-OVER's reading says; the spec's maximum states the most an answer holds, not a refusal.
 */
function partOwnsBound(operationId: string, parameter: string): boolean {
  return parameter === 'limit' && (operationId === 'getCandles' || operationId === 'getHistoryCandles');
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The properties an (inlined) object schema names, its allOf branches' included. */
function propertiesOf(schema: any): Record<string, any> {
  if (!schema || typeof schema !== 'object') return {};
  return Object.assign({}, ...(schema.allOf ?? []).map(propertiesOf), schema.properties ?? {});
}

/** The members a body object may carry, or undefined where the schema names none (any member goes). */
function knownMembers(schema: any): Set<string> | undefined {
  const names = Object.keys(propertiesOf(schema));
  return names.length ? new Set(names) : undefined;
}

/** The first problem ajv found, in words a client can act on. */
function message(check: ValidateFunction, where: 'query' | 'body'): string {
  const e = check.errors?.[0];
  if (!e) return `The ${where} is not valid.`;
  const at = e.instancePath ? e.instancePath.slice(1).replace(/\//g, '.') : '';
  if (e.keyword === 'required') return `${[at, (e.params as { missingProperty: string }).missingProperty].filter(Boolean).join('.')} is required.`;
  if (e.keyword === 'enum') return `${at || where} must be one of ${((e.params as { allowedValues: unknown[] }).allowedValues ?? []).join(', ')}.`;
  return `${at || where} ${e.message ?? 'is not valid'}.`;
}

/** The schema with its local $refs inlined (the spec's schemas hold no cycles); siblings of a $ref are kept. */
function inline(node: unknown, doc: Record<string, any>): unknown {
  if (Array.isArray(node)) return node.map((n) => inline(n, doc));
  if (!node || typeof node !== 'object') return node;
  const { $ref, ...rest } = node as Record<string, unknown>;
  const own = Object.fromEntries(Object.entries(rest).map(([k, v]) => [k, inline(v, doc)]));
  if (typeof $ref !== 'string' || !$ref.startsWith('#/')) return own;
  const target = $ref.slice(2).split('/').reduce<any>((at, part) => at?.[part.replace(/~1/g, '/').replace(/~0/g, '~')], doc);
  return { ...(inline(target, doc) as object), ...own };
}

/**
 * The parts' rules taken out of a schema: if/then/else, and an anyOf or oneOf whose every branch only requires
 * members ("orderId or clientOid", "pledgeAmount or loanAmount"); an allOf left empty goes too.
 */
function strip(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(strip);
  if (!node || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node)) {
    if (k === 'if' || k === 'then' || k === 'else' || k === 'examples') continue;
    if ((k === 'anyOf' || k === 'oneOf') && Array.isArray(v) && v.every((b) => b && typeof b === 'object' && Object.keys(b).every((bk) => bk === 'required'))) continue;
    out[k] = strip(v);
  }
  if (Array.isArray(out.allOf)) {
    out.allOf = (out.allOf as unknown[]).filter((b) => b && typeof b === 'object' && Object.keys(b).length > 0);
    if ((out.allOf as unknown[]).length === 0) delete out.allOf;
  }
  return out;
}
