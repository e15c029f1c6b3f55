// Answers of the exchange-session reference. The document shows neither error codes nor an error body ("not shown"),
// so refusals take the shape of the public exchange it follows: a numeric code, its name and a sentence.

export interface Reply {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
  /** The refusal this reply stands for (never sent): what the readings of refusal statuses and error bodies look at. */
  refusal?: Refusal;
}

export interface ErrorBody {
  errorCode: number;
  errorCodeName: string;
  message: string;
}

// One entry per reason a request is refused; the status follows what kind of refusal it is (bad input or nonce 400,
// authentication 401, scope or address 403, nothing there 404).
const CODES = {
  BAD_REQUEST: [400, 1001],
  INVALID_NONCE: [400, 1002],
  INVALID_ORDER: [400, 1003],
  ORDER_NOT_OPEN: [400, 1004],
  UNAUTHORIZED: [401, 2001],
  LOGIN_REFUSED: [401, 2002],
  INVALID_SIGNATURE: [401, 2003],
  LOGIN_EXPIRED: [401, 2004],
  KEY_SCOPE: [403, 3001],
  IP_NOT_WHITELISTED: [403, 3002],
  NOT_FOUND: [404, 4001],
  ORDER_NOT_FOUND: [404, 4002],
  // Only in other readings of open points (see readings.ts): a method the path does not serve, a body that is not
  // JSON by its content type, a rate limit reached.
  METHOD_NOT_ALLOWED: [405, 4051],
  PAYLOAD_TOO_LARGE: [413, 4131],
  UNSUPPORTED_MEDIA_TYPE: [415, 4151],
  RATE_LIMIT_EXCEEDED: [429, 9600],
  INTERNAL_ERROR: [500, 5001],
} as const satisfies Record<string, readonly [number, number]>;

export type ErrorName = keyof typeof CODES;

/**
 * What kind of refusal within its name, where a reading of an open point answers kinds of one name differently: a body
 * that is not JSON at all, a nonce that is not above the last one or was used before.
 */
export type RefusalDetail = 'malformed-json' | 'nonce-not-fresh';

/** A refusal carried through the handlers as a value, so the order of checks reads top to bottom. */
export class Refusal {
  constructor(
    readonly name: ErrorName,
    readonly message: string,
    readonly detail?: RefusalDetail,
  ) {}

  reply(): Reply {
    const [status, errorCode] = CODES[this.name];
    const body: ErrorBody = { errorCode, errorCodeName: this.name, message: this.message };
    return { status, body, refusal: this };
  }

  /** The numeric code of the public exchange's error body. */
  get code(): number {
    return CODES[this.name][1];
  }
}

export const refuse = (name: ErrorName, message: string, detail?: RefusalDetail): Refusal => new Refusal(name, message, detail);

export const ok = (body: unknown): Reply => ({ status: 200, body });
