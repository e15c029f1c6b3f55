// The readings of the open points of specs/chat.yaml that this reference implements (see mocks/readings.ts): the
// first of each is the reference's default.
import type { OpenPointReadings } from '../readings.ts';

/** The API key a deployment taking E-NS-AUTH's bearer readings asks for (its tester writes it into the profile's extras). */
export const READING_API_KEY = 'chat-reading-key';
/** The api-version a deployment taking E-NS-EXTRA-INPUT's api-version-query reading serves. */
export const READING_API_VERSION = '2024-10-21';

const bearer = { extras: { 'POST /api/chat': { headers: { Authorization: `Bearer ${READING_API_KEY}` } } } };

export const readings = [
  // The body of an allowed reply: the reference's own JSON, server-sent events (what AI chat endpoints commonly stream),
  // a plain-text stream (an AI SDK text stream), an OpenAI-style chat.completion object, newline-delimited JSON (Ollama).
  { point: 'E-NS-SUCCESS-BODY', readings: [{ name: 'json-reply' }, { name: 'sse-stream' }, { name: 'text-stream' }, { name: 'openai-json' }, { name: 'ndjson-stream' }] },
  // No authentication, or an API key as a bearer token, checked after or before the limiter.
  {
    point: 'E-NS-AUTH',
    readings: [{ name: 'none' }, { name: 'bearer-after-limiter', settings: bearer }, { name: 'bearer-before-limiter', settings: bearer }],
  },
  { point: 'E-NS-DEVELOPMENT-MODE', readings: [{ name: 'client-id', reference: { developmentModeReading: 'client-id' } }, { name: 'connection', reference: { developmentModeReading: 'connection' } }] },
  { point: 'E-NS-CHECK-ORDER', readings: [{ name: 'limit-first' }, { name: 'parse-first' }, { name: 'validate-first' }] },
  { point: 'E-NS-LIMITED-BAD-BODY', readings: [{ name: 'stamped' }, { name: 'not-stamped' }] },
  { point: 'E-NS-BAD-BODY-ANSWER', readings: [{ name: '400-json' }, { name: '422-validation' }, { name: '400-text' }] },
  { point: 'E-NS-RETRY-ROUNDING', readings: [{ name: 'ceil' }, { name: 'round' }, { name: 'body-unrounded' }] },
  { point: 'E-NS-ALLOWED-HEADERS', readings: [{ name: 'none' }, { name: 'x-ratelimit' }, { name: 'ietf-draft' }] },
  { point: 'E-NS-MESSAGE-TEXT', readings: [{ name: 'tu-sentence' }, { name: 'usted-sentence' }] },
  { point: 'E-NS-OTHER-METHODS', readings: [{ name: '404-json' }, { name: '405-allow' }, { name: '404-html' }] },
  { point: 'E-NS-MESSAGE-RULES', readings: [{ name: 'any-strings' }, { name: 'openai-roles' }] },
  { point: 'E-NS-LIMITER-SCOPE', readings: [{ name: 'chat-only' }, { name: 'every-request' }] },
  { point: 'E-NS-REQUEST-MEDIA-TYPE', readings: [{ name: 'any' }, { name: 'json-only-415' }, { name: 'unparsed-400' }] },
  { point: 'E-NS-BODY-SIZE', readings: [{ name: 'one-mebibyte' }, { name: 'hundred-kilobytes' }] },
  {
    point: 'E-NS-EXTRA-INPUT',
    readings: [
      { name: 'none' },
      { name: 'api-version-query', settings: { extras: { 'POST /api/chat': { query: { 'api-version': READING_API_VERSION } } } } },
      // A required body member: the profile has no way to state one (extras carry query parameters and headers only).
      { name: 'model-member' },
    ],
  },
  { point: 'E-NS-IPV6-KEY', readings: [{ name: 'full-address' }, { name: 'subnet-56' }] },
  { point: 'E-NS-CLIENT-ID-FORMAT', readings: [{ name: 'as-is' }, { name: 'first-valid-ip' }] },
  { point: 'E-NS-LIMITED-BODY-MEMBERS', readings: [{ name: 'documented-members' }, { name: 'with-limit-details' }] },
  { point: 'E-NS-LIMITED-MEDIA-TYPE', readings: [{ name: 'application-json' }, { name: 'problem-json' }] },
  { point: 'E-NS-REPLY-TIME', readings: [{ name: 'immediate' }, { name: 'model-latency' }] },
] as const satisfies readonly OpenPointReadings[];
