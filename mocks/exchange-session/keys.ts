// Users, their API keys and trading accounts. The document says a client creates keys but shows no path for it, so
// the reference offers a path of its own (see server.ts); every key created there belongs to a user of its own, with
// two trading accounts, so that tests can trade between two accounts without ever meeting another test's state.
import { randomBytes, randomInt } from 'node:crypto';
import net from 'node:net';
import type { ExchangeSessionSettings } from '../../interfaces/exchange-session/settings.ts';
import { refuse, type Refusal } from './errors.js';
import { p256PointOf, secretBytes } from './signatures.js';

export type KeyType = 'HMAC' | 'ECDSA';

export interface TradingAccount {
  tradingAccountId: string;
  rateLimitToken: string;
  isPrimaryAccount: boolean;
  tradingAccountName: string;
}

export interface User {
  userId: string;
  /** Opaque and stable per user: the document only says clients embed it in signed payloads. */
  authorizer: string;
  accounts: TradingAccount[];
}

export interface ApiKey {
  keyId: string;
  type: KeyType;
  name: string;
  userId: string;
  /** HMAC: the public key the client sends in BX-PUBLIC-KEY. ECDSA: the PEM as registered. */
  publicKey: string;
  /** HMAC only: the secret as handed out (text), and the bytes it keys the MAC with. */
  secret?: string;
  secretKey?: Uint8Array;
  /** ECDSA only: the uncompressed point, the key's identity whatever its PEM looks like. */
  point?: string;
  whitelist?: net.BlockList;
  /**
   * false: a key issued without trading permission (a read-only key). The document shows no permissions, but
   * exchanges issue such keys; the reference makes one when its creation body says `trading: false`.
   */
  trading: boolean;
}

export interface CreatedKey {
  type: KeyType;
  publicKey: string;
  secret?: string;
  metadata?: string;
  userId?: string;
}

/** Random decimal digits with a non-zero lead, the shape the public exchange gives its user and account ids. */
export function digits(length: number): string {
  let out = String(randomInt(1, 10));
  while (out.length < length) out += String(randomInt(0, 10));
  return out;
}

const token = (bytes: number): string => randomBytes(bytes).toString('base64url');

/** How the store shapes what the document leaves open (readings of A-NS-KEY-METADATA and A-NS-ID-TYPES). */
export interface KeyStoreForm {
  /** The ECDSA key's metadata decodes to the bare userId instead of a JSON object holding it. */
  bareMetadata?: boolean;
  /** Trading-account ids short enough to travel as JSON integers (the server sends them as numbers). */
  integerIds?: boolean;
}

export class KeyStore {
  private readonly users = new Map<string, User>();
  private readonly byId = new Map<string, ApiKey>();
  private readonly hmacKeys = new Map<string, ApiKey>();
  /** Several users may register the same ECDSA key; the login's userId tells them apart. */
  private readonly ecdsaKeys = new Map<string, ApiKey[]>();

  constructor(
    private readonly secretEncoding: ExchangeSessionSettings['hmacSignature']['secretEncoding'],
    private readonly defaultWhitelist: readonly string[] | undefined,
    private readonly form: KeyStoreForm = {},
  ) {}

  user(userId: string): User | undefined {
    return this.users.get(userId);
  }

  keyById(keyId: string): ApiKey | undefined {
    return this.byId.get(keyId);
  }

  hmacKey(publicKey: string): ApiKey | undefined {
    return this.hmacKeys.get(publicKey);
  }

  /** The keys registered with this point, the one of `userId` first when there is one. */
  ecdsaKeysFor(point: string, userId: unknown): ApiKey[] {
    const keys = this.ecdsaKeys.get(point) ?? [];
    return [...keys.filter((k) => k.userId === userId), ...keys.filter((k) => k.userId !== userId)];
  }

