/**
 * Which reading of an open point an answer shows (specs/chat.yaml, x-not-shown): the success body, the rate-limit
 * headers and the reply time of an allowed request, the media type, members, sentence and rounding of a 429. Never a
 * verdict: every reading is correct, the report only says which the target took.
 */
import type { Reply } from '../../harness/http/client.ts';
import { isRefused, showed } from '../../harness/answers.ts';
import { loadSpec } from '../../harness/spec/load.ts';

/** The `reading` fixture: a point, the reading seen (or none listed, with what the target did). */
export type RecordReading = (point: string, reading: string | undefined, detail?: string) => void;

/**
 * The `reading` fixture narrowed to the points a test may record: those whose spec entry lists a requirement the test
 * is tagged with (what the self-test holds each recorded point to).
 */
export function readingsOf(requirements: readonly string[], record: RecordReading): RecordReading {
  const points = new Map(loadSpec('chat').notShown.map((p) => [p.id, p.requirements ?? []]));
  return (point, reading, detail) => {
    if (points.get(point)?.some((id) => requirements.includes(id))) record(point, reading, detail);
  };
}

const mediaType = (r: Reply) => (r.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** An allowed reply: its body (E-NS-SUCCESS-BODY), its rate-limit headers (E-NS-ALLOWED-HEADERS), how long it took (E-NS-REPLY-TIME). */
export function sightAllowed(reply: Reply, record: RecordReading): void {
  const type = mediaType(reply);
  const json = type.includes('json') ? reply.json : undefined;
  if (type === 'text/event-stream') record('E-NS-SUCCESS-BODY', 'sse-stream');
  else if (type === 'application/x-ndjson') record('E-NS-SUCCESS-BODY', 'ndjson-stream');
  else if (type === 'text/plain') record('E-NS-SUCCESS-BODY', 'text-stream');
  else if (isObject(json) && json.object === 'chat.completion') record('E-NS-SUCCESS-BODY', 'openai-json');
  else if (isObject(json) && typeof json.reply === 'string') record('E-NS-SUCCESS-BODY', 'json-reply');
  else record('E-NS-SUCCESS-BODY', undefined, `${reply.status} ${type || 'without a media type'}${isObject(json) ? ` with members ${Object.keys(json).join(', ')}` : ''}`);

  const h = reply.headers;
  if (h['x-ratelimit-remaining'] !== undefined || h['x-ratelimit-limit'] !== undefined) record('E-NS-ALLOWED-HEADERS', 'x-ratelimit');
  else if (h['ratelimit-remaining'] !== undefined || h['ratelimit-policy'] !== undefined || h['ratelimit'] !== undefined) record('E-NS-ALLOWED-HEADERS', 'ietf-draft');
  else record('E-NS-ALLOWED-HEADERS', 'none');

  // A few milliseconds, or a model's second and more; in between says little.
  const ms = reply.receivedAt - reply.sentAt;
  if (ms < 100) record('E-NS-REPLY-TIME', 'immediate');
  else if (ms >= 500) record('E-NS-REPLY-TIME', 'model-latency');
}

const DOCUMENTED = ['error', 'message', 'retryAfter'];
/** What RFC 9457 adds to a problem+json body (E-NS-LIMITED-MEDIA-TYPE), not the members E-NS-LIMITED-BODY-MEMBERS is about. */
const PROBLEM = ['type', 'title', 'status', 'detail', 'instance'];
const LIMIT_DETAILS = ['limit', 'windowMs', 'resetAt'];

/** The Spanish sentences the readings of E-NS-MESSAGE-TEXT quote, by reading. */
const sentences = (() => {
  let cached: Array<[string, string]> | undefined;
  return () =>
    (cached ??= (loadSpec('chat').notShown.find((p) => p.id === 'E-NS-MESSAGE-TEXT')?.readings ?? []).flatMap((r) => {
      const quoted = /^"([^"]+)"/.exec(r.text)?.[1];
      return quoted ? [[r.id, quoted] as [string, string]] : [];
    }));
})();

