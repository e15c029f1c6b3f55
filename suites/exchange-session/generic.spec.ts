/**
 * The generic checks of the registry on every exchange-session operation, through the suite's authentication
 * step: a session token after a signed login, a fresh BX-NONCE on every write (and the write signature where the
 * profile says so). The suite's fixture gives the keys (created on the reference, leased from a live profile's pool),
 * the signed logins, an order that can never rest or trade (an IOC priced far from the market) on the key's own
 * trading account, and the id of such an order for the lookup.
 */
import { defineGenericChecks, type GenericContext, type OperationSource } from '../../harness/generic/define.ts';
import { test } from './test.ts';
import type { Prepared } from '../../harness/generic/request-checks.ts';
import type { Operation } from '../../harness/spec/types.ts';
import { keyType, loginRequest, pathOf, type KeyType } from './auth.ts';
import { harmlessOrder } from './commands.ts';
import { makeExchange } from './exchange.ts';
import { acknowledged } from './records.ts';

defineGenericChecks(test, { source: exchangeSource });

async function exchangeSource(ctx: GenericContext): Promise<OperationSource> {
  const ex = makeExchange(ctx);
  const baseUrl = ctx.target.baseUrl;
  // One key of each kind per test, and the session's key is one of them: a live pool's keys are leased, so a second
  // ask for a kind this test holds already would wait for another member, and with a pool of one key a kind, wait
  // for itself until the lease gives up (a minute per generic check, then every operation undecided).
  const keys = new Map<string, Promise<string | undefined>>();
  const keyOf = (kind: KeyType | 'session' | 'without-trading'): Promise<string | undefined> => {
    if (!keys.has(kind)) {
      if (kind === 'session') {
        const heldKinds = (['hmac', 'ecdsa'] as const).filter((t) => keys.has(t));
        keys.set(kind, (async () => {
          // A key this test holds already opens its sessions; another would wait for a member of the pool.
          for (const t of heldKinds) {
            const own = await keys.get(t);
            if (own) return own;
          }
          const k = await ex.sessionKey();
          // The session's key serves its own kind from now on.
          const type = keyType(ctx.secrets, k);
          if (!keys.has(type)) keys.set(type, Promise.resolve(k));
          return k;
        })());
      } else if (kind === 'without-trading') keys.set(kind, ex.key('hmac', { trading: false }));
      else {
        const held = keys.get('session');
        keys.set(kind, (async () => {
          const k = held ? await held : undefined;
          return k && keyType(ctx.secrets, k) === kind ? k : ex.key(kind);
        })());
      }
    }
    return keys.get(kind)!;
  };
  const noKey = (kind: string): Prepared => ({ notApplicable: `no ${kind} key is free in the profile's pool` });
  /** The suite's harmless order (never rests, never trades), for the key's own first account. */
  const orderOf = async (key: string) => {
    const [account] = await ex.accounts(key);
    // A deployment that keeps orders per trading account asks for it beside the id when the order is looked up (the
    // profile's extras name it): the check learns it as the suite's own lookup does.
    ctx.api.learn('tradingAccountId', String(account.id));
    return { method: 'POST', path: pathOf(ex.settings, 'orders'), json: ex.command(harmlessOrder(ex.settings, account.id)), authenticate: true, credential: key };
  };
  let orderId: string | undefined;

  return {
    otherRole: async (role) => {
      if (role !== 'keyWithoutTrading') return { missing: `no credential of the role ${role}` };
      const key = await keyOf('without-trading');
      return key ? { credential: key } : { missing: "the profile's pool lists no key without trading permission (credentials.keys[].trading: false)" };
    },
    valid: async (op: Operation, credential?: string): Promise<Prepared> => {
      switch (op.operationId) {
        case 'ecdsaLogin':
        case 'hmacLogin': {
          const type: KeyType = op.operationId === 'ecdsaLogin' ? 'ecdsa' : 'hmac';
          const key = await keyOf(type);
          return key ? { request: loginRequest(ex.settings, ctx.secrets, key, baseUrl) } : noKey(type);
        }
        case 'submitOrder':
          return { request: await orderOf(credential ?? (await keyOf('session'))!) };
        case 'getOrder': {
          const key = credential ?? (await keyOf('session'))!;
          if (!orderId) {
            if (!ctx.writes.allowed) return { notApplicable: 'an order to look up would have to be placed, and the profile does not allow writes' };
            orderId = acknowledged(ex, await ctx.api.send({ ...(await orderOf(key)), label: 'an order to look up' }));
          }
          return { request: { method: 'GET', path: pathOf(ex.settings, 'order', orderId), authenticate: true, credential: key } };
        }
        case 'listTradingAccounts':
          return { request: { method: 'GET', path: pathOf(ex.settings, 'tradingAccounts'), authenticate: true, credential: credential ?? (await keyOf('session'))! } };
        case 'getNonceRange':
          return { request: { method: 'GET', path: pathOf(ex.settings, 'nonce'), authenticate: true, credential: credential ?? (await keyOf('session'))! } };
        default:
          throw new Error(`harness: the exchange-session generic source knows no operation ${op.key} (${op.operationId})`);
      }
    },
  };
}
