/**
 * Login forms: the signature settings a login is made with. The document leaves them open (the ECDSA signature's
 * encoding, "the JSON string of loginPayload", the HMAC's hash, output encoding and what it is keyed with). Where the
 * profile states them, a login is made in that form alone; where it leaves them to their defaults, each form the spec's
 * readings list is tried in turn (the default first), and only a login refused in every one of them is the target's
 * fault: a default the harness guessed never becomes a failure.
 */
import type { KeyType } from '../../interfaces/exchange-session/credentials.ts';
import type { ExchangeSessionSettings } from '../../interfaces/exchange-session/settings.ts';
import { stated } from './stated.ts';
import { runScoped } from '../../harness/run-scoped.ts';

type EcdsaSignature = ExchangeSessionSettings['ecdsaSignature'];
type HmacSignature = ExchangeSessionSettings['hmacSignature'];

/** The readings of A-NS-LOGIN-SIGNATURE-ENCODING, A-NS-LOGIN-PAYLOAD-JSON, A-NS-HMAC-HASH and A-NS-HMAC-SECRET-BYTES. */
const ECDSA_ENCODINGS: ReadonlyArray<Pick<EcdsaSignature, 'format' | 'encoding'> & { reading: string }> = [
  { format: 'der', encoding: 'base64', reading: 'der-base64' },
  { format: 'compact', encoding: 'hex', reading: 'compact-hex' },
  { format: 'compact', encoding: 'base64url', reading: 'compact-base64url' },
];
const PAYLOAD_JSON: ReadonlyArray<EcdsaSignature['payloadJson']> = ['compact', 'spaced'];
const HMAC_HASHES: ReadonlyArray<Pick<HmacSignature, 'hash' | 'encoding'> & { reading: string }> = [
  { hash: 'sha256', encoding: 'hex', reading: 'sha256-hex' },
  { hash: 'sha256', encoding: 'base64', reading: 'sha256-base64' },
  { hash: 'sha512', encoding: 'hex', reading: 'sha512-hex' },
];
const SECRET_ENCODINGS: ReadonlyArray<{ secretEncoding: HmacSignature['secretEncoding']; reading: string }> = [
  { secretEncoding: 'utf8', reading: 'secret-text' },
  { secretEncoding: 'base64', reading: 'base64-decoded' },
];

/** The form that last opened a session, per target and key type: tried first next time, and used to sign writes. */
const working = runScoped(() => new Map<string, ExchangeSessionSettings>());

/** The settings a login of this key type is tried with, in turn. */
export function loginForms(settings: ExchangeSessionSettings, type: KeyType, baseUrl: string): ExchangeSessionSettings[] {
  const forms = type === 'ecdsa' ? ecdsaForms(settings) : hmacForms(settings);
  const known = working().get(`${baseUrl} ${type}`);
  return known ? [known, ...forms.filter((f) => describeForm(f, type) !== describeForm(known, type))] : forms;
}

export function rememberForm(baseUrl: string, type: KeyType, form: ExchangeSessionSettings): void {
  working().set(`${baseUrl} ${type}`, form);
}

/** The settings a key's write signatures are made with: the form its logins were accepted in. */
export function signingForm(settings: ExchangeSessionSettings, type: KeyType, baseUrl: string): ExchangeSessionSettings {
  return working().get(`${baseUrl} ${type}`) ?? settings;
}

function ecdsaForms(settings: ExchangeSessionSettings): ExchangeSessionSettings[] {
  const own = settings.ecdsaSignature;
  const encodings = stated('ecdsaSignature.format') || stated('ecdsaSignature.encoding') ? [own] : withOwnFirst(own, ECDSA_ENCODINGS, (a, b) => a.format === b.format && a.encoding === b.encoding);
  const payloads = stated('ecdsaSignature.payloadJson') ? [own.payloadJson] : withOwnFirst(own.payloadJson, PAYLOAD_JSON, (a, b) => a === b);
  return encodings.flatMap((e) => payloads.map((payloadJson) => ({ ...settings, ecdsaSignature: { format: e.format, encoding: e.encoding, payloadJson } })));
}

function hmacForms(settings: ExchangeSessionSettings): ExchangeSessionSettings[] {
  const own = settings.hmacSignature;
  const hashes = stated('hmacSignature.hash') || stated('hmacSignature.encoding') ? [own] : withOwnFirst(own, HMAC_HASHES, (a, b) => a.hash === b.hash && a.encoding === b.encoding);
  const secrets = stated('hmacSignature.secretEncoding') ? [own] : withOwnFirst(own, SECRET_ENCODINGS, (a, b) => a.secretEncoding === b.secretEncoding);
  return hashes.flatMap((h) => secrets.map((s) => ({ ...settings, hmacSignature: { hash: h.hash, encoding: h.encoding, secretEncoding: s.secretEncoding } })));
}

function withOwnFirst<T, U>(own: T, listed: readonly U[], same: (a: T | U, b: T | U) => boolean): Array<T | U> {
  return [own, ...listed.filter((l) => !same(own, l))];
}

/** A form in words, for labels and messages. */
export function describeForm(form: ExchangeSessionSettings, type: KeyType): string {
  if (type === 'ecdsa') return `${form.ecdsaSignature.format} ${form.ecdsaSignature.encoding}, ${form.ecdsaSignature.payloadJson} JSON`;
  return `HMAC-${form.hmacSignature.hash.toUpperCase()} ${form.hmacSignature.encoding}, secret ${form.hmacSignature.secretEncoding === 'utf8' ? 'as text' : `${form.hmacSignature.secretEncoding}-decoded`}`;
}

/** The readings of the open points a form that opened a session shows the target to take (point, reading or what it did). */
export function formReadings(form: ExchangeSessionSettings, type: KeyType): Array<[point: string, reading: string | undefined, detail?: string]> {
  if (type === 'ecdsa') {
    const { format, encoding, payloadJson } = form.ecdsaSignature;
    const listed = ECDSA_ENCODINGS.find((e) => e.format === format && e.encoding === encoding)?.reading;
    return [
      ['A-NS-LOGIN-SIGNATURE-ENCODING', listed, listed ? undefined : `${format} ${encoding}`],
      // Compact JSON in the document's order suits both document-order-compact and as-received: only spaced tells.
      ...(payloadJson === 'spaced' ? [['A-NS-LOGIN-PAYLOAD-JSON', 'python-default-separators'] as [string, string]] : []),
    ];
  }
  const { hash, encoding, secretEncoding } = form.hmacSignature;
  const listed = HMAC_HASHES.find((h) => h.hash === hash && h.encoding === encoding)?.reading;
  const keyed = SECRET_ENCODINGS.find((s) => s.secretEncoding === secretEncoding)?.reading;
  return [
    ['A-NS-HMAC-HASH', listed, listed ? undefined : `${hash} ${encoding}`],
    ['A-NS-HMAC-SECRET-BYTES', keyed, keyed ? undefined : `keyed with the ${secretEncoding}-decoded secret`],
  ];
}