/**
 * A 429: its media type (E-NS-LIMITED-MEDIA-TYPE), its members (E-NS-LIMITED-BODY-MEMBERS), its sentence
 * (E-NS-MESSAGE-TEXT) and how its wait is rounded (E-NS-RETRY-ROUNDING). `waitMs`: the bounds of the true wait, when
 * the model knows them.
 */
export function sightLimited(reply: Reply, waitMs: [number, number] | undefined, record: RecordReading): void {
  const type = mediaType(reply);
  if (type === 'application/json') record('E-NS-LIMITED-MEDIA-TYPE', 'application-json');
  else if (type === 'application/problem+json') record('E-NS-LIMITED-MEDIA-TYPE', 'problem-json');
  const body = reply.json;
  if (!isObject(body)) return;

  const extra = Object.keys(body).filter((k) => !DOCUMENTED.includes(k) && !(type === 'application/problem+json' && PROBLEM.includes(k)));
  if (extra.length === 0) record('E-NS-LIMITED-BODY-MEMBERS', 'documented-members');
  else if (extra.every((k) => LIMIT_DETAILS.includes(k))) record('E-NS-LIMITED-BODY-MEMBERS', 'with-limit-details');
  else record('E-NS-LIMITED-BODY-MEMBERS', undefined, `the documented members and ${extra.join(', ')}`);

  if (typeof body.message === 'string' && body.message.trim() !== '') {
    const known = sentences().find(([, text]) => text === body.message);
    record('E-NS-MESSAGE-TEXT', known?.[0], known ? undefined : `another sentence: ${JSON.stringify(body.message)}`);
  }
  sightRounding(reply.headers['retry-after']?.trim(), body.retryAfter, waitMs, record);
}

function sightRounding(header: string | undefined, inBody: unknown, waitMs: [number, number] | undefined, record: RecordReading): void {
  if (header === undefined || !/^\d+$/.test(header) || typeof inBody !== 'number') return;
  const seconds = Number(header);
  if (!Number.isInteger(inBody)) {
    record('E-NS-RETRY-ROUNDING', 'body-unrounded');
    return;
  }
  if (inBody !== seconds || !waitMs) return;
  // Up or to the nearest second tell apart only where the whole wait lies within one second: rounded down from below
  // half a second is to the nearest, from above it the floor (no listed reading); rounded up from below half is up.
  const [lo, hi] = [waitMs[0] / 1000, waitMs[1] / 1000];
  const whole = Math.floor(lo);
  if (Math.floor(hi) !== whole || lo === whole) return;
  if (seconds === whole + 1 && hi - whole < 0.5) record('E-NS-RETRY-ROUNDING', 'ceil');
  else if (seconds === whole && hi - whole < 0.5) record('E-NS-RETRY-ROUNDING', 'round');
  else if (seconds === whole && lo - whole >= 0.5) record('E-NS-RETRY-ROUNDING', undefined, `rounded down (${seconds} s for a wait of ${lo.toFixed(3)} to ${hi.toFixed(3)} s)`);
}

/** Refusals of bodies that are not JSON and of JSON bodies without a messages array (E-NS-BAD-BODY-ANSWER). */
export function sightBadBodyAnswers(notJson: readonly Reply[], shape: readonly Reply[], record: RecordReading): void {
  const all = [...notJson, ...shape];
  if (all.length === 0 || !all.every(isRefused)) return;
  const jsonWith400 = (r: Reply) => showed(r, 400) && mediaType(r).includes('json');
  if (all.every((r) => showed(r, 400) && mediaType(r) === 'text/plain')) record('E-NS-BAD-BODY-ANSWER', '400-text');
  else if (all.every(jsonWith400)) record('E-NS-BAD-BODY-ANSWER', '400-json');
  else if (notJson.every(jsonWith400) && shape.every((r) => showed(r, 422))) record('E-NS-BAD-BODY-ANSWER', '422-validation');
  else record('E-NS-BAD-BODY-ANSWER', undefined, `refused with ${[...new Set(all.map((r) => `${r.status} ${mediaType(r) || 'without a media type'}`))].join(', ')}`);
}
