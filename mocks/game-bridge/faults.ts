// Seeded faults of the game-bridge reference: each is a plausible bridge bug. `violates` lists what a good suite must
// see fail against reference.yaml (maxList 50, onlinePlayers 60, every endpoint on) unless `profile` names another.

import type { Fault } from '../types.js';

export type { Fault };

// Checks that expect a 200 from POST /v2/log trip when the log answer itself is wrong.
const logSuccessChecks = ['C-LOG-200', 'C-LOG-400-ONLY-ABSENT', 'C-LOG-LEVEL-OPTIONAL', 'C-LOG-LEVEL-ANY', 'C-LOG-CONTENT-TYPE-OPTIONAL'];
// Checks that read an error body trip when every error body is malformed.
const errorBodyChecks = ['C-AUTH-401-BODY', 'C-LOG-400-MISSING', 'C-LOG-NOT-JSON', 'C-DISABLED-403', 'C-METHOD-405', 'C-ERROR-BODY'];
const except = (list: readonly string[], ...ids: string[]) => list.filter((id) => !ids.includes(id));

export const faults = [
  // Authentication
  {
    name: 'auth-missing-key-accepted',
    description: 'Only checks the key when the header is present, so a request without X-Auth-Key is served.',
    violates: ['C-AUTH-401', 'C-GEN-AUTH'],
    collateral: ['C-AUTH-401-BODY', 'C-ERROR-BODY'],
  },
  {
    name: 'auth-any-key-accepted',
    description: 'Checks that X-Auth-Key is present and not empty, but never compares it with auth.key: any key is served.',
    violates: ['C-AUTH-401', 'C-GEN-AUTH'],
    collateral: ['C-AUTH-KEY-EXACT'],
  },
  {
    name: 'auth-wrong-key-403',
    description: 'Answers a present but wrong key with 403 forbidden instead of 401 (a missing key still gets 401).',
    violates: ['C-AUTH-401'],
    collateral: ['C-AUTH-401-BODY', 'C-AUTH-KEY-EXACT', 'C-GEN-AUTH', 'C-GEN-SCHEMA', 'C-GEN-REFUSAL-STATUS'],
  },
  {
    name: 'auth-message-text',
    description: 'The 401 body says "Unauthorized" instead of "Invalid X-Auth-Key".',
    violates: ['C-AUTH-401-BODY', 'C-GEN-SCHEMA'],
  },
  {
    name: 'auth-key-case-insensitive',
    description: 'Compares the key ignoring letter case, so the key in other capitals is accepted.',
    violates: ['C-AUTH-KEY-EXACT'],
    collateral: ['C-GEN-AUTH'],
  },
  {
    name: 'auth-key-prefix',
    description: 'Compares only as many characters as the client sent, so any non-empty prefix of the key is accepted.',
    violates: ['C-AUTH-KEY-EXACT'],
    collateral: ['C-GEN-AUTH'],
  },
  {
    name: 'auth-header-name-case-sensitive',
    description:
      'Looks the key up among the raw header names spelled exactly "X-Auth-Key", so x-auth-key is refused with 401. ' +
      'A client that always lowercases header names sees every request refused.',
    violates: ['C-AUTH-HEADER-CASE'],
  },

  // POST /v2/log
  {
    name: 'log-202-accepted',
    description: 'Answers a written log line with 202 Accepted instead of 200.',
    // The generic valid request gets a success the spec does not document.
    violates: ['C-LOG-200', 'C-GEN-VALID-ACCEPTED', 'C-GEN-STATUS'],
    collateral: [...except(logSuccessChecks, 'C-LOG-200'), 'C-GEN-SCHEMA'],
  },
  {
    name: 'log-missing-message-accepted',
    description: 'Defaults a missing message to the empty string and answers 200 instead of 400.',
    violates: ['C-LOG-400-MISSING'],
    collateral: ['C-LOG-NOT-JSON', 'C-GEN-REFUSAL-STATUS'],
  },
  {
    name: 'log-empty-message-refused',
    description: 'Treats an empty message like a missing one and answers 400.',
    violates: ['C-LOG-400-ONLY-ABSENT'],
  },
  {
    name: 'log-not-json-500',
    description: 'Parses the body without catching the error, so a body that is not JSON gets 500.',
    // A 5xx is C-GEN-NO-5XX's failure wherever it shows, never a verdict on the rule the request was testing: the
    // refusal of a body that is not JSON is left undecided (a body that is JSON but no object still gets its 400).
    violates: ['C-GEN-NO-5XX'],
    // Nor a verdict on the schema and media type of the answers of the test that met them.
    undecided: ['C-LOG-NOT-JSON', 'C-GEN-SCHEMA', 'C-GEN-CONTENT-TYPE'],
  },
  {
    name: 'log-null-level-500',
    description: 'Uppercases the level without looking, so a log body whose level is null (present, not a string) crashes with 500.',
    // As with any 5xx: C-GEN-NO-5XX's failure, never a verdict on the log rule the request was testing.
    violates: ['C-GEN-NO-5XX'],
    undecided: ['C-LOG-400-ONLY-ABSENT', 'C-GEN-SCHEMA', 'C-GEN-CONTENT-TYPE'],
  },
  {
    name: 'log-not-json-422',
    description: 'A framework default: a body that is not JSON is refused 422 Unprocessable Entity instead of the documented 400.',
    violates: ['C-LOG-NOT-JSON', 'C-GEN-REFUSAL-STATUS'],
  },
  {
    name: 'log-requires-content-type',
    description: 'Refuses a POST /v2/log without Content-Type application/json with 415.',
    violates: ['C-LOG-CONTENT-TYPE-OPTIONAL'],
    collateral: ['C-LOG-NOT-JSON', 'C-LOG-400-MISSING', 'C-GEN-REFUSAL-STATUS'],
  },
  {
    name: 'log-level-required',
    description: 'Refuses a body without level with 400 "Missing field: level" instead of defaulting to info.',
    violates: ['C-LOG-LEVEL-OPTIONAL'],
    collateral: [...except(logSuccessChecks, 'C-LOG-LEVEL-OPTIONAL'), 'C-GEN-SCHEMA'],
  },
  {
    name: 'log-unknown-level-refused',
    description: 'Refuses a level other than info, warn, error and debug with 400 instead of forwarding it.',
    violates: ['C-LOG-LEVEL-ANY'],
    // A level that is no string ("3" as its text) is refused too: a 400 for a body whose message is there. Whether a
    // run meets one depends on the cases it draws.
    collateral: ['C-GEN-SCHEMA', 'C-LOG-400-ONLY-ABSENT'],
  },
  {
    name: 'log-405-use-get',
    description: 'A copy of the GET handlers: a wrong method on /v2/log gets message "Use GET" instead of "Use POST".',
    violates: ['C-METHOD-405', 'C-GEN-WRONG-METHOD'],
  },

  {
    name: 'log-ok-string',
    description: 'The log success body carries ok as the string "true" instead of the boolean true.',
    violates: ['C-LOG-200', 'C-GEN-SCHEMA'],
    collateral: except(logSuccessChecks, 'C-LOG-200'),
  },

  // Switches and methods
  {
    name: 'method-case-insensitive',
    description: 'A front upper-cases the request method, so "get /v2/status" is served as GET although HTTP methods are case-sensitive.',
    violates: ['C-METHOD-CASE'],
  },
  {
    name: 'players-disabled-ignored',
    description: 'GET /v2/players reads a misspelt config key, so v2-endpoints.players false is ignored and it answers 200.',
    violates: ['C-DISABLED-403'],
    profile: 'reference-players-disabled.yaml',
  },
  {
    name: 'disabled-404',
    description: 'A switched-off endpoint is not registered at all, so it answers 404 instead of 403.',
    violates: ['C-DISABLED-403'],
    collateral: ['C-GEN-REFUSAL-STATUS', 'C-GEN-SCHEMA'],
    profile: 'reference-players-disabled.yaml',
  },
  {
    name: 'disabled-404-html',
    description:
      'A switched-off endpoint is left out of the router, so the framework\'s own 404 page (text/html) answers it instead of 403 forbidden, as a real bridge was seen to do.',
    // Judged by its disabled rule alone: the page is no evidence about the key, the method or the schema (issue 43).
    violates: ['C-DISABLED-403'],
    profile: 'reference-players-disabled.yaml',
  },
  {
    name: 'players-key-refused',
    description:
      'The GET /v2/players handler checks X-Auth-Key again, against a copy of auth.key it never loaded, so it refuses every request that reaches it with 401, the right key too (the bridge\'s own key check, the method check and the switch come first and are right).',
    // The valid read is refused.
    violates: ['C-PLAYERS-200'],
    // The key rules' refusals on GET /v2/players stand beside a control (the same request with the right key) that is
    // refused too, as is the right key under another spelling of the header name: they prove nothing there. The count
    // and the list are never seen.
    undecided: ['C-AUTH-401', 'C-AUTH-KEY-EXACT', 'C-AUTH-HEADER-CASE', 'C-PLAYERS-COUNT-TOTAL', 'C-PLAYERS-TRUNCATE'],
  },
  {
    name: 'wrong-method-404',
    description: 'Routes by method and path, so a wrong method falls through to the 404 route instead of 405.',
    violates: ['C-METHOD-405', 'C-GEN-WRONG-METHOD'],
  },
  {
    name: 'error-body-without-ok',
    description: 'Error bodies carry error and message but no ok false.',
    violates: ['C-ERROR-BODY', 'C-GEN-SCHEMA'],
    collateral: except(errorBodyChecks, 'C-ERROR-BODY'),
  },
  {
    name: 'error-text-plain',
    description: 'Error bodies are the right JSON but sent with Content-Type text/plain.',
    violates: ['C-GEN-CONTENT-TYPE'],
    collateral: errorBodyChecks,
  },

  // Every operation
  {
    name: 'odd-query-500',
    description: 'Decodes the query string by hand without catching the error, so a malformed escape ("%zz") crashes any endpoint with 500.',
    violates: ['C-GEN-NO-5XX'],
  },
  {
    name: 'odd-query-redirect',
    description: 'Answers a query string with a malformed escape with 301 to the URL without it, as some frameworks do, instead of serving or refusing it. A redirect is not the API answering: no verdict may rest on it, so the bad input it answers is left undecided.',
    violates: [],
    undecided: ['C-GEN-NO-5XX'],
  },
  {
    name: 'success-text-plain',
    description: 'Success bodies are the right JSON but labelled text/plain.',
    violates: ['C-GEN-CONTENT-TYPE'],
  },

  // GET /v2/status, /v2/players, /v2/info, /v2/tps
  {
    name: 'status-204-no-content',
    description: 'The liveness check answers 204 No Content instead of 200 with ok true.',
    violates: ['C-STATUS-200'],
    collateral: ['C-STATUS-NO-DATA', 'C-GEN-SCHEMA'],
  },
  {
    name: 'status-extra-data',
    description: 'The liveness answer also carries the number of online players and the uptime.',
    violates: ['C-STATUS-NO-DATA', 'C-GEN-SCHEMA'],
  },
  {
    name: 'players-count-string',
    description: 'count is sent as a string ("60") instead of an integer.',
    violates: ['C-PLAYERS-200', 'C-GEN-SCHEMA'],
    collateral: ['C-PLAYERS-COUNT-TOTAL'],
  },
  {
    name: 'reads-without-ok',
    description: 'Only GET /v2/status carries ok: the players and info answers are their data alone, without ok true.',
    violates: ['C-PLAYERS-200', 'C-INFO-BRIDGE'],
    collateral: ['C-GEN-SCHEMA'],
  },
  {
    name: 'players-count-truncated',
    description: 'count is the length of the truncated list instead of the true total (50 instead of 60).',
    violates: ['C-PLAYERS-COUNT-TOTAL'],
  },
  {
    name: 'players-not-truncated',
    description: 'Ignores players.max-list and returns every online player (60 names for max-list 50).',
    violates: ['C-PLAYERS-TRUNCATE'],
  },
  {
    name: 'info-without-game',
    description: 'bridge lacks the game-server version string.',
    violates: ['C-INFO-BRIDGE', 'C-GEN-SCHEMA'],
  },
  {
    name: 'info-platform-uppercase',
    description: 'bridge.platform is the platform name in capitals (e.g. "PAPER").',
    violates: ['C-INFO-PLATFORM-LOWERCASE', 'C-GEN-SCHEMA'],
    collateral: ['C-INFO-PLATFORM-PROFILE'],
  },
  {
    name: 'info-platform-with-version',
    description: 'bridge.platform is the server brand with its version appended (e.g. "paper-1.21.4"), still lowercase.',
    violates: ['C-INFO-PLATFORM-PROFILE'],
  },
  {
    name: 'tps-not-registered',
    description: 'GET /v2/tps was left out of the router and answers 404.',
    violates: ['C-TPS-EXISTS'],
  },
  {
    name: 'tps-500',
    description: 'GET /v2/tps is routed but its handler throws: 500 Internal Server Error (a served path, yet not an answering endpoint).',
    // A 5xx is C-GEN-NO-5XX's failure, and no answer of the bridge: whether /v2/tps exists is left undecided.
    violates: ['C-GEN-NO-5XX'],
    undecided: ['C-TPS-EXISTS'],
  },
] as const satisfies readonly Fault[];

export type BridgeFault = (typeof faults)[number]['name'];
