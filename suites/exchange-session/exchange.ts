/**
 * The exchange-session suite's own fixture: the profile's settings and scope, API keys for this test alone, sessions,
 * and the operations of Interface A as the profile names them. Every request goes through the harness's client.
 */
import type { RequirementId } from '../../generated/exchange-session.ts';
import { reqTags as tagsOf } from '../../harness/verdicts.ts';
import { type Identity } from '../../harness/fixtures.ts';
import { test as base } from './test.ts';
import { TargetError, type Client } from '../../harness/http/client.ts';
import type { Profile } from '../../harness/profile/types.ts';
import type { Secrets } from '../../harness/secrets.ts';
import type { Target } from '../../harness/targets.ts';
import type { Reply, RequestSpec } from '../../harness/http/client.ts';
import { Inconclusive } from '../../harness/verdicts.ts';
import { isAccepted, needAccepted, refused } from '../../harness/answers.ts';
import { isStated } from '../../harness/profile/load.ts';
import { pathOf, sessionFor, type KeyType } from './auth.ts';
import { cancelCommand, orderCommand, type AccountId, type OrderSpec } from './commands.ts';
import { knowStatedSettings } from './stated.ts';
import { acquireKey, type KeyWish } from './keys.ts';
import { exchangeScope, type ExchangeScope } from './scope.ts';
import type { ExchangeSessionSettings, PoolKeyEntry } from '../../interfaces/exchange-session/settings.ts';

export type { AccountId, OrderSpec };
export { expect, deviation, NotTested, Inconclusive, RequirementViolation } from '../../harness/fixtures.ts';
/** The tags of the requirements a test claims, typed by the spec's ids (generated/exchange-session.ts): a misspelt id does not compile. */
export const reqTags = (...ids: RequirementId[]): string[] => tagsOf(...ids);

export interface Exchange {
  settings: ExchangeSessionSettings;
  scope: ExchangeScope;
  live: boolean;
  /** A key of this type for this test alone; undefined when a live pool has none free. */
  key(type: KeyType, wish?: Omit<KeyWish, 'type'>): Promise<string | undefined>;
  /** A key whose login works, of either type (a check that is not about logins must not depend on one kind of them). */
  sessionKey(): Promise<string>;
  /** The trading accounts of a key's user: ids and rate-limit tokens. */
  accounts(key: string): Promise<Array<{ id: AccountId; rateLimitToken?: string }>>;
  read(key: string, which: 'tradingAccounts' | 'nonce' | 'custody', extra?: Partial<RequestSpec>): Promise<Reply>;
  /** Places an order; `nonce` null sends none, a bigint sends that one, undefined the next of the key's clock. */
  order(key: string, o: OrderSpec, extra?: { nonce?: bigint | null; body?: string; label?: string }): Promise<Reply>;
  /** Looks an order up; `account` is the trading account it was placed for (a deployment's extras may name it). */
  lookup(key: string, orderId: string, account: AccountId): Promise<Reply>;
  /** Cancels an order as the profile says (settings.order.cancelBy); undefined when the profile names no way to. */
  cancel(key: string, orderId: string, account: AccountId, symbol?: string): Promise<Reply | undefined>;
  /** The command body of an order, as the profile names its members. */
  command(o: OrderSpec): Record<string, unknown>;
  /**
   * Why a valid order's refusal cannot be held against the target, if it cannot: it came before any order of this
   * test was accepted, and the profile leaves part of the order's form to the harness's defaults.
   */
  formDoubt(r: Reply): string | undefined;
}

/**
 * A step several checks of a test share (a session, a trading account), made by the first check that needs it and
 * only then: where it fails (a throttle, an outage, a refused login), each check that needs it is undecided by the
 * same error, instead of the test breaking before it judged anything.
 */
export function shared<T>(make: () => Promise<T>): () => Promise<T> {
  let made: Promise<T> | undefined;
  return () => (made ??= setUp('a step the checks of this test share', make));
}

/**
 * A request that sets the stage for a check (a login, the trading accounts) and got no answer is no evidence against
 * the rule the check is on (a reset answers for its own operation's rule alone): it leaves the check undecided. An
 * outage (the target given up) stays what it is.
 */
export async function setUp<T>(what: string, step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (e) {
    if (e instanceof TargetError && e.kind !== 'given-up') throw new Inconclusive(`${what} got no answer, so the check cannot go on: ${e.message}`);
    throw e;
  }
}

/** The settings that shape an order command and how it is sent: a refusal may rest on any the profile leaves unstated. */
const ORDER_FORM = ['paths.orders', 'order.fields', 'order.constants', 'order.sides', 'order.numbersAsStrings', 'order.symbol', 'order.quantityStep', 'signedWrites'];

/** Key types tried for a session, the one that last worked first (a login fault of one type leaves the other). */
const sessionTypes: KeyType[] = ['hmac', 'ecdsa'];

/** What the suite's fixture is made from: the harness's fixtures of the test. */
export interface ExchangeContext {
  api: Client;
  secrets: Secrets;
  identity: Identity;
  target: Target;
  profile: Profile;
}

export const test = base.extend<{ exchange: Exchange }>({
  exchange: async ({ api, secrets, identity, target, profile }, use) => {
    await use(makeExchange({ api, secrets, identity, target, profile }));
  },
});

