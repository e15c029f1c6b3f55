// Answers of the exchange-session reference. The document shows neither error codes nor an error body ("not shown"),
// so refusals take the shape of the public exchange it follows: a numeric code, its name and a sentence.

export interface Reply {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
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
  PAYLOAD_TOO_LARGE: [413, 4131],
  INTERNAL_ERROR: [500, 5001],
} as const satisfies Record<string, readonly [number, number]>;

export type ErrorName = keyof typeof CODES;

/** A refusal carried through the handlers as a value, so the order of checks reads top to bottom. */
export class Refusal {
  constructor(
    readonly name: ErrorName,
    readonly message: string,
  ) {}

  reply(): Reply {
    const [status, errorCode] = CODES[this.name];
    const body: ErrorBody = { errorCode, errorCodeName: this.name, message: this.message };
    return { status, body };
  }
}

export const refuse = (name: ErrorName, message: string): Refusal => new Refusal(name, message);

export const ok = (body: unknown): Reply => ({ status: 200, body });
