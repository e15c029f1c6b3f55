// The operations the reference serves, read from the spec (the one list of paths, methods, security, reserved roles
// and parameters), at the paths the profile relocates. The routing never lists an operation by hand: a path added to
// the spec is routed, validated and guarded as the spec says, and answered by whichever part owns its operationId.
import { loadSpec } from '../../harness/spec/load.ts';
import type { Operation, Parameter } from '../../harness/spec/types.ts';

/** The operations that create something (U-NS-SUCCESS-STATUS created-201 answers them 201). */
const CREATING = new Set(['placeOrder', 'transfer', 'withdraw', 'createSubAccount', 'borrow', 'createP2pAd', 'createBrokerSubAccount']);

/**
 * Funds, earn, loan and P2P writes: under U-NS-ACCOUNT-PERMISSIONS write-permissions they need a key with more than
 * read permission (the reading names transfers, withdrawals, repayments, sub-account creation, earn, loans and
 * advertisements).
 */
const FUNDS_WRITES = new Set(['transfer', 'withdraw', 'repayLiabilities', 'createSubAccount', 'subscribeEarn', 'redeemEarn', 'borrow', 'repayLoan', 'createP2pAd']);

export interface Op {
  /** The spec's operationId: what a part owns. */
  id: string;
  method: 'GET' | 'POST';
  /** The spec's path (reports name the operation by it). */
  specPath: string;
  /** Where this deployment serves it. */
  path: string;
  /** `security: []`: public market data. */
  public: boolean;
  /** x-refused-roles: readKey (needs trading permission), tradeKey (needs copy permission), nonBrokerKey. */
  refusedRoles: string[];
  write: boolean;
  creates: boolean;
  fundsWrite: boolean;
  /** x-moves-funds: moves funds or creates accounts (the fund-write tripwire's operations). */
  movesFunds: boolean;
  /** Under /api/v3/trade/ (the trading operations of U-NS-RATE-LIMITS per-uid-and-ip, 10 a second). */
  trading: boolean;
  broker: boolean;
  query: Parameter[];
  bodySchema?: unknown;
  bodyRequired: boolean;
}

export interface OperationTable {
  all: Op[];
  /** The operation a method and a path name, if any. */
  find(method: string, path: string): Op | undefined;
  /** The methods a path is served with (empty: not a path of the API). */
  methods(path: string): string[];
  /** The spec's document (its components, for the validator). */
  doc: Record<string, any>;
}

export function operationTable(paths: Record<string, string>): OperationTable {
  const spec = loadSpec('unified-exchange');
  const all = spec.operations.map((o: Operation): Op => {
    const id = o.operationId ?? o.key;
    return {
      id,
      method: o.method as Op['method'],
      specPath: o.path,
      path: paths[o.path] ?? o.path,
      public: o.security.length === 0,
      refusedRoles: o.refusedRoles,
      write: o.write !== undefined,
      creates: CREATING.has(id),
      fundsWrite: FUNDS_WRITES.has(id),
      movesFunds: o.movesFunds === true,
      trading: o.path.startsWith('/api/v3/trade/'),
      broker: o.path.startsWith('/api/v3/broker/'),
      query: o.parameters.filter((p) => p.in === 'query'),
      bodySchema: o.requestSchema,
      bodyRequired: o.requestBodyRequired,
    };
  });
  const byRoute = new Map(all.map((op) => [`${op.method} ${op.path}`, op]));
  return {
    all,
    find: (method, path) => byRoute.get(`${method} ${path}`),
    methods: (path) => all.filter((op) => op.path === path).map((op) => op.method),
    doc: spec.doc,
  };
}
