// The readings of the open points of specs/stream-proxy.yaml that this reference implements (see mocks/readings.ts): the
// first of each is the reference's default. Most are read by the server (readingSwitch, see choices.ts); a few are
// the reference's own options (timings, the web player's leeway).
import type { OpenPointReadings } from '../readings.ts';

/** Members every typed reading of the documents knows: a tester of such a deployment names one of them as scratch. */
const KNOWN_SCRATCH = {
  documents: {
    main: { scratch: '/backup_dir' },
    sources: { scratch: '/sources/0/inputs/0/name' },
    apiProxy: { scratch: '/server/0/message' },
    // The bouquet's groups of live channels for the panel (xtream) output: a list of group names.
    bouquet: { scratch: '/xtream/live' },
  },
} as const;

/** Every operation with a request method a CSRF guard looks at (POST, PUT, DELETE), as the spec writes it. */
const CSRF_HEADER = { headers: { 'X-Requested-With': 'XMLHttpRequest' } } as const;
const CSRF_EXTRAS = {
  extras: {
    'POST /api/v1/config/main': CSRF_HEADER,
    'POST /api/v1/config/sources': CSRF_HEADER,
    'PUT /api/v1/config/apiproxy': CSRF_HEADER,
    'POST /api/v1/config/panel/login-info': CSRF_HEADER,
    'POST /api/v1/file/download': CSRF_HEADER,
    'POST /api/v1/playlist/update': CSRF_HEADER,
    'POST /api/v1/playlist/live': CSRF_HEADER,
    'POST /api/v1/playlist/vod': CSRF_HEADER,
    'POST /api/v1/playlist/series': CSRF_HEADER,
    'POST /api/v1/playlist/series_info/{virtual_id}/{provider_id}': CSRF_HEADER,
    'POST /api/v1/playlist/series/episode/{virtual_id}': CSRF_HEADER,
    'POST /api/v1/playlist/epg': CSRF_HEADER,
    'POST /api/v1/playlist/webplayer': CSRF_HEADER,
    'POST /api/v1/library/scan': CSRF_HEADER,
    'POST /api/v1/user/{target}': CSRF_HEADER,
    'PUT /api/v1/user/{target}': CSRF_HEADER,
    'DELETE /api/v1/user/{target}/{username}': CSRF_HEADER,
    'POST /api/v1/user/playlist/bouquet': CSRF_HEADER,
  },
} as const;

