// The readings of the open points of specs/chat.yaml that this reference implements (see mocks/readings.ts): the
// first of each is the reference's default.
import type { OpenPointReadings } from '../readings.ts';

/** The api-version a deployment taking E-NS-EXTRA-INPUT's api-version-query reading serves. */
export const READING_API_VERSION = '2024-10-21';
/** E-NS-REPLY-TIME model-latency: how long an allowed reply waits for its (simulated) language model. */
export const MODEL_LATENCY_MS = 1000;
/** The credential a deployment taking E-NS-AUTH's bearer readings asks for: its value is drawn for the run. */
export const API_KEY_CREDENTIAL = 'apiKey';

// The tester of a deployment that asks for an API key names the credential in the profile's extras; the key itself
// comes from an environment variable (drawn at random for the run against the reference), never from the profile.
const bearer = {
  settings: { extras: { 'POST /api/chat': { headers: { Authorization: `Bearer {credential:${API_KEY_CREDENTIAL}}` } } } },
  credentials: { [API_KEY_CREDENTIAL]: 'CHAT_API_KEY' },
};

export const readings = [
  // The body of an allowed reply: the reference's own JSON, server-sent events (what AI chat endpoints commonly stream),
  // a plain-text stream (an AI SDK text stream), an OpenAI-style chat.completion object, newline-delimited JSON (Ollama).
  { point: 'E-NS-SUCCESS-BODY', readings: [{ name: 'json-reply' }, { name: 'sse-stream' }, { name: 'text-stream' }, { name: 'openai-json' }, { name: 'ndjson-stream' }] },
  // No authentication, or an API key as a bearer token, checked after or before the limiter.
  {
    point: 'E-NS-AUTH',
    readings: [{ name: 'none' }, { name: 'bearer-after-limiter', ...bearer }, { name: 'bearer-before-limiter', ...bearer }],
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
      // A required body member: its tester states what every chat request carries beside its messages.
      { name: 'model-member', settings: { requestMembers: { model: 'reference' } } },
    ],
  },
  { point: 'E-NS-IPV6-KEY', readings: [{ name: 'full-address' }, { name: 'subnet-56' }] },
  { point: 'E-NS-CLIENT-ID-FORMAT', readings: [{ name: 'as-is' }, { name: 'first-valid-ip' }] },
  { point: 'E-NS-LIMITED-BODY-MEMBERS', readings: [{ name: 'documented-members' }, { name: 'with-limit-details' }] },
  { point: 'E-NS-LIMITED-MEDIA-TYPE', readings: [{ name: 'application-json' }, { name: 'problem-json' }] },
  // A tester knows how long the deployment's model takes to answer.
  { point: 'E-NS-REPLY-TIME', readings: [{ name: 'immediate' }, { name: 'model-latency', settings: { replyMs: MODEL_LATENCY_MS } }] },
] as const satisfies readonly OpenPointReadings[];
