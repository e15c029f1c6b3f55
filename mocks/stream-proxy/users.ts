// Proxy users, per target. "Users live in the api-proxy configuration, or in a user database when use_user_db is
// true": the reference keeps them out of the api-proxy document it serves (which is "without the user list") either
// way, in memory or, with use_user_db, in a database file beside the documents, rewritten on every change.
import fs from 'node:fs';
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

/** What a change did: the user as stored (absent when nobody was there to delete), or why it was refused (400). */
export type UserOutcome = { ok: true; user?: Credentials } | { ok: false; message: string };

export class ProxyUsers {
  /** Target name to its users, in the order they were added (the api-proxy document's `user` list). */
  private readonly byTarget = new Map<string, Credentials[]>();

  constructor(
    targets: readonly string[],
    private readonly serverProfile: string,
    private readonly on: (name: StreamProxyFault) => boolean,
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
    if (!users) return { ok: false, message: `No target named ${target}.` };
    const c = this.credentials(body);
    if ('message' in c) return { ok: false, message: c.message };
    if (this.on('create-needs-token') && c.token === undefined) return { ok: false, message: 'token is required.' };
    // Usernames are unique across all targets (the fault: only the path's target is looked at).
    const clash = this.on('duplicate-username-accepted') ? users.find((u) => u.username === c.username) : this.find(c.username)?.user;
    if (clash) return { ok: false, message: `A user named ${c.username} exists.` };
    if (this.tokenTaken(c.token, c.username)) return { ok: false, message: 'Another user has that token.' };
    users.push(c);
    this.persist();
    return { ok: true, user: c };
  }

  /** The username in the body selects the user, wherever it is; a different target in the path moves it there. */
  update(target: string, body: unknown): UserOutcome {
    const users = this.byTarget.get(target);
    if (!users) return { ok: false, message: `No target named ${target}.` };
    const c = this.credentials(body);
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
    const index = users?.findIndex((u) => u.username === username) ?? -1;
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
      const user = users.find((u) => u.username === username);
      if (user) return { target, user };
    }
    return undefined;
  }

  private tokenTaken(token: string | undefined, except: string): boolean {
    if (token === undefined || this.on('duplicate-token-accepted')) return false;
    for (const users of this.byTarget.values()) if (users.some((u) => u.username !== except && u.token === token)) return true;
    return false;
  }

  /** The body as credentials, defaults filled, or why it is refused. Fields the document does not name are dropped. */
  private credentials(body: unknown): Credentials | { message: string } {
    if (typeof body !== 'object' || body === null || Array.isArray(body)) return { message: 'The body must be a JSON object of proxy user credentials.' };
    const b = body as Record<string, unknown>;
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
    const max = b.max_connections ?? 0;
    if (typeof max !== 'number' || !Number.isInteger(max) || max < 0) return { message: 'max_connections must be a non-negative integer.' };
    const exp = b.exp_date ?? null;
    if (exp !== null && typeof exp !== 'string' && !(typeof exp === 'number' && Number.isFinite(exp))) return { message: 'exp_date must be null, a number or a string.' };
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
