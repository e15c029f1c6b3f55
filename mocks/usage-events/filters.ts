// Filter clauses: "a JSON filter clause in the same format as meter filters". The format is not shown; the reference
// takes the real billing product's: {"conjunction": "and"|"or", "clauses": [...]}, each clause either
// {"property", "operator", "value"} or a nested filter. The product's semantics, kept here:
// - property "name", "source", "customer_id", "external_customer_id" or "timestamp" is the event's own field; any
//   other names a member of its properties ("metadata.<name>" too, the product's older spelling);
// - a field or property the event lacks matches no clause, ne and not_like included (SQL's NULL);
// - the event's own string fields compare with string values only; timestamp with an ISO 8601 string or epoch seconds;
// - a string property compares with the value as a string; a number property with number values only; a boolean
//   property with boolean values only (false < true); any other pairing matches nothing;
// - like and not_like compare as text, and the value is a SQL LIKE pattern matched anywhere in the text (the product
//   wraps it in %...%): % any run of characters, _ one character, \ escapes the next; letter case counts.
// Strings are ordered by UTF-16 code units.
//
// Where a deployment may read the format otherwise (open points of specs/usage-events.yaml), `FilterRules` (what a
// filter parameter may hold: D-NS-METERS, D-NS-FILTER-OPERATORS, D-NS-EMPTY-CLAUSES) and `MatchRules` (how a clause
// matches: D-NS-LIKE-SEMANTICS, D-NS-MISSING-PROPERTY, D-NS-CLAUSE-TYPES, D-NS-EMPTY-CLAUSES) say which reading; their
// defaults are the product's semantics above.
import { compareInstants, parseInstant } from './instants.js';
import { isRecord, type StoredEvent } from './store.js';

/** What a filter parameter may hold, beyond the format. */
export interface FilterRules {
  /** Nested filters among the clauses (D-NS-METERS nested-filters); false: flat-filters. */
  nested: boolean;
  /** The operators known (D-NS-FILTER-OPERATORS). */
  operators: readonly Operator[];
  /** An empty clauses list is refused (D-NS-EMPTY-CLAUSES refused). */
  emptyRefused: boolean;
}

/** How clauses match. */
export interface MatchRules {
  like: 'contains-case-sensitive' | 'anchored' | 'case-insensitive';
  /** ne and not_like match an event that lacks the property (D-NS-MISSING-PROPERTY negations-match). */
  negationsMatchMissing: boolean;
  /** Values are compared after conversion where one side is a number and the other a numeric string (D-NS-CLAUSE-TYPES coerced). */
  coerced: boolean;
  /** An empty clauses list matches every event, whatever its conjunction (D-NS-EMPTY-CLAUSES matches-all). */
  emptyMatchesAll: boolean;
}