export const readings = [
  // ---- configuration documents ---------------------------------------------------------------------------------
  {
    point: 'B-NS-DTO-FIELDS',
    readings: [{ name: 'kept-as-sent' }, { name: 'unknown-members-dropped', settings: KNOWN_SCRATCH }, { name: 'unknown-members-refused', settings: KNOWN_SCRATCH }],
  },
  {
    point: 'B-NS-CONFIG-SPLIT',
    readings: [
      { name: 'config-sources-api-proxy' },
      { name: 'main-sources-apiproxy', settings: { documents: { main: { inConfig: '/main' }, sources: { inConfig: '/sources' }, apiProxy: { inConfig: '/apiProxy' } } } },
    ],
  },
  { point: 'B-NS-CONFIG-API-PROXY-REVISION', readings: [{ name: 'all-three' }, { name: 'main-and-sources' }] },
  { point: 'B-NS-REVISION-ENCODING', readings: [{ name: 'bare-hex' }, { name: 'quoted-etag' }, { name: 'base64url' }] },
  { point: 'B-NS-CHECK-ORDER', readings: [{ name: 'revision-first' }, { name: 'body-first' }] },
  { point: 'B-NS-IF-MATCH-FORMS', readings: [{ name: 'malformed-400' }, { name: 'mismatch-409' }] },

  // ---- authentication and routing ------------------------------------------------------------------------------
  // A tester would state the login in settings.adminLogin, but a settings patch applies to every profile, and one that
  // gives the admin token itself (reference.yaml) has no adminUser credential for a login: see the report.
  { point: 'B-NS-TOKEN-ISSUING', readings: [{ name: 'auth-token-path' }, { name: 'api-login-path' }] },
  { point: 'B-NS-AUTH-STATUS', readings: [{ name: 'always-401' }, { name: '401-missing-403-wrong' }, { name: 'always-403' }] },
  { point: 'B-NS-AUTH-ORDER', readings: [{ name: 'route-first' }, { name: 'auth-first' }] },
  { point: 'B-NS-WRONG-METHOD', readings: [{ name: 'not-found-404' }, { name: 'method-not-allowed-405' }] },
  { point: 'B-NS-BYPASS-WRONG-TOKEN', readings: [{ name: 'ignored' }, { name: 'validated-if-present' }] },
  { point: 'B-NS-EXTRA-REQUEST-PARTS', readings: [{ name: 'none' }, { name: 'csrf-header', settings: CSRF_EXTRAS }] },
  { point: 'B-NS-CONTENT-TYPE', readings: [{ name: 'ignored' }, { name: 'json-required-415' }] },
  { point: 'B-NS-RATE-LIMITS', readings: [{ name: 'unlimited' }, { name: 'per-client-limit' }] },
  { point: 'B-NS-USER-PATHS', readings: [{ name: 'method-routed' }, { name: 'playlist-reserved' }] },
  { point: 'B-NS-DISABLED-ANSWER', readings: [{ name: 'not-routed-404' }, { name: 'registered-refusing' }] },

  // ---- refusals and bodies -------------------------------------------------------------------------------------
  { point: 'B-NS-ERROR-BODY', readings: [{ name: 'error-and-message' }, { name: 'problem-json' }, { name: 'plain-text' }, { name: 'empty' }] },
  { point: 'B-NS-REFUSAL-STATUS', readings: [{ name: 'bad-request-400' }, { name: 'unprocessable-422' }] },
  { point: 'B-NS-UNKNOWN-SOURCE', readings: [{ name: 'refused-400' }, { name: 'not-found-404' }] },
  { point: 'B-NS-PROVIDER', readings: [{ name: 'refused-400' }, { name: 'bad-gateway-502' }] },
  { point: 'B-NS-RESPONSE-BODIES', readings: [{ name: 'reference-shapes' }, { name: 'other-shapes' }] },
  { point: 'B-NS-WRITE-BODIES', readings: [{ name: 'json-acknowledgement' }, { name: 'empty-body' }] },
  { point: 'B-NS-LISTING-PAGING', readings: [{ name: 'unpaged' }, { name: 'paged-envelope' }] },
  { point: 'B-NS-BOUQUET-UNSAVED', readings: [{ name: 'empty-object' }, { name: 'null-until-saved' }] },
  { point: 'B-NS-ID-TYPES', readings: [{ name: 'digits-input-any-virtual' }, { name: 'integers-throughout' }] },
  { point: 'B-NS-VARIANT-EXTRA-MEMBERS', readings: [{ name: 'ignored' }, { name: 'refused' }] },

  // ---- proxy users ---------------------------------------------------------------------------------------------
  { point: 'B-NS-PROXY-STATUS-VALUES', readings: [{ name: 'any-string' }, { name: 'enumerated' }] },
  { point: 'B-NS-EXP-DATE', readings: [{ name: 'null-number-or-string' }, { name: 'epoch-seconds' }, { name: 'date-string' }] },
  { point: 'B-NS-USER-FIELDS-REQUIRED', readings: [{ name: 'username-password' }, { name: 'all-members' }] },
  { point: 'B-NS-USER-VALIDATION', readings: [{ name: 'lenient' }, { name: 'strict' }] },
  { point: 'B-NS-USER-UPDATE-MERGE', readings: [{ name: 'replace' }, { name: 'merge' }] },
  { point: 'B-NS-USERNAME-CASE', readings: [{ name: 'case-sensitive' }, { name: 'case-insensitive' }] },

  // ---- background jobs and timings -----------------------------------------------------------------------------
  // slow-update before instant-scan: under instant-scan no request can meet a running scan (the scan-while-running fault
  // cannot show), so the "other readings" configuration takes slow-update. A tester knows roughly how long the jobs of
  // the deployment take (settings.jobs): a slow provider's updates, a small library's scans.
  {
    point: 'B-NS-TRANSITIONS',
    readings: [
      { name: 'short-jobs' },
      { name: 'slow-update', reference: { updateMs: 6000 }, settings: { jobs: { maxUpdatePendingMs: 7000 } } },
      { name: 'instant-scan', reference: { scanMs: 1 }, settings: { jobs: { minScanMs: 1 } } },
    ],
  },
  { point: 'B-NS-DUPLICATE-UPDATE', readings: [{ name: 'reference-observation' }, { name: 'not-observable' }] },
  { point: 'B-NS-UPDATE-ORDER', readings: [{ name: 'pending-first' }, { name: 'body-first' }] },
  { point: 'B-NS-SCAN-BODY', readings: [{ name: 'force-rescan-optional' }, { name: 'force-rescan-required' }, { name: 'body-optional' }] },
  { point: 'B-NS-GEOIP-UPDATE', readings: [{ name: 'disabled' }, { name: 'enabled-downloads' }] },

  // ---- the other endpoints -------------------------------------------------------------------------------------
  { point: 'B-NS-DOWNLOAD-PAYLOAD', readings: [{ name: 'anything-queued' }, { name: 'url-required' }] },
  { point: 'B-NS-DOWNLOAD-STATUS', readings: [{ name: 'accepted-202' }, { name: 'ok-200' }] },
  { point: 'B-NS-IPINFO-UNCONFIGURED', readings: [{ name: 'configured' }, { name: 'unconfigured-400' }, { name: 'unconfigured-null-addresses' }] },
  { point: 'B-NS-RESOURCE', readings: [{ name: 'relative-logo-unknown-404' }, { name: 'absolute-logo-unknown-400' }] },
  { point: 'B-NS-WEBPLAYER-URL', readings: [{ name: 'absolute-expired-401' }, { name: 'root-relative-expired-403' }] },
  { point: 'B-NS-WEBPLAYER-CLUSTER', readings: [{ name: 'any-string' }, { name: 'lowercase-enumerated' }, { name: 'capitalised-enumerated', settings: { webPlayer: { cluster: 'Live' } } }] },
  {
    point: 'B-NS-WEBPLAYER-LIFETIME',
    // The profiles of the reference give tokens 1500 ms; with a leeway of 1000 ms a URL works for 2500 ms.
    readings: [{ name: 'exact' }, { name: 'with-leeway', reference: { webPlayerLeewayMs: 1000 }, settings: { webPlayerTokenMs: 2500 } }],
  },
] as const satisfies readonly OpenPointReadings[];