/** The suite's view of one exchange-session target for one test (the `exchange` fixture; the generic checks' source too). */
export function makeExchange({ api, secrets, identity, target, profile }: ExchangeContext): Exchange {
  const entry = profile.interfaces['exchange-session'];
  if (!entry) throw new Error('harness: exchange-session is not in the profile');
  const settings = entry.settings as ExchangeSessionSettings;
  knowStatedSettings((setting) => isStated(profile, 'exchange-session', setting));
  const pool: PoolKeyEntry[] = (entry.credentials as { keys?: PoolKeyEntry[] } | undefined)?.keys ?? [];
  const live = !target.reference;
  const scope = exchangeScope(settings, { writes: profile.writes, live, pool });
  const key = (type: KeyType, wish: Omit<KeyWish, 'type'> = {}) => acquireKey({ api, secrets, identity, target, pool }, { type, ...wish });
  const authed = (k: string, r: RequestSpec): RequestSpec => ({ ...r, authenticate: true, credential: k });
  // An order accepted in this test proves the order's form (the control beside which a later refusal counts).
  let orderAccepted = false;
  const exchange: Exchange = {
    settings,
    scope,
    live,
    key,
    sessionKey: async () => {
      // A login of one kind refused, throttled or unanswered: the other kind is tried.
      const troubles: string[] = [];
      for (const type of [...sessionTypes]) {
        const k = await key(type);
        if (!k) continue;
        try {
          await setUp(`the ${type.toUpperCase()} login with ${k}`, () => sessionFor(secrets, k, api.authenticationContext()));
          // The type that worked is tried first next time.
          sessionTypes.sort((a, b) => (a === type ? -1 : b === type ? 1 : 0));
          return k;
        } catch (e) {
          if (!(e instanceof Inconclusive)) throw e;
          troubles.push(e.message);
        }
      }
      throw new Inconclusive(`no key could open a session: ${troubles.join('; ') || 'the profile lists no key that is free'}`);
    },
    accounts: async (k) => {
      const r = await setUp(`the trading accounts of ${k}`, () => api.send(authed(k, { method: 'GET', path: pathOf(settings, 'tradingAccounts'), label: 'trading accounts' })));
      // A step the order checks need: a refusal leaves them inconclusive (A-ACCOUNTS-FIELDS judges the listing).
      needAccepted(r, `the trading accounts of ${k}`, { why: 'the order checks need a trading account' });
      const list = Array.isArray(r.json) ? (r.json as Array<Record<string, unknown>>) : [];
      const ids = list
        .filter((a) => a && (typeof a.tradingAccountId === 'string' || typeof a.tradingAccountId === 'number'))
        .map((a) => ({ id: a.tradingAccountId as AccountId, rateLimitToken: a.rateLimitToken === undefined ? undefined : String(a.rateLimitToken) }));
      if (ids.length === 0) throw new Inconclusive(`the trading accounts of ${k} list no account with a tradingAccountId: the order checks need one`);
      return ids;
    },
    read: (k, which, extra = {}) => api.send(authed(k, { method: 'GET', path: pathOf(settings, which), label: which, ...extra })),
    order: async (k, o, extra = {}) => {
      const headers: Record<string, string | undefined> = {};
      if (extra.nonce === null) headers['BX-NONCE'] = undefined;
      else if (extra.nonce !== undefined) headers['BX-NONCE'] = String(extra.nonce);
      const body = extra.body !== undefined ? { body: extra.body, headers: { ...headers, 'content-type': 'application/json' } } : { json: orderCommand(settings, o), headers };
      const r = await api.send(authed(k, { method: 'POST', path: pathOf(settings, 'orders'), ...body, label: extra.label ?? `${o.tif} ${o.side} ${o.quantity} at ${o.price}` }));
      // Only noted: the check that sent it judges the answer (a throttle or a server error proves no form either).
      if (isAccepted(r)) orderAccepted = true;
      return r;
    },
    lookup: (k, orderId, account) => {
      // A deployment that keeps orders per trading account asks for it beside the id (the profile's extras name it).
      api.learn('tradingAccountId', String(account));
      return api.send(authed(k, { method: 'GET', path: pathOf(settings, 'order', orderId), label: `look up order ${orderId}` }));
    },
    cancel: async (k, orderId, account, symbol) => {
      const label = `cancel order ${orderId}`;
      api.learn('tradingAccountId', String(account));
      if (settings.order.cancelBy === 'delete') return api.send(authed(k, { method: 'DELETE', path: pathOf(settings, 'order', orderId), label }));
      if (settings.paths.command === undefined) return undefined;
      const json = cancelCommand(settings, { orderId, account, symbol: symbol ?? settings.order.symbol });
      return api.send(authed(k, { method: 'POST', path: pathOf(settings, 'command'), json, label }));
    },
    command: (o) => orderCommand(settings, o),
    formDoubt: (r) => {
      // Only a refusal can rest on the form; what decides nothing is thrown (by refused) before any doubt.
      if (orderAccepted || !refused(r, 'the order')) return undefined;
      const unstated = ORDER_FORM.filter((setting) => !isStated(profile, 'exchange-session', setting));
      if (unstated.length === 0) return undefined;
      return `a valid order was refused (${r.status} ${r.text.slice(0, 120)}) before any order of this test was accepted, and the profile leaves ${unstated.map((u) => `settings.${u}`).join(', ')} to the harness's defaults: the refusal may rest on them (state them to hold the target to it)`;
    },
  };
  return exchange;
}