export const DEFAULT_FILTER_RULES: FilterRules = { nested: true, operators: ['eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'like', 'not_like'], emptyRefused: false };
export const DEFAULT_MATCH_RULES: MatchRules = { like: 'contains-case-sensitive', negationsMatchMissing: false, coerced: false, emptyMatchesAll: false };

export const OPERATORS = ['eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'like', 'not_like'] as const;
export type Operator = (typeof OPERATORS)[number];
export type ClauseValue = string | number | boolean;

export interface Clause {
  property: string;
  operator: Operator;
  value: ClauseValue;
}

export interface Filter {
  conjunction: 'and' | 'or';
  clauses: Array<Clause | Filter>;
}

const OWN_STRING_FIELDS = ['name', 'source', 'customer_id', 'external_customer_id'] as const;
const MAX_DEPTH = 8;

/** The filter a JSON text (or an already parsed value) describes, or the reason it is not one. */
export function parseFilter(input: unknown, depth = 0, rules: FilterRules = DEFAULT_FILTER_RULES): Filter | string {
  let value = input;
  if (typeof input === 'string') {
    try {
      value = JSON.parse(input);
    } catch {
      return 'is not JSON';
    }
  }
  if (depth > MAX_DEPTH) return `nests deeper than ${MAX_DEPTH} levels`;
  if (!isRecord(value)) return 'must be an object with conjunction and clauses';
  const extra = Object.keys(value).filter((k) => k !== 'conjunction' && k !== 'clauses');
  if (extra.length) return `has unknown members: ${extra.join(', ')}`;
  if (value.conjunction !== 'and' && value.conjunction !== 'or') return 'conjunction must be "and" or "or"';
  if (!Array.isArray(value.clauses)) return 'clauses must be an array';
  if (rules.emptyRefused && value.clauses.length === 0) return 'clauses must not be empty';
  const clauses: Array<Clause | Filter> = [];
  for (const [i, c] of value.clauses.entries()) {
    if (!rules.nested && isRecord(c) && 'conjunction' in c) return `clause ${i} is a filter: clauses do not nest`;
    const parsed = isRecord(c) && 'conjunction' in c ? parseFilter(c, depth + 1, rules) : parseClause(c, rules.operators);
    if (typeof parsed === 'string') return `clause ${i} ${parsed}`;
    clauses.push(parsed);
  }
  return { conjunction: value.conjunction, clauses };
}

function parseClause(c: unknown, operators: readonly Operator[]): Clause | string {
  if (!isRecord(c)) return 'must be an object with property, operator and value';
  const extra = Object.keys(c).filter((k) => k !== 'property' && k !== 'operator' && k !== 'value');
  if (extra.length) return `has unknown members: ${extra.join(', ')}`;
  if (typeof c.property !== 'string' || c.property === '') return 'property must be a non-empty string';
  if (!operators.includes(c.operator as Operator)) return `operator must be one of ${operators.join(', ')}`;
  if (!['string', 'number', 'boolean'].includes(typeof c.value) || (typeof c.value === 'number' && !Number.isFinite(c.value))) {
    return 'value must be a string, a number or a boolean';
  }
  const property = c.property.startsWith('metadata.') ? c.property.slice('metadata.'.length) : c.property;
  return { property, operator: c.operator as Operator, value: c.value as ClauseValue };
}

/** Does the event match the filter? `conjunction` overrides every conjunction of it (the 'conjunction-ignored' fault). */
export function matches(event: StoredEvent, filter: Filter, conjunction?: 'and' | 'or', rules: MatchRules = DEFAULT_MATCH_RULES): boolean {
  if (rules.emptyMatchesAll && filter.clauses.length === 0) return true;
  const one = (c: Clause | Filter) => ('conjunction' in c ? matches(event, c, conjunction, rules) : clauseMatches(event, c, rules));
  return (conjunction ?? filter.conjunction) === 'and' ? filter.clauses.every(one) : filter.clauses.some(one);
}

const NUMERIC = /^\s*-?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*$/;

function clauseMatches(event: StoredEvent, clause: Clause, rules: MatchRules): boolean {
  const { property, operator, value } = clause;
  const negation = operator === 'ne' || operator === 'not_like';
  if ((OWN_STRING_FIELDS as readonly string[]).includes(property)) {
    const own = event[property as (typeof OWN_STRING_FIELDS)[number]];
    if (own === null) return rules.negationsMatchMissing && negation;
    if (rules.coerced && typeof value !== 'string') return compare(own, operator, String(value), rules);
    return typeof value === 'string' && compare(own, operator, value, rules);
  }
  if (property === 'timestamp') {
    if (operator === 'like' || operator === 'not_like') return false;
    const bound = typeof value === 'number' ? BigInt(Math.round(value * 1000)) * 1000n : typeof value === 'string' ? parseInstant(value) : undefined;
    return bound !== undefined && ordered(compareInstants(event.timestamp, bound), operator);
  }
  if (!Object.hasOwn(event.properties, property)) return rules.negationsMatchMissing && negation;
  const actual = event.properties[property]!;
  // Values only the any-json reading of D-NS-PROPERTY-TYPES stores (null, objects, arrays) match no clause.
  if (actual === null || typeof actual === 'object') return rules.negationsMatchMissing && negation;
  if (operator === 'like' || operator === 'not_like') return compare(String(actual), operator, String(value), rules);
  if (rules.coerced && typeof actual !== typeof value) {
    // Loose comparison: a number and a numeric string compare as numbers, anything else as text.
    const a = typeof actual === 'number' ? actual : typeof actual === 'string' && NUMERIC.test(actual) ? Number(actual) : undefined;
    const b = typeof value === 'number' ? value : typeof value === 'string' && NUMERIC.test(value) ? Number(value) : undefined;
    if (a !== undefined && b !== undefined) return ordered(a < b ? -1 : a > b ? 1 : 0, operator);
    return compare(String(actual), operator, String(value), rules);
  }
  if (typeof actual === 'string') return compare(actual, operator, String(value), rules);
  if (typeof actual !== typeof value) return false;
  return ordered(actual < value ? -1 : actual > value ? 1 : 0, operator);
}

function compare(actual: string, operator: Operator, value: string, rules: MatchRules = DEFAULT_MATCH_RULES): boolean {
  if (operator === 'like') return likePattern(value, rules.like).test(actual);
  if (operator === 'not_like') return !likePattern(value, rules.like).test(actual);
  return ordered(actual < value ? -1 : actual > value ? 1 : 0, operator);
}

function ordered(sign: number, operator: Operator): boolean {
  switch (operator) {
    case 'eq':
      return sign === 0;
    case 'ne':
      return sign !== 0;
    case 'gt':
      return sign > 0;
    case 'gte':
      return sign >= 0;
    case 'lt':
      return sign < 0;
    case 'lte':
      return sign <= 0;
    default:
      return false;
  }
}

/**
 * The value as a LIKE pattern matched anywhere: %value% (contains-case-sensitive); `anchored`: SQL's LIKE, the pattern
 * matches the whole text; `case-insensitive`: ILIKE, matched anywhere.
 */
function likePattern(value: string, like: MatchRules['like'] = 'contains-case-sensitive'): RegExp {
  const chars = Array.from(value);
  let source = '';
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i]!;
    if (ch === '\\' && i + 1 < chars.length) source += escapeRegExp(chars[++i]!);
    else if (ch === '%') source += '.*';
    else if (ch === '_') source += '.';
    else source += escapeRegExp(ch);
  }
  if (like === 'anchored') return new RegExp(`^${source}$`, 'su');
  return new RegExp(`^.*${source}.*$`, like === 'case-insensitive' ? 'sui' : 'su');
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
