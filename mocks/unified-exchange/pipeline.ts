// What every request passes, in order: the route (U-NS-AUTH-BEFORE-ROUTE, U-NS-WRONG-METHOD), the credentials
// (public operations need none, U-NS-PUBLIC-WITH-CREDENTIALS), the rate limits, then the key's permission and the
// parameters in the order of U-NS-CHECK-ORDER (credentials, permission, parameters by default: a read key's malformed
// order is refused for its permission), then the part that owns the operation. The answer's envelope is replies.ts's.
import type http from 'node:http';
import { MAX_BODY_BYTES, readBody } from '../plumbing.ts';
import type { Auth, SignedRequest } from './auth.ts';
import type { Choices, RoutingFault, RoutingReading } from './choices.ts';
import { refused, type Caller, type Handler, type Outcome, type Part } from './contract.ts';
import type { Limits } from './limits.ts';
import type { Op, OperationTable } from './operations.ts';
import { CODES, type Replies, type Reply } from './replies.ts';
import type { Validator } from './validate.ts';
import { distorted, distortedRefusal } from './fault-answers.ts';

/** The public market data: "the /api/v3/public/ and /api/v3/market/ paths need no credentials". */
const PUBLIC_PREFIXES = ['/api/v3/public/', '/api/v3/market/'];
const API_PREFIX = '/api/v3/';

/**
 * Who sends a public request without credentials. The contract gives every handler a caller; a public operation's
 * handler has no use for it.
 */
const ANONYMOUS: Caller = { account: { uid: '', broker: false, leadTrader: false, holdMode: 'one_way_mode' }, apiKey: '', permissions: { read: true, trade: false, copy: false } };

export interface PipelineParts {
  table: OperationTable;
  choices: Choices;
  reading: RoutingReading;
  on: RoutingFault;
  auth: Auth;
  limits: Limits;
  validator: Validator;
  replies: Replies;
  parts: Part[];
}

