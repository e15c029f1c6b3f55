import { builtOnce } from '../kit/lazy.ts';
import type { Static } from '@sinclair/typebox';
import { profileEntry, schemaKit } from '../kit/profile-entry.ts';

/**
 * The stream-proxy entry of a target profile (interfaces.stream-proxy). Interface B leaves the inner fields of its
 * configuration documents, the endpoints that issue tokens and most response bodies "not shown": the profile says what
 * the harness needs to know about one deployment (which switches are on, which targets and input exist, which harmless
 * member of each document it may change, how it gets its tokens). The loader fills in every default.
 */

// Built the first time a profile is checked (see schemaKit): test workers never need TypeBox.
const schemas = builtOnce(() => {
  const { Type, EnvName } = schemaKit();
  const Pointer = Type.String({ pattern: '^(/.*)?$', description: 'a JSON pointer (RFC 6901)' });

  /**
   * How the harness obtains a token the document does not say how to get: by default the credential adminToken (or
   * userToken) is the token itself; a login request to run instead, whose body may name credentials ("{{secret:name}}").
   */
  const Login = (description: string, role: 'admin' | 'user') => Type.Object(
    {
      method: Type.Union([Type.Literal('POST'), Type.Literal('GET')], { default: 'POST' }),
      /** Relative to the base URL (path prefix included). */
      path: Type.String({ pattern: '^/' }),
      json: Type.Record(Type.String(), Type.String()),
      /** Where the token is in the answer. */
      tokenPointer: Pointer,
    },
    {
      additionalProperties: false,
      description,
      examples: [{ method: 'POST', path: '/auth/token', json: { username: `{{secret:${role}User}}`, password: `{{secret:${role}Password}}` }, tokenPointer: '/token' }],
    },
  );

  /**
   * One configuration document: where its part of GET /api/v1/config is, and a harmless member the harness may set.
   * Unstated, where the reference keeps it (B-NS-CONFIG-SPLIT): a document not there leaves the saves not tested.
   */
  const Document = (inConfig: string) => Type.Object(
    {
      /** Where the document lies in the merged object of GET /api/v1/config ("" = the whole object). */
      inConfig: Type.String({ pattern: Pointer.pattern, description: Pointer.description, default: inConfig }),
      /**
       * A member of the document the harness may set to values of its own (a string member, created if absent). Unstated,
       * one of the harness's own, which a deployment that drops or refuses members it does not know (B-NS-DTO-FIELDS)
       * will not keep: the saves are then not tested.
       */
      scratch: Type.String({ pattern: Pointer.pattern, description: Pointer.description, default: '/conformance_note' }),
    },
    { additionalProperties: false, default: {} },
  );

  /**
   * The self-service bouquet (PlaylistBouquetDto, members not shown): a member the harness may set to a list holding
   * one group name of its own (created if absent). A deployment that drops or refuses members it does not know
   * (B-NS-DTO-FIELDS) needs one it knows; unstated, a bouquet that does not read back proves nothing.
   */
  const Bouquet = Type.Object({ scratch: Pointer }, { additionalProperties: false });

  /**
   * How long the background jobs take on this target ("Other transitions ...: not shown", B-NS-TRANSITIONS): a scan
   * may end before a second request reaches it, and an update may stay pending for a while. Unstated, a second scan
   * that starts (202) or an update of invalid names met by a pending one (202) proves nothing.
   */
  const Jobs = Type.Object(
    {
      /** A library scan runs at least this long, in ms: a second scan sent sooner meets the first still running. */
      minScanMs: Type.Optional(Type.Integer({ minimum: 1 })),
      /** A playlist update stays pending at most this long, in ms: after that no update of the harness's is pending. */
      maxUpdatePendingMs: Type.Optional(Type.Integer({ minimum: 1 })),
    },
    { additionalProperties: false, default: {}, description: "How long background jobs take here, in ms: a library scan's shortest run, an update's longest wait.", examples: [{ minScanMs: 2000, maxUpdatePendingMs: 60000 }] },
  );

  const Target = Type.Object({ name: Type.String({ minLength: 1 }), id: Type.Integer() }, { additionalProperties: false });

  const StreamProxyEntry = profileEntry({
    reference: Type.Object(
      {
        /** Lifetime of web-player tokens in ms (documented: 30 s; shortened so a run does not wait half a minute). */
        webPlayerTokenMs: Type.Optional(Type.Integer({ minimum: 1 })),
        /** How long a library scan runs, and how long a playlist update stays pending, in ms. */
        scanMs: Type.Optional(Type.Integer({ minimum: 1 })),
        updateMs: Type.Optional(Type.Integer({ minimum: 1 })),
        /** Users in a user database (use_user_db) rather than the api-proxy document. */
        useUserDb: Type.Optional(Type.Boolean()),
        /** Leeway the web player grants a token past its lifetime, in ms (0: none; the with-leeway reading of B-NS-WEBPLAYER-LIFETIME). */
        webPlayerLeewayMs: Type.Optional(Type.Integer({ minimum: 0 })),
        /** How long a GeoIP update's download takes where GeoIP is enabled, in ms (the enabled reading of B-NS-GEOIP-UPDATE). */
        geoipMs: Type.Optional(Type.Integer({ minimum: 0 })),
      },
      { additionalProperties: false },
    ),
    credentials: Type.Record(Type.String(), EnvName, { examples: [{ adminToken: 'PROXY_ADMIN_TOKEN', userToken: 'PROXY_USER_TOKEN' }] }),
    settings: Type.Object(
      {
        /** "<path_prefix>" when one is configured: the API is then at {base_url}/<path_prefix>/api/v1/. */
        pathPrefix: Type.String({ default: '', pattern: '^(/[^/].*[^/]|/[^/])?$', description: '"/<path_prefix>" when the deployment has one configured: the API is then under it.' }),
        webAuthEnabled: Type.Boolean({ default: true, description: 'Whether web authentication is on in the deployment (web_auth_enabled).' }),
        userUiEnabled: Type.Boolean({ default: true, description: 'Whether the user UI is on in the deployment (user_ui_enabled).' }),
        libraryEnabled: Type.Boolean({ default: true, description: 'Whether the library is enabled in the deployment (library.enabled).' }),
        adminLogin: Type.Optional(Login('A login request that yields the admin token; absent: the credential adminToken is the token.', 'admin')),
        userLogin: Type.Optional(Login('A login request that yields the user token; absent: the credential userToken is the token.', 'user')),
        documents: Type.Object(
          {
            main: Document('/config'),
            sources: Document('/sources'),
            /** GET /api/v1/config/apiproxy is the document itself; inConfig says where it lies in GET /api/v1/config. */
            apiProxy: Document('/api_proxy'),
            bouquet: Type.Optional(Bouquet),
          },
          { additionalProperties: false, default: {}, description: 'Where each config document lies in GET /api/v1/config, and a harmless member the harness may set.' },
        ),
        /** Targets of the sources config: the first is used throughout, the second (if any) for moving users. */
        targets: Type.Array(Target, {
          minItems: 1,
          description: 'Targets of the sources config: the first is used throughout, the second (if any) for moving users.',
          examples: [[{ name: 'main', id: 1 }, { name: 'backup', id: 2 }]],
        }),
        /** An input id (batch CSV, the Input playlist variant). */
        inputId: Type.Integer({ description: 'An input id of the deployment (for batch CSV and the Input playlist variant).', examples: [1] }),
        /** The server profile name new proxy users get. */
        serverProfile: Type.String({ default: 'default', description: 'The server profile name new proxy users get.' }),
        /** A provider the deployment can reach, for the CustomM3u, CustomPanel and Custom EPG variants; absent: not applicable. */
        provider: Type.Optional(
          Type.Object({ m3uUrl: Type.String(), panelUrl: Type.String(), epgUrl: Type.String(), username: Type.String(), password: Type.String() }, {
            additionalProperties: false,
            description: 'A provider the deployment can reach, for the custom M3U, panel and EPG variants; absent: not applicable.',
            examples: [{ m3uUrl: 'https://provider.example/get.php', panelUrl: 'https://provider.example', epgUrl: 'https://provider.example/xmltv.php', username: '<test account>', password: '<its password>' }],
          }),
        ),
        /** A resource identifier the public resource endpoint serves; absent: taken from a listing if one carries it. */
        resource: Type.Optional(Type.String({ description: 'A resource identifier the public resource endpoint serves; absent: taken from a listing.' })),
        webPlayer: Type.Object(
          { cluster: Type.String({ default: 'live' }), virtualId: Type.Integer({ default: 1 }) },
          { additionalProperties: false, default: {}, description: 'The cluster spelling and an item virtual id the target lists, for the web-player URL request.' },
        ),
        /** How long web-player tokens live on this target, in ms (documented 30000); the expiry check waits this long. */
        webPlayerTokenMs: Type.Integer({ minimum: 1, default: 30000, description: 'How long web-player tokens live on this target, in ms (documented 30000); the expiry check waits this long.' }),
        jobs: Jobs,
        /** The documented 30-second expiry is a slow check: run it only where this is true (a nightly profile). */
        slowChecks: Type.Boolean({ default: false, description: 'True: run the slow check that waits out the documented 30-second web-player token (nightly).' }),
      },
      { additionalProperties: false },
    ),
  });
  return { StreamProxyEntry };
});
type Schemas = ReturnType<typeof schemas>;

/** The stream-proxy entry's schema (interfaces.stream-proxy). */
export const streamProxyEntry = () => schemas().StreamProxyEntry;

export type StreamProxyProfileEntry = Static<Schemas['StreamProxyEntry']>;
export type StreamProxySettings = StreamProxyProfileEntry['settings'];
