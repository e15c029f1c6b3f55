// Seeded faults of the exchange-session reference: each is a plausible bug of an exchange's session and order
// gateway. `violates` lists what a good suite must see fail against reference.yaml; `collateral` lists what may fail
// too, each for the reason given beside it.

import type { Fault } from '../types.js';

export type { Fault };

export const faults = [
  // Order nonces (BX-NONCE on writes)
  {
    name: 'orders-refused',
    description: 'Refuses every order and cancellation (400, "trading is halted"), whatever its nonce: the refusal checks of writes have no accepted control, so none of them may pass.',
    violates: [],
    undecided: ['A-NONCE-IN-RANGE', 'A-NONCE-GREATER', 'A-NONCE-REUSE', 'A-NONCE-REQUIRED'],
  },
  {
    name: 'accounts-open',
    description: 'The trading-account listing was left out of the session guard: without a valid session it answers 200 with no account.',
    violates: ['A-GEN-AUTH'],
    // The token checks may meet the listing too.
    collateral: ['A-TOKEN-REQUIRED'],
    keepsDefault: { 'A-NS-AUTH-BEFORE-ROUTE': 'a gateway in front of every route (credential-first) refuses without a session before the listing\'s own code runs' },
  },
  {
    name: 'broken-json-500',
    description: 'The order handler does not catch the JSON parser\'s error: a body that is not JSON gets 500.',
    violates: ['A-GEN-NO-5XX'],
  },
  {
    name: 'odd-query-redirect',
    description: 'A malformed escape in the query string ("%zz") is "cleaned" by a redirect (301) to the bare path. A redirect is not the API answering: no verdict may rest on it, so the bad input it answers is left undecided.',
    violates: [],
    undecided: ['A-GEN-NO-5XX'],
  },
  {
    name: 'nonce-moved',
    description: 'The nonce range moved under a trailing slash; its documented path answers 308 to the new one. A redirect is not the API answering: what the valid request would have shown is left undecided, never passed.',
    violates: [],
    undecided: ['A-GEN-VALID-ACCEPTED', 'A-GEN-STATUS', 'A-GEN-SCHEMA', 'A-GEN-CONTENT-TYPE'],
  },
  {
    name: 'nonce-range-created',
    description: 'The nonce-range handler was copied from the order handler and answers 201 Created, a success the document does not name (success is HTTP 200).',
    violates: ['A-GEN-VALID-ACCEPTED', 'A-GEN-STATUS'],
  },
  {
    name: 'read-only-key-trades',
    description: 'Checks a session\'s token but not its key\'s permissions: a key issued without trading permission places orders.',
    violates: ['A-GEN-ROLE'],
  },
  {
    name: 'nonce-equal-accepted',
    description: 'Compares a write\'s nonce with `>=` instead of `>`, so the nonce equal to the last accepted one is accepted again.',
    violates: ['A-NONCE-REUSE'],
  },
  {
    name: 'nonce-lower-accepted',
    description: 'Keeps the set of nonces a key has used and refuses only reuse, so a lower nonce never used before is accepted.',
    violates: ['A-NONCE-GREATER'],
  },
  {
    name: 'nonce-only-last-remembered',
    description: 'Remembers only the last nonce and refuses only that one, so any other in-range nonce (lower, or an earlier one reused) is accepted.',
    violates: ['A-NONCE-GREATER', 'A-NONCE-REUSE'],
  },
  {
    name: 'nonce-race',
    description: 'Checks the nonce, then awaits a store round-trip before recording it, so concurrent writes carrying the same nonce all pass the check.',
    violates: ['A-NONCE-CONCURRENT'],
  },
  {
    name: 'nonce-upper-unenforced',
    description: 'Enforces only the lower bound of the nonce range: a nonce above the end of the day is accepted.',
    violates: ['A-NONCE-IN-RANGE'],
  },
  {
    name: 'nonce-range-milliseconds',
    description: 'Reports the nonce range in epoch milliseconds (a unit slip in the response only; enforcement stays in microseconds).',
    violates: ['A-NONCE-RANGE-DAY'],
  },
  {
    name: 'nonce-range-yesterday',
    description: 'Reports yesterday\'s range (a day index off by one in the response; enforcement stays on today).',
    violates: ['A-NONCE-RANGE-DAY'],
  },
  {
    name: 'nonce-not-required',
    description: 'Checks BX-NONCE only when it is present, so a write without it is accepted.',
    violates: ['A-NONCE-REQUIRED'],
  },
  {
    name: 'refused-nonce-consumed',
    description: 'Records a nonce as the key\'s last before checking the upper bound, so a nonce refused for lying above the range still raises the bar for the next one.',
    violates: ['A-NONCE-REFUSAL-NO-EFFECT'],
  },

  // Logins
  {
    name: 'ecdsa-signature-unchecked',
    description: 'Looks the ECDSA key up but never verifies the login signature.',
    violates: ['A-LOGIN-ECDSA-SIGNATURE'],
  },
  {
    name: 'ecdsa-userid-unchecked',
    description: 'Logs the key\'s own user in whatever loginPayload.userId says, as long as the signature verifies.',
    violates: ['A-LOGIN-ECDSA-USERID'],
  },
  {
    name: 'ecdsa-expiry-unchecked',
    description: 'Never looks at loginPayload.expirationTime: neither whether it has passed nor whether it is 5 minutes after the nonce.',
    violates: ['A-LOGIN-ECDSA-EXPIRED', 'A-LOGIN-ECDSA-EXPIRY-WINDOW'],
    // The document states the 5 minutes as a client rule: a target is held to it only where its profile says it enforces it.
    profile: 'reference-exchange-signed-writes.yaml',
  },
  {
    name: 'hmac-message-reordered',
    description: 'Builds the HMAC login message as nonce + timestamp + GET + path, so correctly signed logins are refused.',
    violates: ['A-LOGIN-HMAC-OK'],
    // The key's own correct login, refused, is the control of every refusal of an HMAC login.
    undecided: ['A-LOGIN-HMAC-SIGNATURE', 'A-LOGIN-WHITELIST'],
  },
  {
    name: 'hmac-signature-unchecked',
    description: 'Requires BX-SIGNATURE on the HMAC login but never compares it: any value passes.',
    violates: ['A-LOGIN-HMAC-SIGNATURE'],
  },
  {
    name: 'whitelist-unenforced',
    description: 'Stores the key\'s IP whitelist but never checks a login\'s address against it.',
    violates: ['A-LOGIN-WHITELIST'],
  },

  // Session tokens
  {
    name: 'token-one-hour',
    description: 'Issues tokens that expire one hour after issue instead of 24 hours.',
    violates: ['A-TOKEN-LIFETIME'],
  },
  {
    name: 'token-signature-unchecked',
    description: 'Decodes the bearer token without verifying its signature or expiry, and trusts its claims.',
    violates: ['A-TOKEN-REQUIRED'],
  },

  // Scope and trading accounts
  {
    name: 'hmac-reaches-custody',
    description: 'Applies no key-type scope, so sessions of HMAC keys reach the custody endpoint.',
    violates: ['A-KEY-SCOPE-HMAC'],
  },
  {
    name: 'accounts-refused',
    description: 'Guards the trading-account listing with a permission of the web console that no API key is given: every session is refused there (403).',
    violates: ['A-ACCOUNTS-FIELDS'],
    // The listing with the login's own token is the control of A-TOKEN-REQUIRED's refusals; the order checks need an
    // account of the listing to trade for.
    undecided: ['A-TOKEN-REQUIRED'],
  },
  {
    name: 'accounts-without-ratelimit-token',
    description: 'Lists trading accounts without their rateLimitToken (a serializer that leaves the field out).',
    // The spec's TradingAccount schema requires rateLimitToken: the same evidence breaks the schema check.
    violates: ['A-ACCOUNTS-FIELDS', 'A-GEN-SCHEMA'],
  },
  {
    name: 'ratelimit-token-refused',
    description: 'Answers 400 to any request carrying BX-RATELIMIT-TOKEN (a header allow-list that forgot it).',
    violates: ['A-RATELIMIT-TOKEN'],
  },

  // Orders
  {
    name: 'ack-without-order-id',
    description: 'Names the id of the acknowledgement `id` instead of `orderId` (the lookup still works by that id).',
    violates: ['A-ORDER-ACK'],
    // The spec's OrderAcknowledgement schema requires orderId.
    collateral: ['A-GEN-SCHEMA'],
  },
  {
    name: 'lookup-without-status',
    description: 'Leaves the status member out of the order record.',
    violates: ['A-ORDER-STATUS'],
    // A record without the profile's status member is not the record the spec describes.
    collateral: ['A-GEN-SCHEMA'],
  },
  {
    name: 'gtc-cancelled-without-cross',
    description: 'Cancels a GTC order that crossed nothing instead of resting it (the remainder rule of IOC applied when there was no fill).',
    violates: ['A-TIF-GTC'],
  },
  {
    name: 'ioc-remainder-rests',
    description: 'Rests the unfilled remainder of an IOC order on the book instead of cancelling it.',
    violates: ['A-TIF-IOC'],
  },
  {
    name: 'fok-fills-partially',
    description: 'Fills a FOK order as far as the book allows and cancels the rest, instead of cancelling it unfilled when it cannot fill in full.',
    violates: ['A-TIF-FOK'],
  },
  {
    name: 'fok-partial-fill-unreadable',
    description: 'Fills a FOK order partly, as fok-fills-partially does, and names the filled quantity executedQty, which the profile does not state: no record shows how much was filled, so A-TIF-FOK must not pass, and the book the model no longer knows must not be blamed on GTC or IOC.',
    violates: [],
    undecided: ['A-TIF-FOK'],
    // The drift shows only where a later order meets the book the partial fill changed: rare at quick depth.
    needsDefaultDepth: true,
  },
  {
    name: 'fok-rests',
    description: 'Treats a FOK order that cannot fill in full like a GTC: it rests on the book instead of being cancelled.',
    violates: ['A-TIF-FOK'],
  },
  {
    name: 'ecdsa-payload-sorted',
    description: 'Verifies the ECDSA login signature over loginPayload with its members sorted by name, not in the documented order, so correct logins are refused.',
    violates: ['A-LOGIN-ECDSA-OK'],
    // The key's own correct login, refused, is the control of every refusal of an ECDSA login.
    undecided: ['A-LOGIN-ECDSA-SIGNATURE', 'A-LOGIN-ECDSA-USERID', 'A-LOGIN-ECDSA-EXPIRED', 'A-LOGIN-ECDSA-EXPIRY-WINDOW', 'A-LOGIN-WHITELIST'],
  },
  {
    name: 'token-not-jwt',
    description: 'Hands out opaque random session tokens instead of JWTs (the server keeps them in a table).',
    violates: ['A-TOKEN-JWT'],
  },
  {
    name: 'custody-refuses-ecdsa',
    description: 'Refuses every key at the custody endpoint, ECDSA keys included.',
    violates: ['A-KEY-SCOPE-ECDSA'],
    // An ECDSA session reaching custody is the control of an HMAC session's refusal there.
    undecided: ['A-KEY-SCOPE-HMAC'],
  },
  {
    name: 'nonce-counter',
    description: 'Reads "client-side incremented" as a counter: after the first, a nonce must be exactly the last accepted one plus one.',
    violates: ['A-NONCE-ACCEPTED'],
    // A valid nonce after one refused as out of range is refused by the same counter: the evidence fits both.
    collateral: ['A-NONCE-REFUSAL-NO-EFFECT'],
  },
  {
    name: 'accounts-as-text',
    description: 'Sends the trading-account list as text/plain (a handler that writes the JSON string itself).',
    violates: ['A-GEN-CONTENT-TYPE'],
  },
] as const satisfies readonly Fault[];

export type ExchangeSessionFault = (typeof faults)[number]['name'];
