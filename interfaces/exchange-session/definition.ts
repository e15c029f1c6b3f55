import { defineInterface, type InterfaceDefinition } from '../definition.ts';
import { poolVariables } from './credentials.ts';
import { SPEC_PATHS, pathOf } from './paths.ts';
import { exchangeSessionEntry, type ExchangeSessionSettings, type PoolKeyEntry } from './settings.ts';

// Annotated, so that the profile's types (derived from the registry) never wait on this initializer.
export const exchangeSession: InterfaceDefinition<'exchange-session', ReturnType<typeof exchangeSessionEntry>> = defineInterface({
  name: 'exchange-session',
  title: 'Interface A of 000_474e08d6792acf13.txt, exchange sessions: signed logins, trading accounts, the nonce range and limit orders (/trading-api)',
  profileSchema: exchangeSessionEntry,
  paths: (settings: ExchangeSessionSettings) => Object.fromEntries(SPEC_PATHS.map((p) => [p, pathOf(settings, p)])),
  credentialVariables: (credentials: { keys?: PoolKeyEntry[] }) => poolVariables(credentials.keys ?? []),
  settingsHelp: [
    'exchange-session:',
    '  credentials:',
    '    keys:                                  # API keys the checks lease (one per check that counts nonces)',
    '      - { type: hmac, publicKey: EX_HMAC_KEY_1, secret: EX_HMAC_SECRET_1 }',
    '      - { type: ecdsa, privateKey: EX_ECDSA_PRIVATE_KEY_1, metadata: EX_ECDSA_METADATA_1 }',
    '      - { type: hmac, publicKey: EX_HMAC_KEY_2, secret: EX_HMAC_SECRET_2, whitelistExcludesHarness: true }',
    '      - { type: hmac, publicKey: EX_READ_KEY, secret: EX_READ_SECRET, trading: false }   # optional: a read-only key, whose orders must be refused',
    '  settings:',
    '    # baseUrlCarries: /trading-api           # the sandbox address already ends with /trading-api',
    '    # paths: { command: /trading-api/v2/command, custody: /trading-api/v1/wallets/limits/BTC }',
    '    # hmacSignature: { hash: sha256, encoding: hex, secretEncoding: utf8 }',
    '    # ecdsaSignature: { format: der, encoding: base64, payloadJson: compact }',
    '    # loginWindowEnforced: true              # ECDSA logins must keep expirationTime 5 minutes after nonce (else a client rule only)',
    '    # signedWrites: true                     # the public exchange signs every write (BX-TIMESTAMP, BX-SIGNATURE)',
    '    # nonceTimeZone: UTC',
    '    # order: { symbol: BTCUSDC, farPrices: { buy: "1", sell: "10000000" }, quantityStep: "0.001", cancelBy: command }',
  ].join('\n'),
});
