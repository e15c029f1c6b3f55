import { expectedMs } from '../../harness/budget.ts';
import { defineSuite } from '../../harness/interface.ts';
import { exchangeSession } from '../../interfaces/exchange-session/definition.ts';
import { notTheApi } from '../../harness/probe.ts';
import { showed } from '../../harness/answers.ts';
import type { Reply } from '../../harness/http/client.ts';
import { authenticate, pathOf } from './auth.ts';
import { poolKeyName } from './keys.ts';
import { restoreOrder } from './restore.ts';
import { exchangeScope } from './scope.ts';
import type { ExchangeSessionSettings, PoolKeyEntry } from '../../interfaces/exchange-session/settings.ts';

/** What the exchange-session suite does with its interface: how it authenticates, probes and plans. */
export const suite = defineSuite(exchangeSession, {
  authenticate,
  restore: restoreOrder,
  // Live: the nonce range with the pool's first key proves the base URL, the login and the credential at once.
  // Reference (no pool): the nonce range without a token must be refused in the API's own way (JSON, not a page).
  probe: ({ settings, credentialEnv, credentials }) => {
    const nonce = pathOf(settings as ExchangeSessionSettings, 'nonce');
    // The environment variables a pool key is read from (named in messages, never the values).
    const variablesOf = (name: string) =>
      Object.entries(credentialEnv)
        .filter(([secret]) => secret.startsWith(`${name}_`))
        .map(([, variable]) => variable)
        .join(', ');
    const sessionOf = (name: string) => ({
      request: { method: 'GET', path: nonce, authenticate: true, credential: name, label: `probe: ${name}` },
      judge: (reply: Reply) => {
        if (showed(reply, 401, 403)) return `GET ${nonce} with a session of ${name} was answered ${reply.status}: the target refused the pool's key ${name}; check its variables (${variablesOf(name)})`;
        return notTheApi(reply, `GET ${nonce} with a session of ${name}`);
      },
    });
    if (!variablesOf(poolKeyName(0))) return { request: { method: 'GET', path: nonce, label: 'probe' }, judge: (reply) => notTheApi(reply, `GET ${nonce} without a token`) };
    // Every other key of the pool too, but those whose whitelist leaves this machine out: the target refuses them.
    const pool = (credentials as { keys?: PoolKeyEntry[] } | undefined)?.keys ?? [];
    return { ...sessionOf(poolKeyName(0)), credentials: pool.flatMap((k, i) => (i > 0 && !k.whitelistExcludesHarness ? [sessionOf(poolKeyName(i))] : [])) };
  },
  notApplicable: ({ profile, settings, baseUrl, credentials }) => {
    const scope = exchangeScope(settings as ExchangeSessionSettings, { writes: profile.writes, live: Boolean(baseUrl), pool: (credentials as { keys?: PoolKeyEntry[] } | undefined)?.keys ?? [] });
    return { operations: scope.operations, requirements: scope.requirements };
  },
  // The two properties (nonces, time in force) at their default cases, the logins and the reads.
  plannedMs: ({ profile, depth, live, workers }) => expectedMs({ requests: depth * (100 * 9 + 100 * 14) + 300 }, profile, live, workers),
});
