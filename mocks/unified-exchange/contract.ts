/**
 * What the reference's parts hand each other: the routing (server.ts) authenticates a request, validates what the
 * spec's schemas say of its parameters, and hands the operation to the module that owns its behaviour (trading/,
 * market.ts, funds.ts...), which answers with an Outcome. The routing turns an Outcome into the envelope and the
 * status of the reading it was started in.
 */
import type { UnifiedExchangeSettings } from '../../interfaces/unified-exchange/settings.ts';

/** What a key may do. The document names trading, futures copy trading and the broker user type. */
export interface Permissions {
  read: true;
  trade: boolean;
  copy: boolean;
}

/** One account (a UID) of the reference; several keys may belong to it. */
export interface Account {
  uid: string;
  /** A broker master account (the broker operations' user type). */
  broker: boolean;
  /** A lead trader (copy trading). */
  leadTrader: boolean;
  holdMode: 'one_way_mode' | 'hedge_mode';
  /** A master account's virtual sub-accounts and a broker's sub-accounts hang off it. */
  masterUid?: string;
}

/** A key as the routing found it for a request: its account and its permissions. */
export interface Caller {
  account: Account;
  apiKey: string;
  permissions: Permissions;
}

/** Why a request is refused: each kind has its own status in each reading (settings.refusalStatus). */
export type RefusalKind = 'auth' | 'permission' | 'validation' | 'state' | 'throttle' | 'not-found';

export type Outcome = { ok: true; data: unknown } | { ok: false; kind: RefusalKind; msg: string; code?: string };

export const accepted = (data: unknown): Outcome => ({ ok: true, data });
export const refused = (kind: RefusalKind, msg: string, code?: string): Outcome => ({ ok: false, kind, msg, ...(code ? { code } : {}) });

/**
 * A request as an operation's handler sees it: the operation id (the spec's operationId), who sent it, and its
 * parameters (query parameters for a GET, the JSON body for a POST) after the routing's checks.
 */
export interface OperationRequest {
  operationId: string;
  caller: Caller;
  params: Record<string, unknown>;
}

/** What every part of the reference is started with. */
export interface PartOptions {
  settings: UnifiedExchangeSettings;
  /** The reading the reference was started in, per open point (see readings.ts): `reading('U-NS-HOLD-MODE')`. */
  reading: (point: string) => string;
  /** Whether a seeded fault is on: `fault('post-only-takes')`. */
  fault: (name: string) => boolean;
  /** The reference's clock (ms), so a part never reads Date.now() itself. */
  now: () => number;
}

/** An operation's behaviour: what it answers to a request that passed the routing's checks. */
export type Handler = (req: OperationRequest) => Outcome | Promise<Outcome>;

/**
 * One part of the reference (trading/, market/, funds/): the operations it owns, by operationId. The routing asks
 * each part in turn; an operation no part owns is a bug of the reference, answered 500.
 */
export interface Part {
  operations: Partial<Record<string, Handler>>;
  /**
   * Told of a request of one of its operations that the routing refused for its parameters: the body as parsed (a
   * seeded fault may still act on it, as a deployment that stores an order before checking it would).
   */
  refused?(operationId: string, params: unknown, caller: Caller): void;
  /** Stops its timers (the countdown's). */
  close?(): void;
}

/** A price level: price and size, decimal strings. */
export type Level = [price: string, size: string];

/** What trading shows market data: the live book and the trades of one category and symbol. */
export interface MarketView {
  /** Best first on both sides: bids highest first, asks lowest first; at most `depth` levels each. */
  book(category: string, symbol: string, depth: number): { bids: Level[]; asks: Level[]; ts: number };
  /** The most recent trades first. */
  trades(category: string, symbol: string, limit: number): Array<{ execId: string; price: string; size: string; side: 'buy' | 'sell'; ts: number }>;
}
