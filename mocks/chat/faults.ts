// Seeded faults of the chat reference: each is a plausible limiter bug. `violates` lists what a good suite must see
// fail against reference.yaml (windowMs 3000, maxRequests 5, one instance) unless `profile` names another profile.

import type { Fault } from '../types.js';

export type { Fault };

// Tests that recognise "limited" by a 429 can all trip when the limit itself is wrong.
const countingChecks = [
  'E-LIMIT-ALLOWED',
  'E-LIMIT-429',
  'E-WINDOW-SLIDING',
  'E-LIMITED-NOT-RECORDED',
  'E-PRUNE-BEFORE-COUNT',
  'E-PER-INSTANCE',
  'E-PER-CLIENT',
  'E-CLIENT-ID-XFF-FIRST',
  'E-CLIENT-ID-XREALIP',
  'E-CLIENT-ID-SOCKET',
];
const limitedAnswerChecks = [
  'E-429-BODY-ERROR',
  'E-429-BODY-MESSAGE',
  'E-429-RETRYAFTER-BODY',
  'E-429-RETRY-AFTER-HEADER',
  'E-429-REMAINING-ZERO',
];
const except = (list: string[], ...ids: string[]) => list.filter((id) => !ids.includes(id));

export const faults: Fault[] = [
  {
    name: 'fixed-window',
    description:
      'Counts requests in fixed windows aligned to server start and resets the count at each boundary, so a limited client is allowed again at the next boundary, before its oldest stamp has left the window.',
    violates: ['E-WINDOW-SLIDING'],
    collateral: ['E-429-RETRY-AFTER-HEADER', 'E-429-RETRYAFTER-BODY', 'E-LIMITED-NOT-RECORDED', 'E-PRUNE-BEFORE-COUNT', 'E-LIMIT-ALLOWED', 'E-LIMIT-429', 'E-PER-INSTANCE'],
  },
  {
    name: 'off-by-one',
    description: 'Limits only when the count exceeds maxRequests (`>` instead of `>=`), so maxRequests + 1 requests pass per window.',
    violates: ['E-LIMIT-429'],
    collateral: except(countingChecks, 'E-LIMIT-429'),
  },
  {
    name: 'limits-early',
    description: 'Limits at maxRequests - 1 stamps, so only maxRequests - 1 requests pass per window.',
    violates: ['E-LIMIT-ALLOWED'],
    collateral: except(countingChecks, 'E-LIMIT-ALLOWED'),
  },
  {
    name: 'records-limited',
    description: 'Adds a stamp for limited requests too, so a client that keeps retrying while limited stays limited past the moment its oldest stamp leaves the window.',
    violates: ['E-LIMITED-NOT-RECORDED'],
    collateral: ['E-WINDOW-SLIDING', 'E-PRUNE-BEFORE-COUNT', 'E-429-RETRY-AFTER-HEADER'],
  },
  {
    name: 'shared-counter',
    description: 'Keys every request to one counter, so all clients share a single limit.',
    violates: ['E-PER-CLIENT'],
    collateral: [...except(countingChecks, 'E-PER-CLIENT'), ...limitedAnswerChecks],
  },
  {
    name: 'xff-last-address',
    description: 'Takes the last address of X-Forwarded-For (the nearest proxy) instead of the first.',
    violates: ['E-CLIENT-ID-XFF-FIRST'],
    collateral: ['E-PER-CLIENT'],
  },
  {
    name: 'xff-whole-header',
    description: 'Uses the whole X-Forwarded-For value as the identifier, so "a, b" and "a" count as different clients.',
    violates: ['E-CLIENT-ID-XFF-FIRST'],
    collateral: ['E-PER-CLIENT'],
  },
  {
    name: 'x-real-ip-ignored',
    description: 'Ignores X-Real-IP and falls back to the socket address, so every client known only by X-Real-IP shares the socket counter.',
    violates: ['E-CLIENT-ID-XREALIP'],
    collateral: ['E-PER-CLIENT', 'E-CLIENT-ID-SOCKET'],
  },
  {
    name: 'x-real-ip-first',
    description: 'Prefers X-Real-IP over X-Forwarded-For when both are present.',
    violates: ['E-CLIENT-ID-XFF-FIRST'],
    collateral: ['E-PER-CLIENT'],
  },
  {
    name: 'no-header-not-limited',
    description: 'Skips the limiter when neither X-Forwarded-For nor X-Real-IP is present instead of using the socket address.',
    violates: ['E-CLIENT-ID-SOCKET'],
  },
  {
    name: 'split-instances',
    description:
      'Runs two limiters without a shared store and sends each client\'s consecutive requests to them in turn, as a round-robin balancer in front of two workers would, while the profile declares one instance: a client gets 2 x maxRequests per window.',
    violates: ['E-PER-INSTANCE'],
    collateral: [...except(countingChecks, 'E-PER-INSTANCE'), ...limitedAnswerChecks],
  },
  {
    name: 'retry-after-full-window',
    description: 'Sends the full window length as Retry-After and retryAfter instead of the time until the oldest stamp leaves the window; shows when the oldest stamp is already part-way through a window of 2 s or more (reference.yaml: 3000 ms).',
    violates: ['E-429-RETRY-AFTER-HEADER', 'E-429-RETRYAFTER-BODY'],
  },
  {
    name: 'retry-after-ms',
    description: 'Sends Retry-After in milliseconds instead of seconds.',
    violates: ['E-429-RETRY-AFTER-HEADER'],
  },
  {
    name: 'retry-after-fraction',
    description: 'Sends Retry-After as a fractional number of seconds (`String(ms / 1000)`) instead of whole seconds.',
    violates: ['E-429-RETRY-AFTER-HEADER'],
    collateral: ['E-GEN-HEADERS'],
  },
  {
    name: 'retry-after-body-ms',
    description: 'Puts milliseconds into the body field retryAfter (the header stays in seconds).',
    violates: ['E-429-RETRYAFTER-BODY'],
  },
  {
    name: 'retry-after-body-missing',
    description: 'Leaves retryAfter out of the 429 body.',
    violates: ['E-429-RETRYAFTER-BODY', 'E-GEN-SCHEMA'],
  },
  {
    name: 'remaining-header-missing',
    description: 'Leaves the X-RateLimit-Remaining header off the 429.',
    violates: ['E-429-REMAINING-ZERO', 'E-GEN-HEADERS'],
  },
  {
    name: 'error-text-differs',
    description: 'Sends error "rate_limit_exceeded" instead of "Too Many Requests".',
    violates: ['E-429-BODY-ERROR'],
    collateral: ['E-GEN-SCHEMA'],
  },
  {
    name: 'empty-message',
    description: 'Sends an empty message in the 429 body.',
    violates: ['E-429-BODY-MESSAGE'],
    collateral: ['E-GEN-SCHEMA'],
  },
  {
    name: 'limited-text-plain',
    description: 'Writes the 429 body as JSON text but labels it text/plain, as a hand-written error page does.',
    violates: ['E-GEN-CONTENT-TYPE'],
  },
  {
    name: 'status-503',
    description: 'Answers a limited request with 503 Service Unavailable (same body and headers) instead of 429.',
    violates: ['E-LIMIT-429', 'E-GEN-REFUSAL-STATUS'],
    collateral: ['E-GEN-NO-5XX', ...except(countingChecks, 'E-LIMIT-429'), ...limitedAnswerChecks],
  },
  {
    name: 'window-doubled',
    description: 'Uses 2 x windowMs as the window (a unit or config slip), so a limited client waits twice as long before it is allowed again.',
    violates: ['E-WINDOW-SLIDING'],
    collateral: ['E-429-RETRY-AFTER-HEADER', 'E-429-RETRYAFTER-BODY', 'E-PRUNE-BEFORE-COUNT', 'E-LIMITED-NOT-RECORDED'],
  },
  {
    name: 'no-prune',
    description:
      'Counts every stamp of the record without first dropping those outside the window; only the 60-second cleanup removes them, so a client stays limited long after its stamps have expired (shows with a window much shorter than the cleanup interval, as in reference.yaml).',
    violates: ['E-PRUNE-BEFORE-COUNT', 'E-WINDOW-SLIDING'],
    collateral: ['E-429-RETRY-AFTER-HEADER', 'E-LIMITED-NOT-RECORDED', 'E-LIMIT-ALLOWED', 'E-PER-INSTANCE'],
  },
  {
    name: 'invalid-json-500',
    description: 'Parses the body without catching the error, so a body that is not JSON crashes the handler with 500.',
    violates: ['E-BODY-NOT-JSON', 'E-GEN-NO-5XX'],
  },
  {
    name: 'missing-messages-500',
    description: 'Reads body.messages without checking it, so a JSON body without a messages array crashes the handler with 500.',
    violates: ['E-BODY-MESSAGES-REQUIRED', 'E-GEN-NO-5XX'],
  },
];
