// Proxy users, per target. "Users live in the api-proxy configuration, or in a user database when use_user_db is
// true": the reference keeps them out of the api-proxy document it serves (which is "without the user list") either
// way, in memory or, with use_user_db, in a database file beside the documents, rewritten on every change.
import fs from 'node:fs';
import type { ReadingOf } from './choices.js';
import type { StreamProxyFault } from './faults.js';

export interface Credentials {
  username: string;
  password: string;
  token?: string;
  proxy: string;
  server: string;
  max_connections: number;
  status: string;
  exp_date: number | string | null;
}

/**
 * What a change did: the user as stored (absent when nobody was there to delete), or why it was refused (400; `unknown`
 * when the target of the path is none of the deployment's, B-NS-UNKNOWN-SOURCE).
 */
export type UserOutcome = { ok: true; user?: Credentials } | { ok: false; message: string; unknownTarget?: true };

/** B-NS-PROXY-STATUS-VALUES, enumerated: the proxy modes and account states a stream proxy of this kind knows. */
const PROXY_MODES = ['reverse', 'redirect'];
const ACCOUNT_STATES = ['Active', 'Expired', 'Banned', 'Trial', 'Disabled', 'Pending'];
/** B-NS-USER-VALIDATION, strict: a username goes into stream URLs and file names, so it keeps to a safe alphabet. */
const SAFE_USERNAME = /^[A-Za-z0-9._@-]{1,64}$/;
/** B-NS-EXP-DATE, date-string: a date, or a date and time, in ISO 8601. */
const ISO_DATE = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

export class ProxyUsers {
  /** Target name to its users, in the order they were added (the api-proxy document's `user` list). */
  private readonly byTarget = new Map<string, Credentials[]>();

  constructor(
    targets: readonly string[],
    private readonly serverProfile: string,
    private readonly on: (name: StreamProxyFault) => boolean,
    private readonly reading: ReadingOf,
    /** The server profiles of the api-proxy configuration as it is now (the strict reading checks a user's server). */
    private readonly serverProfiles: () => string[],
    /** The user database file (use_user_db), or undefined to keep users in memory only. */
    private readonly dbFile?: string,
  ) {
    for (const t of targets) this.byTarget.set(t, []);
    this.persist();
  }

  /** Every user's name by target: the reference's own account, for tests that check nothing was left behind. */
  names(): Record<string, string[]> {
    return Object.fromEntries([...this.byTarget].map(([t, users]) => [t, users.map((u) => u.username)]));
  }

  create(target: string, body: unknown): UserOutcome {
    const users = this.byTarget.get(target);
    if (!users) return { ok: false, message: `No target named ${target}.`, unknownTarget: true };
    const c = this.credentials(body);
    if ('message' in c) return { ok: false, message: c.message };
    if (this.on('create-needs-token') && c.token === undefined) return { ok: false, message: 'token is required.' };
    // Usernames are unique across all targets (the fault: only the path's target is looked at).
    const clash = this.on('duplicate-username-accepted') ? users.find((u) => this.same(u.username, c.username)) : this.find(c.username)?.user;
    if (clash) return { ok: false, message: `A user named ${c.username} exists.` };
    if (this.tokenTaken(c.token, c.username)) return { ok: false, message: 'Another user has that token.' };
    users.push(c);
    this.persist();
    return { ok: true, user: c };
  }

  /** The username in the body selects the user, wherever it is; a different target in the path moves it there. */
  update(target: string, body: unknown): UserOutcome {
    const users = this.byTarget.get(target);
    if (!users) return { ok: false, message: `No target named ${target}.`, unknownTarget: true };
    // B-NS-USER-UPDATE-MERGE, merge: the members the body leaves out keep the values the user has.
    const selected = this.reading('B-NS-USER-UPDATE-MERGE') === 'merge' && isRecord(body) && typeof body.username === 'string' ? this.find(body.username) : undefined;
    const c = this.credentials(selected ? { ...selected.user, ...(body as Record<string, unknown>) } : body);
    if ('message' in c) return { ok: false, message: c.message };
    const found = this.find(c.username);
    if (!found && !this.on('update-unknown-creates')) return { ok: false, message: `No user named ${c.username}.` };
    if (this.tokenTaken(c.token, c.username)) return { ok: false, message: 'Another user has that token.' };
    if (found && found.target === target) {
      users[users.indexOf(found.user)] = c;
    } else {
      if (found && !this.on('move-leaves-copy')) this.byTarget.get(found.target)!.splice(this.byTarget.get(found.target)!.indexOf(found.user), 1);
      users.push(c);
    }
    this.persist();
    return { ok: true, user: c };
  }

  remove(target: string, username: string): UserOutcome {
    const users = this.byTarget.get(target);
    const index = users?.findIndex((u) => this.same(u.username, username)) ?? -1;
    if (index < 0) {
      if (this.on('delete-unknown-ok')) return { ok: true };
      return { ok: false, message: `No user named ${username} in target ${target}.` };
    }
    const [user] = users!.splice(index, 1);
    this.persist();
    return { ok: true, user };
  }

