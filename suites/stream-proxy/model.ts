/**
 * Executable readings of Interface B's rules, small enough to check by eye against the document.
 *
 * Revisions: "POST /api/v1/config/main ... If-Match (current main revision) | 200 with new x-config-main-revision;
 * 400 validation failed; 409 changed on server; 428 If-Match missing". The model never predicts a revision's value
 * (a BLAKE3 hash of a file it cannot see), only whether a save must succeed, and whether the revision must change: a
 * save that changes the content must; saving identical content may keep it.
 *
 * Proxy users: "username: identifies the user; unique", "token: optional; must be unique among users", create 200 or
 * 400 (duplicate username or token), update 200 or 400 (not found, duplicate token; another target moves the user),
 * delete 200 or 400 (not found in that target).
 */
import type { Doc } from './documents.ts';

export type { Doc };

export type IfMatch = 'as-read' | 'none' | 'malformed';

/** What a save must get: a status, or one of several where the document leaves the choice open. */
export interface SaveExpectation {
  statuses: number[];
  requirement: string;
  why: string;
  /**
   * Set where the If-Match refusal (these statuses) and the body's 400 apply at once: which is answered first is not
   * shown (B-NS-CHECK-ORDER), so either is right.
   */
  revisionRefusal?: number[];
}

export class RevisionModel {
  /** What the target holds: each document's revision (as last read or saved) and its scratch value. */
  readonly revision: Record<Doc, string>;
  readonly scratch: Record<Doc, unknown>;
  /** What each client last read: the revision it would send in If-Match. */
  readonly seen: Array<Record<Doc, string>>;

  constructor(revision: Record<Doc, string>, scratch: Record<Doc, unknown>, clients: number) {
    this.revision = { ...revision };
    this.scratch = { ...scratch };
    this.seen = Array.from({ length: clients }, () => ({ ...revision }));
  }

  expectSave(client: number, doc: Doc, ifMatch: IfMatch, bodyIsObject: boolean): SaveExpectation {
    const refused = this.revisionRefusal(client, doc, ifMatch);
    if (refused && !bodyIsObject) {
      // Two refusals apply; the document does not order them (the request still tests the If-Match rule).
      return { ...refused, statuses: [...new Set([...refused.statuses, 400])], why: `${refused.why}, with a body that is not a JSON object`, revisionRefusal: refused.statuses };
    }
    if (refused) return refused;
    // With the current revision, the body decides.
    if (!bodyIsObject) return { statuses: [400], requirement: 'B-CONFIG-400', why: 'the current revision, but a body that is not a JSON object' };
    return { statuses: [200], requirement: 'B-CONFIG-SAVE', why: 'the current revision and a JSON object' };
  }

  /** What the If-Match of a save alone must get, or undefined when it is the current revision. */
  private revisionRefusal(client: number, doc: Doc, ifMatch: IfMatch): SaveExpectation | undefined {
    if (ifMatch === 'none') return { statuses: [428], requirement: 'B-CONFIG-428', why: 'a save without If-Match' };
    if (ifMatch === 'malformed') return { statuses: [400, 409, 428], requirement: 'B-CONFIG-IF-MATCH-MALFORMED', why: 'an If-Match that is no revision at all' };
    if (this.seen[client][doc] !== this.revision[doc]) return { statuses: [409], requirement: 'B-CONFIG-409', why: `If-Match ${this.seen[client][doc]} is stale (the document is at ${this.revision[doc]})` };
    return undefined;
  }

  /** A save succeeded: the document is at `revision` with `scratch`; the saving client has seen it. */
  saved(client: number, doc: Doc, revision: string, scratch: unknown): void {
    this.revision[doc] = revision;
    this.scratch[doc] = scratch;
    this.seen[client][doc] = revision;
  }

  read(client: number, revision: Record<Doc, string>): void {
    this.seen[client] = { ...revision };
  }
}

export interface ProxyUser {
  target: string;
  token?: string;
}

export type UserAction =
  | { kind: 'create'; username: string; target: string; token?: string }
  // Whether an update without a token keeps or clears the user's token is not shown: updates always carry one.
  | { kind: 'update'; username: string; target: string; token: string }
  | { kind: 'delete'; username: string; target: string };

export class UserModel {
  readonly users = new Map<string, ProxyUser>();
  /** Users moved away from a target: deleting them there must fail (no copy was left behind). */
  private readonly movedFrom = new Map<string, string>();
  /** Names and tokens of users at the moment they were moved: a copy left behind would still hold them. */
  private readonly residue = new Set<string>();

  private tokenTaken(token: string | undefined, except: string): boolean {
    return token !== undefined && [...this.users].some(([name, u]) => name !== except && u.token === token);
  }

  private leftBehind(a: { username: string; token?: string }): boolean {
    return this.residue.has(`name:${a.username}`) || (a.token !== undefined && this.residue.has(`token:${a.token}`));
  }

  /** The status an action must get and the requirement it is about. */
  expect(a: UserAction): { status: 200 | 400; requirement: string } {
    const u = this.users.get(a.username);
    if (a.kind === 'create') {
      if (u) return { status: 400, requirement: 'B-USER-DUP-USERNAME' };
      if (this.tokenTaken(a.token, a.username)) return { status: 400, requirement: 'B-USER-DUP-TOKEN' };
      // A refusal of a name or token a moved user had is evidence of a copy the move left behind.
      return { status: 200, requirement: this.leftBehind(a) ? 'B-USER-MOVE' : 'B-USER-CREATE' };
    }
    if (a.kind === 'update') {
      if (!u) return { status: 400, requirement: 'B-USER-UPDATE' };
      if (this.tokenTaken(a.token, a.username)) return { status: 400, requirement: 'B-USER-DUP-TOKEN' };
      return { status: 200, requirement: u.target === a.target && !this.leftBehind(a) ? 'B-USER-UPDATE' : 'B-USER-MOVE' };
    }
    if (u && u.target === a.target) return { status: 200, requirement: 'B-USER-DELETE' };
    return { status: 400, requirement: this.movedFrom.get(a.username) === a.target ? 'B-USER-MOVE' : 'B-USER-DELETE' };
  }

  /** Applies an action the target answered 200. */
  apply(a: UserAction): void {
    if (a.kind === 'delete') {
      this.users.delete(a.username);
      this.movedFrom.delete(a.username);
      return;
    }
    const before = this.users.get(a.username);
    if (before && before.target !== a.target) {
      this.movedFrom.set(a.username, before.target);
      this.residue.add(`name:${a.username}`);
      if (before.token) this.residue.add(`token:${before.token}`);
    }
    if (before?.target === a.target) this.movedFrom.delete(a.username);
    this.users.set(a.username, { target: a.target, token: a.token });
  }
}
