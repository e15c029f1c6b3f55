// Seeded faults of the stream-proxy reference: each is a plausible bug of a stream proxy's management API.
// `violates` lists what a good suite must see fail against reference.yaml unless `profile` names another profile;
// `collateral` lists what may fail too, each for the reason given beside it.

import type { Fault } from '../types.js';

export type { Fault };

export const faults = [
  // Configuration documents and their revisions
  {
    name: 'user-token-refused',
    description: 'Refuses every request to the self-service endpoints, the right user token too (as if its user store were unreachable): a request without a token is refused, but so is its control, so B-USER-AUTH must not pass.',
    violates: [],
    undecided: ['B-USER-AUTH'],
  },
  {
    name: 'save-not-atomic',
    description:
      'Checks If-Match, then awaits a backup copy of the old file before writing the new one, so concurrent saves carrying the same revision all pass the check and all answer 200.',
    violates: ['B-CONFIG-CONCURRENT'],
  },
  {
    name: 'stale-if-match-accepted',
    description: 'Accepts any revision the document has had since start (an ETag history kept for conditional reads), not only the current one, so a stale If-Match saves.',
    violates: ['B-CONFIG-409'],
    // Concurrent saves with one revision: after the first wins, the others carry a stale revision, which passes.
    collateral: ['B-CONFIG-CONCURRENT'],
  },
  {
    name: 'missing-if-match-saved',
    description: 'Treats a save without If-Match as unconditional and writes it (200) instead of answering 428.',
    violates: ['B-CONFIG-428'],
  },
  {
    name: 'revision-unchanged-after-save',
    description:
      'Hashes each file once and caches the revision, and the save handler never drops the cache: a save writes the file but answers, and later reads report, the old revision.',
    violates: ['B-CONFIG-REVISION-CHANGE'],
    // The read-back after a save shows new content under the revision the model had before it; and since the cached
    // revision never moves, every save sent with it is current, so concurrent saves all win.
    collateral: ['B-CONFIG-SAVE', 'B-CONFIG-CONCURRENT'],
  },
  {
    name: 'revision-over-request-body',
    description: 'Answers a save with the hash of the request body\'s text instead of the hash of the file written (the file is pretty-printed, so they differ).',
    violates: ['B-CONFIG-SAVE'],
  },
  {
    name: 'save-lost',
    description: 'Writes the new document to a temporary file and forgets to rename it over the real one: 200 with the temporary file\'s revision, but the document is unchanged.',
    violates: ['B-CONFIG-SAVE'],
  },
  {
    name: 'save-touches-sources',
    description: 'Saving main also re-serialises the sources file with the main writer\'s four-space indentation, so the sources revision changes though its content did not.',
    violates: ['B-CONFIG-DOCS-INDEPENDENT'],
  },
  {
    name: 'config-without-revision-headers',
    description: 'GET /api/v1/config sends the merged documents without x-config-main-revision and x-config-sources-revision.',
    // The spec documents the headers of that response.
    violates: ['B-CONFIG-READ', 'B-GEN-HEADERS'],
  },
  {
    name: 'apiproxy-revision-header-missing',
    description: 'GET /api/v1/config/apiproxy sends the document without x-config-api-proxy-revision.',
    violates: ['B-APIPROXY-READ'],
    // The spec documents the header of that response.
    collateral: ['B-GEN-HEADERS'],
  },
  {
    name: 'invalid-body-saved',
    description: 'Parses a save\'s body leniently: a body that is not JSON is saved as an empty document, and JSON that is not an object is saved as it is (200, not 400).',
    violates: ['B-CONFIG-400'],
  },

  // Proxy users
  {
    name: 'duplicate-username-accepted',
    description: 'Checks a new username only against the users of the target in the path, so the same username can be created in another target.',
    violates: ['B-USER-DUP-USERNAME'],
  },
  {
    name: 'duplicate-token-accepted',
    description: 'Never checks that a user\'s token is unique, on create or on update.',
    violates: ['B-USER-DUP-TOKEN'],
  },
  {
    name: 'move-leaves-copy',
    description: 'An update naming another target adds the user there but does not remove it from the target it was in.',
    violates: ['B-USER-MOVE'],
    needsDefaultDepth: true,
    // The copy keeps the user's old name and token, and later updates may select it instead of the moved user: later
    // creates, updates and token checks meet it in ways the model's account of moved users cannot always attribute.
    collateral: ['B-USER-CREATE', 'B-USER-UPDATE', 'B-USER-DUP-TOKEN', 'B-USER-DUP-USERNAME', 'B-USER-DELETE'],
  },
  {
    name: 'delete-unknown-ok',
    description: 'Deleting a user that is not in the target answers 200 (the removal filters a list and never checks that it found anyone).',
    violates: ['B-USER-DELETE'],
  },
  {
    name: 'update-unknown-creates',
    description: 'An update of an unknown username creates the user (an upsert) instead of answering 400.',
    violates: ['B-USER-UPDATE'],
  },

  // Library, playlist update
  {
    name: 'scan-while-running-accepted',
    description: 'Starts the library scan again (202) while one runs, instead of answering 400.',
    violates: ['B-LIBRARY-SCAN'],
    // A second scan that starts proves something only beside how long a scan runs at least, which a tester states.
    profile: 'reference-stream-stated.yaml',
  },
  {
    name: 'update-queues-duplicate',
    description: 'A playlist update asked for while one is pending is answered 202 but queues a second run after the pending one.',
    violates: ['B-UPDATE-COLLAPSED'],
    keepsDefault: {
      'B-NS-DUPLICATE-UPDATE': 'a queued duplicate run can be seen only where the target shows its runs (the reference\'s own observation); where it does not, B-UPDATE-COLLAPSED is not tested',
    },
  },
  {
    name: 'update-repeat-refused',
    description: 'A playlist update asked for while one is pending is answered 409 Conflict instead of 202.',
    violates: ['B-UPDATE-ACCEPTED'],
    // 409 is no documented answer of the update: a valid update the generic checks send while one is pending gets it.
    collateral: ['B-GEN-VALID-ACCEPTED'],
  },
  {
    name: 'invalid-target-accepted',
    description: 'Never checks the target names of a playlist update: unknown names are queued (202) instead of refused with 400.',
    violates: ['B-UPDATE-INVALID'],
  },

  // Authentication
  {
    name: 'resource-needs-token',
    description: 'GET /api/v1/playlist/resource/{resource} sits behind the admin authentication like every other route.',
    violates: ['B-RESOURCE-PUBLIC'],
  },
  {
    name: 'streams-open',
    description: 'GET /api/v1/streams was left out of the admin authentication: it answers without a token.',
    // The spec marks the operation as secured.
    violates: ['B-AUTH-ADMIN', 'B-GEN-AUTH'],
  },
  {
    name: 'broken-json-500',
    description: 'The JSON endpoints parse their body without catching the parser\'s error: a body that is not JSON gets 500.',
    violates: ['B-GEN-NO-5XX'],
    // The configuration saves meet it too.
    collateral: ['B-CONFIG-400'],
  },
  {
    name: 'odd-query-redirect',
    description: 'A malformed escape in the query string ("%zz") is "cleaned" by a redirect (301) to the bare path. A redirect is not the API answering: no verdict may rest on it, so the bad input it answers is left undecided.',
    violates: [],
    undecided: ['B-GEN-NO-5XX'],
  },
  {
    name: 'ipinfo-moved',
    description: 'GET /api/v1/ipinfo moved under a trailing slash; its documented path answers 308 to the new one.',
    violates: ['B-GEN-VALID-ACCEPTED', 'B-GEN-STATUS'],
  },
  {
    name: 'user-token-reaches-admin',
    description: 'Checks tokens against one list that holds the user token too: a user token opens every admin endpoint.',
    violates: ['B-GEN-ROLE'],
  },
  {
    name: 'user-token-any',
    description: 'The self-service endpoints check that a bearer token is present but not which one, so any token is accepted.',
    violates: ['B-USER-AUTH'],
    // The spec marks the operations as secured.
    collateral: ['B-GEN-AUTH'],
  },
  {
    name: 'web-auth-always',
    description: 'Ignores web_auth_enabled: admin endpoints require the token although web authentication is switched off.',
    violates: ['B-AUTH-BYPASS'],
    profile: 'reference-stream-no-web-auth.yaml',
  },
  {
    name: 'web-auth-off-login-redirect',
    description: 'With web authentication off, an admin request without a token is redirected to a login page (302 to /login) instead of answered.',
    violates: ['B-AUTH-BYPASS'],
    profile: 'reference-stream-no-web-auth.yaml',
  },
  {
    name: 'user-ui-ignored',
    description: 'Registers the self-service endpoints although user_ui_enabled is false; their user-token guard is set up with the user UI only, so they answer without any token.',
    violates: ['B-USER-UI-OFF'],
    profile: 'reference-stream-user-ui-off.yaml',
  },
  {
    name: 'library-disabled-scans',
    description: 'Starts a library scan (202) although library.enabled is false: the scan route is registered unconditionally.',
    violates: ['B-LIBRARY-DISABLED'],
    profile: 'reference-stream-library-off.yaml',
  },

  // Web player
  {
    name: 'webplayer-token-outlives',
    description: 'Web-player tokens live ten times as long as configured (an extra zero in the lifetime: 300 s instead of 30 s).',
    violates: ['B-WEBPLAYER-EXPIRY'],
  },
  {
    name: 'webplayer-url-dead',
    description: 'Stores the token\'s expiry in seconds but compares it with the clock in milliseconds, so the stream URL is refused from the start.',
    violates: ['B-WEBPLAYER'],
  },

  // Playlists, self-service, batch CSV
  {
    name: 'two-variants-accepted',
    description: 'Takes the first variant key of a PlaylistRequest and ignores the rest, so a body with two variants is answered 200.',
    violates: ['B-PLAYLIST-ONE-VARIANT'],
    // A body with two variants is one the spec's schema refuses (oneOf): the generic refusal check sends such bodies.
    collateral: ['B-GEN-REFUSAL-STATUS'],
  },
  {
    name: 'input-variant-refused',
    description: 'Refuses the Input variant of a PlaylistRequest with 400 ("unsupported request"), as an older handler that knew only Target did.',
    violates: ['B-PLAYLIST-VARIANTS'],
    // A valid request the generic checks send with the Input variant is refused the same way.
    collateral: ['B-GEN-VALID-ACCEPTED'],
  },
  {
    name: 'bouquet-not-saved',
    description: 'POST /api/v1/user/playlist/bouquet answers 200 but drops the bouquet: GET keeps answering the empty one.',
    violates: ['B-USER-BOUQUET'],
    // A bouquet that does not read back proves something only where the member set is one the tester states it keeps.
    profile: 'reference-stream-stated.yaml',
  },
  {
    name: 'batch-as-json',
    description: 'Sends the batch CSV of an input labelled application/json.',
    // The spec documents text/csv for that response.
    violates: ['B-BATCH-CSV', 'B-GEN-CONTENT-TYPE'],
  },
  {
    name: 'malformed-if-match-ignored',
    description: 'Saves when If-Match is not a revision at all (a value that fails to parse is treated as "no condition").',
    violates: ['B-CONFIG-IF-MATCH-MALFORMED'],
  },
  {
    name: 'epg-target-refused',
    description: 'Refuses the Target variant of the EPG request (only Custom EPG documents are served).',
    violates: ['B-EPG'],
  },
  {
    name: 'status-array',
    description: 'Answers GET /api/v1/status with the state wrapped in a list.',
    // The spec documents the body's type: the same evidence breaks the schema check.
    violates: ['B-STATUS', 'B-GEN-SCHEMA'],
  },
  {
    name: 'streams-object',
    description: 'Answers GET /api/v1/streams with an object wrapping the list.',
    violates: ['B-STREAMS'],
    // The spec documents the body's type: the same evidence breaks the schema check.
    collateral: ['B-GEN-SCHEMA'],
  },
  {
    name: 'geoip-500',
    description: 'Answers the GeoIP update with a server error instead of 200 or 400.',
    violates: ['B-GEOIP'],
  },
  {
    name: 'library-status-500',
    description: 'Answers the library status with a server error.',
    violates: ['B-LIBRARY-STATUS'],
  },
  {
    name: 'create-needs-token',
    description: 'Refuses to create a user without a token, although the token is optional.',
    violates: ['B-USER-CREATE'],
  },
] as const satisfies readonly Fault[];

export type StreamProxyFault = (typeof faults)[number]['name'];
