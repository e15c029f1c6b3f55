/**
 * The exchange-session suite's own fixture: the profile's settings and scope, API keys for this test alone, sessions,
 * and the operations of Interface A as the profile names them. Every request goes through the harness's client.
 */
import { test as base } from '../../harness/fixtures.ts';
import type { Reply, RequestSpec } from '../../harness/http/client.ts';
import { Inconclusive } from '../../harness/verdicts.ts';
import type { Side, TimeInForce } from '../../harness/models/limit-book.ts';
import { pathOf, sessionFor, type KeyType } from './auth.ts';
import { acquireKey, type KeyWish } from './keys.ts';
import { exchangeScope, type ExchangeScope } from './scope.ts';
import type { ExchangeSessionSettings, PoolKeyEntry } from './settings.ts';

export { expect, reqTags, deviation, NotTested, Inconclusive, RequirementViolation } from '../../harness/fixtures.ts';

export interface OrderSpec {
  account: string;
  side: Side;
  price: string;
  quantity: string;
  tif: TimeInForce;
  symbol?: string;
}

export interface Exchange {
  settings: ExchangeSessionSettings;
  scope: ExchangeScope;
  live: boolean;
  /** A key of this type for this test alone; undefined when a live pool has none free. */
  key(type: KeyType, wish?: Omit<KeyWish, 'type'>): Promise<string | undefined>;
  /** A key whose login works, of either type (a check that is not about logins must not depend on one kind of them). */
  sessionKey(): Promise<string>;
  /** The trading accounts of a key's user: ids and rate-limit tokens. */
  accounts(key: string): Promise<Array<{ id: string; rateLimitToken?: string }>>;
  read(key: string, which: 'tradingAccounts' | 'nonce' | 'custody', extra?: Partial<RequestSpec>): Promise<Reply>;
  /** Places an order; `nonce` null sends none, a bigint sends that one, undefined the next of the key's clock. */
  order(key: string, o: OrderSpec, extra?: { nonce?: bigint | null; body?: string; label?: string }): Promise<Reply>;
  lookup(key: string, orderId: string): Promise<Reply>;
  cancel(key: string, orderId: string, account: string, symbol?: string): Promise<Reply>;
  /** The command body of an order, as the profile names its members. */
  command(o: OrderSpec): Record<string, unknown>;
}

/** Key types tried for a session, the one that last worked first (a login fault of one type leaves the other). */
const sessionTypes: KeyType[] = ['hmac', 'ecdsa'];

export const test = base.extend<{ exchange: Exchange }>({
  exchange: async ({ api, secrets, identity, target, profile }, use) => {
    const entry = profile.interfaces['exchange-session'];
    if (!entry) throw new Error('harness: exchange-session is not in the profile');
    const settings = entry.settings as ExchangeSessionSettings;
    const pool: PoolKeyEntry[] = (entry.credentials as { keys?: PoolKeyEntry[] } | undefined)?.keys ?? [];
    const live = !target.reference;
    const scope = exchangeScope(settings, { writes: profile.writes, live, pool });
    const key = (type: KeyType, wish: Omit<KeyWish, 'type'> = {}) => acquireKey({ api, secrets, identity, target, pool }, { type, ...wish });
    const authed = (k: string, r: RequestSpec): RequestSpec => ({ ...r, authenticate: true, credential: k });
    const command = (o: OrderSpec): Record<string, unknown> => {
      const f = settings.order.fields;
      const num = (v: string) => (settings.order.numbersAsStrings ? v : Number(v));
      return {
        ...settings.order.constants,
        [f.symbol]: o.symbol ?? settings.order.symbol,
        [f.side]: o.side === 'buy' ? settings.order.sides.buy : settings.order.sides.sell,
        [f.price]: num(o.price),
        [f.quantity]: num(o.quantity),
        timeInForce: o.tif,
        [f.tradingAccountId]: o.account,
      };
    };
    const exchange: Exchange = {
      settings,
      scope,
      live,
      key,
      sessionKey: async () => {
        const refusals: string[] = [];
        for (const type of [...sessionTypes]) {
          const k = await key(type);
          if (!k) continue;
          try {
            await sessionFor(secrets, k, api.authenticationContext());
            // The type that worked is tried first next time.
            sessionTypes.sort((a, b) => (a === type ? -1 : b === type ? 1 : 0));
            return k;
          } catch (e) {
            if (!(e instanceof Inconclusive)) throw e;
            refusals.push(e.message);
          }
        }
        throw new Inconclusive(`no key could open a session: ${refusals.join('; ') || 'the profile lists no key that is free'}`);
      },
      accounts: async (k) => {
        const r = await api.send(authed(k, { method: 'GET', path: pathOf(settings, 'tradingAccounts'), label: 'trading accounts' }));
        const list = Array.isArray(r.json) ? (r.json as Array<Record<string, unknown>>) : [];
        const ids = list.filter((a) => a && a.tradingAccountId !== undefined).map((a) => ({ id: String(a.tradingAccountId), rateLimitToken: a.rateLimitToken === undefined ? undefined : String(a.rateLimitToken) }));
        if (r.status !== 200 || ids.length === 0) throw new Inconclusive(`the trading accounts of ${k} could not be read (answered ${r.status}): the order checks need one`);
        return ids;
      },
      read: (k, which, extra = {}) => api.send(authed(k, { method: 'GET', path: pathOf(settings, which), label: which, ...extra })),
      order: (k, o, extra = {}) => {
        const headers: Record<string, string | undefined> = {};
        if (extra.nonce === null) headers['BX-NONCE'] = undefined;
        else if (extra.nonce !== undefined) headers['BX-NONCE'] = String(extra.nonce);
        const body = extra.body !== undefined ? { body: extra.body, headers: { ...headers, 'content-type': 'application/json' } } : { json: command(o), headers };
        return api.send(authed(k, { method: 'POST', path: pathOf(settings, 'orders'), ...body, label: extra.label ?? `${o.tif} ${o.side} ${o.quantity} at ${o.price}` }));
      },
      lookup: (k, orderId) => api.send(authed(k, { method: 'GET', path: pathOf(settings, 'order', orderId), label: `look up order ${orderId}` })),
      cancel: (k, orderId, account, symbol) => {
        const fill = (v: string) => v.replace('{orderId}', orderId).replace('{symbol}', symbol ?? settings.order.symbol).replace('{tradingAccountId}', account);
        const json = Object.fromEntries(Object.entries(settings.order.cancel).map(([name, v]) => [name, fill(v)]));
        return api.send(authed(k, { method: 'POST', path: pathOf(settings, 'command'), json, label: `cancel order ${orderId}` }));
      },
      command,
    };
    await use(exchange);
  },
});