  /** How many users there are, for the server's status. */
  count(): number {
    let n = 0;
    for (const users of this.byTarget.values()) n += users.length;
    return n;
  }

  private find(username: string): { target: string; user: Credentials } | undefined {
    for (const [target, users] of this.byTarget) {
      const user = users.find((u) => this.same(u.username, username));
      if (user) return { target, user };
    }
    return undefined;
  }

  /** Whether two usernames name one user (B-NS-USERNAME-CASE: a case-insensitive store folds case). */
  private same(a: string, b: string): boolean {
    return this.reading('B-NS-USERNAME-CASE') === 'case-insensitive' ? a.toLowerCase() === b.toLowerCase() : a === b;
  }

  private tokenTaken(token: string | undefined, except: string): boolean {
    if (token === undefined || this.on('duplicate-token-accepted')) return false;
    for (const users of this.byTarget.values()) if (users.some((u) => !this.same(u.username, except) && u.token === token)) return true;
    return false;
  }

  /** The body as credentials, defaults filled, or why it is refused. Fields the document does not name are dropped. */
  private credentials(body: unknown): Credentials | { message: string } {
    if (!isRecord(body)) return { message: 'The body must be a JSON object of proxy user credentials.' };
    const b = body;
    // B-NS-USER-FIELDS-REQUIRED, all-members: every member of the table but the optional token must be there (exp_date
    // may be null, but not left out).
    if (this.reading('B-NS-USER-FIELDS-REQUIRED') === 'all-members') {
      const missing = ['proxy', 'server', 'max_connections', 'status', 'exp_date'].filter((k) => !(k in b) || (k !== 'exp_date' && b[k] === null));
      if (missing.length) return { message: `Missing member(s): ${missing.join(', ')}.` };
    }
    const text = (name: string, required: boolean): string | undefined | { message: string } => {
      const v = b[name];
      if (v === undefined || (v === null && !required)) return required ? { message: `${name} is required.` } : undefined;
      return typeof v === 'string' && v.length > 0 ? v : { message: `${name} must be a non-empty string.` };
    };
    const fields: Record<string, string | undefined> = {};
    for (const [name, required] of [['username', true], ['password', true], ['token', false], ['proxy', false], ['server', false], ['status', false]] as const) {
      const v = text(name, required);
      if (typeof v === 'object') return v;
      fields[name] = v;
    }
    if (this.reading('B-NS-PROXY-STATUS-VALUES') === 'enumerated') {
      if (fields.proxy !== undefined && !PROXY_MODES.includes(fields.proxy)) return { message: `proxy must be one of ${PROXY_MODES.join(', ')}.` };
      if (fields.status !== undefined && !ACCOUNT_STATES.includes(fields.status)) return { message: `status must be one of ${ACCOUNT_STATES.join(', ')}.` };
    }
    if (this.reading('B-NS-USER-VALIDATION') === 'strict') {
      if (!SAFE_USERNAME.test(fields.username!)) return { message: 'username may hold only letters, digits and . _ @ - (at most 64).' };
      if (fields.server !== undefined && !this.serverProfiles().includes(fields.server)) return { message: `server ${fields.server} is no server profile of the api-proxy configuration.` };
    }
    const max = b.max_connections ?? 0;
    if (typeof max !== 'number' || !Number.isInteger(max) || max < 0) return { message: 'max_connections must be a non-negative integer.' };
    const exp = b.exp_date ?? null;
    const expFormat = this.reading('B-NS-EXP-DATE');
    if (expFormat === 'epoch-seconds') {
      if (exp !== null && !(typeof exp === 'number' && Number.isInteger(exp) && exp >= 0)) return { message: 'exp_date must be null or a time in seconds since the epoch.' };
    } else if (expFormat === 'date-string') {
      if (exp !== null && !(typeof exp === 'string' && ISO_DATE.test(exp) && !Number.isNaN(Date.parse(exp)))) return { message: 'exp_date must be null or an ISO 8601 date.' };
    } else if (exp !== null && typeof exp !== 'string' && !(typeof exp === 'number' && Number.isFinite(exp))) {
      return { message: 'exp_date must be null, a number or a string.' };
    }
    return {
      username: fields.username!,
      password: fields.password!,
      ...(fields.token !== undefined ? { token: fields.token } : {}),
      proxy: fields.proxy ?? 'reverse',
      server: fields.server ?? this.serverProfile,
      max_connections: max,
      status: fields.status ?? 'Active',
      exp_date: exp,
    };
  }

  private persist(): void {
    if (!this.dbFile) return;
    const user = [...this.byTarget].map(([target, credentials]) => ({ target, credentials }));
    fs.writeFileSync(this.dbFile, `${JSON.stringify({ user }, null, 2)}\n`);
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
