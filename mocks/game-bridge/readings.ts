// The readings of the open points of specs/game-bridge.yaml that this reference implements (see mocks/readings.ts): the
// first of each is the reference's default. A reading with neither `reference` nor `settings` is read by the server
// (readingSwitch in server.ts).
import type { OpenPointReadings } from '../readings.ts';

export const readings = [
  { point: 'C-NS-TPS', readings: [{ name: 'three-averages' }, { name: 'single-value' }, { name: 'switched-off' }] },
  {
    point: 'C-NS-CHECK-ORDER',
    readings: [
      { name: 'auth-method-enabled' },
      { name: 'enabled-method-auth', reference: { checkOrder: ['enabled', 'method', 'auth'] } },
      { name: 'method-auth-enabled', reference: { checkOrder: ['method', 'auth', 'enabled'] } },
      { name: 'body-first', reference: { bodyFirst: true } },
    ],
  },
  {
    point: 'C-NS-CONTENT-TYPE',
    readings: [
      { name: 'any-media-type' },
      { name: 'other-type-unparsed' },
      { name: 'other-type-415' },
      // Its tester knows that a client must label the body; the others read a body sent without Content-Type.
      { name: 'json-type-required', settings: { logRequiresContentType: true } },
    ],
  },
  { point: 'C-NS-MESSAGE-TEXTS', readings: [{ name: 'named-like-log' }, { name: 'generic-texts' }] },
  { point: 'C-NS-MESSAGE-TYPE', readings: [{ name: 'logged-as-json' }, { name: 'refused-422' }] },
  { point: 'C-NS-METHOD-CASE', readings: [{ name: 'parser-400' }, { name: 'method-not-allowed-405' }, { name: 'not-implemented-501' }] },
  { point: 'C-NS-UNKNOWN-PATHS', readings: [{ name: 'key-first-404' }, { name: 'not-found-before-key' }, { name: 'framework-404' }] },
  { point: 'C-NS-PLAYER-ORDER', readings: [{ name: 'join-order' }, { name: 'unordered' }] },
  { point: 'C-NS-PLATFORMS', readings: [{ name: 'paper', settings: { platform: 'paper' } }, { name: 'velocity', settings: { platform: 'velocity' } }] },
  { point: 'C-NS-RATE-LIMITS', readings: [{ name: 'unlimited' }, { name: 'per-client-429', reference: { rateLimit: { requests: 200, windowMs: 1000 } } }] },
  { point: 'C-NS-HEAD', readings: [{ name: 'head-405' }, { name: 'head-as-get' }] },
  { point: 'C-NS-OPTIONS', readings: [{ name: 'options-405' }, { name: 'options-204-before-key' }] },
  { point: 'C-NS-ALLOW-HEADER', readings: [{ name: 'allow-header' }, { name: 'no-allow-header' }] },
  { point: 'C-NS-SUCCESS-MEMBERS', readings: [{ name: 'documented-only' }, { name: 'extra-members' }] },
  { point: 'C-NS-ERROR-MEMBERS', readings: [{ name: 'documented-only' }, { name: 'status-path-timestamp' }] },
  { point: 'C-NS-PLAYER-NAMES', readings: [{ name: 'account-names' }, { name: 'display-names' }] },
  {
    point: 'C-NS-VERSION-STRINGS',
    readings: [{ name: 'release-numbers' }, { name: 'build-strings', reference: { game: '1.21.4-R0.1-SNAPSHOT', version: '2.0.0-SNAPSHOT' } }],
  },
  { point: 'C-NS-MALFORMED-BODY', readings: [{ name: 'missing-field' }, { name: 'invalid-json-message' }] },
  { point: 'C-NS-LEVEL-TYPE', readings: [{ name: 'forwarded-as-text' }, { name: 'refused-422' }] },
  { point: 'C-NS-BODY-LIMIT', readings: [{ name: 'limit-1mib-413' }, { name: 'limit-100kb-413' }] },
  {
    point: 'C-NS-EXTRA-INPUT',
    readings: [{ name: 'nothing-more' }, { name: 'server-parameter', settings: { extras: { 'GET /v2/players': { query: { server: 'lobby' } } } } }],
  },
  { point: 'C-NS-TRAILING-SLASH', readings: [{ name: 'distinct-path' }, { name: 'same-route' }, { name: 'redirect-to-canonical' }] },
  { point: 'C-NS-RESPONSE-MEDIA-TYPE', readings: [{ name: 'json-utf8' }, { name: 'json-without-charset' }] },
] as const satisfies readonly OpenPointReadings[];
