import { expectedMs } from '../../harness/budget.ts';
import { defineInterface, type InterfaceDescriptor } from '../../harness/interface.ts';
import { notTheApi } from '../../harness/probe.ts';
import type { Reply } from '../../harness/http/client.ts';
import { faults } from '../../mocks/exchange-session/faults.ts';
import { readings } from '../../mocks/exchange-session/readings.ts';
import { authenticate, pathOf } from './auth.ts';
import { poolKeyName, poolVariables } from './keys.ts';
import { restoreOrder } from './restore.ts';
import { exchangeScope } from './scope.ts';
import { exchangeSessionEntry, type ExchangeSessionSettings, type PoolKeyEntry } from './settings.ts';

const SPEC_PATHS = ['ecdsaLogin', 'hmacLogin', 'tradingAccounts', 'nonce', 'orders', 'order'] as const;

// Annotated, so that the profile's types (derived from the registry) never wait on this initializer.
export const exchangeSession: InterfaceDescriptor<'exchange-session', ReturnType<typeof exchangeSessionEntry>> = defineInterface({
  name: 'exchange-session',
  title: 'Interface A of 000_474e08d6792acf13.txt, exchange sessions: signed logins, trading accounts, the nonce range and limit orders (/trading-api)',
  reference: { start: async (options) => (await import('../../mocks/exchange-session/server.ts')).start(options), faults, readings },
  profileSchema: exchangeSessionEntry,
  authenticate,
  paths: (settings: ExchangeSessionSettings) => Object.fromEntries(SPEC_PATHS.map((p) => [p, pathOf(settings, p)])),
  credentialVariables: (credentials: { keys?: PoolKeyEntry[] }) => poolVariables(credentials.keys ?? []),
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
        if (reply.status === 401 || reply.status === 403) return `GET ${nonce} with a session of ${name} was answered ${reply.status}: the target refused the pool's key ${name}; check its variables (${variablesOf(name)})`;
        return notTheApi(reply, `GET ${nonce} with a session of ${name}`);
      },
    });
    if (!variablesOf(poolKeyName(0))) return { request: { method: 'GET', path: nonce, label: 'probe' }, judge: (reply) => notTheApi(reply, `GET ${nonce} without a token`) };
    // Every other key of the pool too, but those whose whitelist leaves this machine out: the target refuses them.
    const pool = (credentials as { keys?: PoolKeyEntry[] } | undefined)?.keys ?? [];
    return { ...sessionOf(poolKeyName(0)), credentials: pool.flatMap((k, i) => (i > 0 && !k.whitelistExcludesHarness ? [sessionOf(poolKeyName(i))] : [])) };
  },
  settingsHelp: [
    'exchange-session:',
    '  credentials:',
    '    keys:                                  # API keys the checks lease (one per check that counts nonces)',
    '      - { type: hmac, publicKey: EX_HMAC_KEY_1, secret: EX_HMAC_SECRET_1 }',
    '      - { type: ecdsa, privateKey: EX_ECDSA_PRIVATE_KEY_1, metadata: EX_ECDSA_METADATA_1 }',
    '      - { type: hmac, publicKey: EX_HMAC_KEY_2, secret: EX_HMAC_SECRET_2, whitelistExcludesHarness: true }',
    '      - { type: hmac, publicKey: EX_READ_KEY, secret: EX_READ_SECRET, trading: false }   # optional: a read-only key, whose orders must be refused',
    '  settings:',
    '    baseUrlCarries: /trading-api           # the sandbox address already ends with /trading-api',
    '    paths: { command: /trading-api/v2/command, custody: /trading-api/v1/wallets/limits/BTC }',
    '    hmacSignature: { hash: sha256, encoding: hex, secretEncoding: utf8 }',
    '    ecdsaSignature: { format: der, encoding: base64, payloadJson: compact }',
    '    loginWindowEnforced: true              # ECDSA logins must keep expirationTime 5 minutes after nonce (else a client rule only)',
    '    signedWrites: true                     # the public exchange signs every write (BX-TIMESTAMP, BX-SIGNATURE)',
    '    nonceTimeZone: UTC',
    '    order: { symbol: BTCUSDC, farPrices: { buy: "1", sell: "10000000" }, quantityStep: "0.001", cancelBy: command }',
  ].join('\n'),
  notApplicable: ({ profile, settings, baseUrl, credentials }) => {
    const scope = exchangeScope(settings as ExchangeSessionSettings, { writes: profile.writes, live: Boolean(baseUrl), pool: (credentials as { keys?: PoolKeyEntry[] } | undefined)?.keys ?? [] });
    return { operations: scope.operations, requirements: scope.requirements };
  },
  // The two properties (nonces, time in force) at their default cases, the logins and the reads.
  plannedMs: ({ profile, depth, live, workers }) => expectedMs({ requests: depth * (100 * 9 + 100 * 14) + 300 }, profile, live, workers),
});
