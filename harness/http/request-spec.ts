/** What a check asks the client to send: its own module, so that the client's helpers (extras) need not import the client. */
export interface RequestSpec {
  method: string;
  path: string;
  /** Header values are sent as given, names in the letter case given; `undefined` leaves a header out. */
  headers?: Record<string, string | undefined>;
  /** A raw body, sent as it is (broken JSON, an empty string). */
  body?: string;
  /** A value sent as JSON with content-type application/json unless the headers say otherwise. */
  json?: unknown;
  /** Rate-limit checks must reach the limit: no pacing for them. */
  unpaced?: boolean;
  /** A 429 is provoked on purpose: report it, do not wait it out. */
  provokesLimit?: boolean;
  /**
   * Pass the request through the interface's authentication step (a key header, a signature, a token) with the
   * profile's credentials. Checks that send wrong credentials on purpose set the headers themselves instead.
   */
  authenticate?: boolean;
  /** Which of the profile's credentials the authentication step uses, where an interface has several (API keys). */
  credential?: string;
  /**
   * Set by an authentication step that used state it remembered (a session token from an earlier login), never by a
   * check: called when the request is refused 401 or 403, it finds out whether that state went stale (the token is
   * refused on a harmless read too), forgets it if so, and answers whether the request is worth sending once more. A
   * deployment may end a session early where its document is silent (a key's new login revoking its older tokens): a
   * token another test's login revoked is the harness's stale state, not a refusal; a refusal for anything else (a
   * nonce, a scope) leaves the session as it was and the answer stands.
   */
  renewSession?: () => Promise<boolean>;
  /** The local address to send from (a loopback address other than 127.0.0.1, to come from outside a whitelist). */
  from?: string;
  label?: string;
}