  create(body: unknown): CreatedKey | Refusal {
    if (typeof body !== 'object' || body === null || Array.isArray(body)) return refuse('BAD_REQUEST', 'The body must be a JSON object.');
    const fields = body as Record<string, unknown>;
    const type = typeof fields.type === 'string' ? fields.type.toUpperCase() : undefined;
    if (type !== 'HMAC' && type !== 'ECDSA') return refuse('BAD_REQUEST', 'type must be HMAC or ECDSA.');
    if (fields.name !== undefined && typeof fields.name !== 'string') return refuse('BAD_REQUEST', 'name must be a string.');
    if (fields.trading !== undefined && typeof fields.trading !== 'boolean') return refuse('BAD_REQUEST', 'trading must be true or false.');

    const listed = fields.whitelist ?? this.defaultWhitelist;
    let whitelist: net.BlockList | undefined;
    if (listed !== undefined) {
      const parsed = parseWhitelist(listed);
      if (!parsed) return refuse('BAD_REQUEST', 'whitelist must be a non-empty array of IP addresses or CIDR ranges.');
      whitelist = parsed;
    }

    let point: string | undefined;
    if (type === 'ECDSA') {
      if (typeof fields.publicKey !== 'string') return refuse('BAD_REQUEST', 'An ECDSA key needs publicKey, the client\'s P-256 public key (SPKI PEM).');
      point = p256PointOf(fields.publicKey);
      if (!point) return refuse('BAD_REQUEST', 'publicKey is not a P-256 public key in SPKI PEM.');
    }

    const user = this.newUser();
    let keyId = digits(12);
    while (this.byId.has(keyId)) keyId = digits(12);
    const key: ApiKey = { keyId, type, name: typeof fields.name === 'string' ? fields.name : `${type} key`, userId: user.userId, publicKey: '', whitelist, trading: fields.trading !== false };
    this.byId.set(keyId, key);
    if (type === 'HMAC') {
      const raw = randomBytes(32);
      key.publicKey = `HMAC-${token(18)}`;
      // The secret is handed out in the encoding the profile says the client decodes it from.
      key.secret = this.secretEncoding === 'utf8' ? raw.toString('base64url') : raw.toString(this.secretEncoding);
      key.secretKey = secretBytes(key.secret, this.secretEncoding);
      this.hmacKeys.set(key.publicKey, key);
      return { type, publicKey: key.publicKey, secret: key.secret, userId: user.userId };
    }
    key.publicKey = fields.publicKey as string;
    key.point = point;
    this.ecdsaKeys.set(point!, [...(this.ecdsaKeys.get(point!) ?? []), key]);
    const metadata = Buffer.from(this.form.bareMetadata ? user.userId : JSON.stringify({ userId: user.userId, keyName: key.name })).toString('base64');
    // Where the metadata is the bare userId, creation answers as an exchange's console shows the key: its metadata alone,
    // so that a client finds the userId where the document says it is.
    return this.form.bareMetadata ? { type, publicKey: key.publicKey, metadata } : { type, publicKey: key.publicKey, metadata, userId: user.userId };
  }

  private newUser(): User {
    let userId = digits(15);
    while (this.users.has(userId)) userId = digits(15);
    const account = (primary: boolean): TradingAccount => ({
      tradingAccountId: digits(this.form.integerIds ? 12 : 18),
      rateLimitToken: randomBytes(16).toString('hex'),
      isPrimaryAccount: primary,
      tradingAccountName: primary ? 'Primary Account' : 'Second Account',
    });
    const user: User = { userId, authorizer: randomBytes(16).toString('hex'), accounts: [account(true), account(false)] };
    this.users.set(userId, user);
    return user;
  }
}

/** Whether a login from `address` may proceed: keys without a whitelist accept any address. */
export function addressAllowed(key: ApiKey, address: string | undefined): boolean {
  if (!key.whitelist) return true;
  if (!address) return false;
  // Node reports IPv4 clients of a dual-stack socket as "::ffff:a.b.c.d".
  const plain = address.toLowerCase().startsWith('::ffff:') && net.isIPv4(address.slice(7)) ? address.slice(7) : address;
  const family = net.isIPv4(plain) ? 'ipv4' : net.isIPv6(plain) ? 'ipv6' : undefined;
  return family !== undefined && key.whitelist.check(plain, family);
}

function parseWhitelist(value: unknown): net.BlockList | undefined {
  if (!Array.isArray(value) || value.length === 0) return undefined;
  // A BlockList used as an allow-list: check() answers whether an address falls in any listed rule.
  const list = new net.BlockList();
  for (const entry of value) {
    if (typeof entry !== 'string') return undefined;
    const [address, prefix, extra] = entry.trim().split('/');
    const family = net.isIPv4(address) ? 'ipv4' : net.isIPv6(address) ? 'ipv6' : undefined;
    if (!family || extra !== undefined) return undefined;
    if (prefix === undefined) {
      list.addAddress(address, family);
      continue;
    }
    const bits = /^\d{1,3}$/.test(prefix) ? Number(prefix) : NaN;
    if (!(bits >= 0 && bits <= (family === 'ipv4' ? 32 : 128))) return undefined;
    list.addSubnet(address, bits, family);
  }
  return list;
}