export function pipeline(p: PipelineParts): (req: http.IncomingMessage) => Promise<Reply> {
  const { table, reading, on, auth } = p;
  // The refusals of the credentials and of the parameters, as the faults that spoil them give them.
  const replies: Replies = {
    ...p.replies,
    outcome: (op, o) => {
      const reply = p.replies.outcome(op, o);
      return !o.ok && (o.kind === 'auth' || o.kind === 'validation') ? distortedRefusal(op, o.kind, reply, on) : reply;
    },
  };
  const handlers = new Map<string, Handler>();
  for (const part of p.parts) for (const [id, handler] of Object.entries(part.operations)) if (handler && !handlers.has(id)) handlers.set(id, handler);

  return async function serve(req) {
    const url = req.url ?? '/';
    const cut = url.indexOf('?');
    const path = cut < 0 ? url : url.slice(0, cut);
    const method = (req.method ?? 'GET').toUpperCase();
    const raw = await readBody(req, MAX_BODY_BYTES);
    if (raw === undefined) return replies.failure({ status: 413, code: CODES.validation, msg: 'The body is too large.' });
    const signed: SignedRequest = { method, path, query: cut < 0 ? '' : url.slice(cut + 1), body: raw, headers: req.headers };

    const op = table.find(method, path);
    if (!op) return unrouted(signed);

    // Public market data needs no credentials; given ones are ignored, or checked (U-NS-PUBLIC-WITH-CREDENTIALS).
    let caller = ANONYMOUS;
    // The fault: the filter's list of public paths misses two of them.
    const filtered = on('public-asks-credentials') && (op.id === 'getScoreWeights' || op.id === 'getFeeGroup');
    if (!op.public || filtered || (reading('U-NS-PUBLIC-WITH-CREDENTIALS') === 'checked-when-given' && auth.given(signed))) {
      const who = auth.authenticate(signed);
      if ('refusal' in who) return replies.outcome(op, who.refusal);
      // The fault every-key-refused: the signature check hashes another text than the document's: nothing passes it.
      if (on('every-key-refused')) return replies.outcome(op, refused('auth', 'signature mismatch', CODES.authSignature));
      caller = who.caller;
    }
    // The fault market-reads-refused: the market data needs a subscription the accounts do not have.
    if (on('market-reads-refused') && path.startsWith('/api/v3/market/')) return replies.outcome(op, refused('permission', 'market data needs a subscription'));
    if (p.limits.throttled(op, op.public ? undefined : caller.account.uid, req.socket.remoteAddress ?? '', caller.apiKey)) return replies.refusal('throttle', 'Too many requests.');

    const parametersFirst = reading('U-NS-CHECK-ORDER') === 'parameters-before-permission';
    const denied = parametersFirst ? undefined : auth.permit(op, caller);
    if (denied && !writesAnyway(op)) return replies.outcome(op, denied);
    const checked = method === 'GET' ? p.validator.query(op, new URLSearchParams(signed.query)) : p.validator.body(op, raw, header(req, 'content-type'));
    if (!checked.ok) {
      if ('body' in checked) for (const part of p.parts) part.refused?.(op.id, checked.body, caller);
      return 'failure' in checked ? replies.failure(checked.failure) : replies.outcome(op, checked.outcome);
    }
    const refusal = denied ?? (parametersFirst ? auth.permit(op, caller) : undefined);
    if (refusal && !writesAnyway(op)) return replies.outcome(op, refusal);
    // The fault fund-writes-refused: the account may move no funds (and create no account), whatever it asks.
    if (on('fund-writes-refused') && op.movesFunds) return replies.outcome(op, refused('permission', 'fund writes are switched off for this account'));

    // The fault broker-open-to-non-broker: the account-type check is broken everywhere, the part's own too.
    if (on('broker-open-to-non-broker') && op.broker && !caller.account.broker) caller = { ...caller, account: { ...caller.account, broker: true } };
    // The fault broker-open-to-broker-subs: a broker's sub-account is served as a broker master account of its own.
    if (on('broker-open-to-broker-subs') && op.broker && caller.account.masterUid) caller = { ...caller, account: { ...caller.account, broker: true, masterUid: undefined } };
    const handler = handlers.get(op.id);
    if (!handler) return replies.failure({ status: 500, code: CODES.server, msg: `No part of the reference serves ${op.id}.` });
    const params = checked.params;
    if (checked.unlisted !== undefined) {
      const unlisted = `category ${checked.unlisted.value} is not served by this operation.`;
      // The fault: the category is not checked; the records of a category the operation lists are served.
      if (on('category-not-checked')) return answer(op, await handler({ operationId: op.id, caller, params }));
      if (p.choices.unlistedCategory !== 'empty' || op.write) return replies.outcome(op, refused('validation', unlisted, CODES.validation));
      // U-NS-UNLISTED-CATEGORY empty: a read answered in a listed category's shape, with no records (the first listed
      // category whose answer is a success: the symbol sent may be none of the first one's).
      for (const variant of checked.unlisted.variants) {
        const o = await handler({ operationId: op.id, caller, params: variant });
        if (o.ok) return answer(op, { ok: true, data: emptied(o.data) });
      }
      return answer(op, { ok: true, data: [] });
    }
    const outcome = await handler({ operationId: op.id, caller, params });
    // The fault permission-checked-after-write: the write took effect; now the refusal.
    return refusal ? replies.outcome(op, refusal) : answer(op, outcome);
  };

  /** A request that names no operation: 404, or 405 for a path served with another method; perhaps its credentials first. */
  function unrouted(signed: SignedRequest): Reply {
    const privatePath = signed.path.startsWith(API_PREFIX) && !PUBLIC_PREFIXES.some((prefix) => signed.path.startsWith(prefix));
    if (privatePath && reading('U-NS-AUTH-BEFORE-ROUTE') === 'credential-first') {
      const who = auth.authenticate(signed);
      if ('refusal' in who) return replies.outcome(undefined, who.refusal);
    }
    const allowed = table.methods(signed.path);
    if (allowed.length && reading('U-NS-WRONG-METHOD') === 'method-not-allowed') {
      return replies.failure({ status: 405, code: CODES.wrongMethod, msg: `${signed.method} is not served at ${signed.path}.`, headers: { allow: allowed.join(', ') } });
    }
    return replies.failure({ status: 404, code: CODES.notFound, msg: `No operation at ${signed.method} ${signed.path}.` });
  }

  /** The fault permission-checked-after-write: a refused trading write is carried out before it is refused. */
  function writesAnyway(op: Op): boolean {
    return on('permission-checked-after-write') && op.write && op.refusedRoles.includes('readKey');
  }

  function answer(op: Op, outcome: Outcome): Reply {
    return distorted(op, replies.outcome(op, outcome), on);
  }
}

/** A listed category's answer with no records: every list in it emptied (data itself, or its members). */
function emptied(data: unknown): unknown {
  if (Array.isArray(data)) return [];
  if (data && typeof data === 'object') return Object.fromEntries(Object.entries(data).map(([k, v]) => [k, Array.isArray(v) ? [] : v]));
  return data;
}

function header(req: http.IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}
