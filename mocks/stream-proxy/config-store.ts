// The three configuration documents (main, sources, api-proxy), kept as real files in a folder of their own, and the
// revision check of their saves. "Each [revision header] holds the BLAKE3 hash of the respective configuration file":
// a revision is always hashed from the file's bytes as they are on disk, never from what the server meant to write.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { blake3 } from '@noble/hashes/blake3.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import type { ReadingOf } from './choices.js';
import { pruned, unknownMembers, type DocName, type Shape } from './documents.js';
import type { StreamProxyFault } from './faults.js';

export type { DocName };
export const DOC_NAMES: readonly DocName[] = ['main', 'sources', 'apiProxy'];

export const REVISION_HEADER: Record<DocName, string> = {
  main: 'x-config-main-revision',
  sources: 'x-config-sources-revision',
  apiProxy: 'x-config-api-proxy-revision',
};

const FILE_NAME: Record<DocName, string> = { main: 'config.json', sources: 'source.json', apiProxy: 'api-proxy.json' };

/** A BLAKE3 hash in lowercase hex: what every revision is underneath its encoding (B-NS-REVISION-ENCODING). */
const HEX = /^[0-9a-f]{64}$/;
/** How long the 'save-not-atomic' fault's backup round-trip takes: long enough for concurrent saves to overlap. */
const BACKUP_DELAY_MS = 25;

export type SaveOutcome =
  | { status: 200; revision: string }
  | { status: 400 | 409 | 428; message: string };

const pretty = (value: unknown, indent = 2): string => `${JSON.stringify(value, null, indent)}\n`;
const hashOf = (bytes: Uint8Array | string): string => bytesToHex(blake3(typeof bytes === 'string' ? new TextEncoder().encode(bytes) : bytes));

export class ConfigStore {
  readonly dir: string;
  private readonly files: Record<DocName, string>;
  /** Every revision each document has had: kept only for the 'stale-if-match-accepted' fault's history check. */
  private readonly history = new Map<DocName, Set<string>>();
  /** The 'revision-unchanged-after-save' fault's cache, filled once per document and never dropped. */
  private readonly cached = new Map<DocName, string>();

  constructor(
    initial: Record<DocName, unknown>,
    private readonly on: (name: StreamProxyFault) => boolean,
    private readonly reading: ReadingOf,
    /** The members a typed deployment knows in each document (B-NS-DTO-FIELDS). */
    private readonly known: Record<DocName, Shape>,
  ) {
    this.dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stream-proxy-reference-'));
    this.files = Object.fromEntries(DOC_NAMES.map((d) => [d, path.join(this.dir, FILE_NAME[d])])) as Record<DocName, string>;
    for (const doc of DOC_NAMES) {
      fs.writeFileSync(this.files[doc], pretty(initial[doc]));
      this.remember(doc);
    }
  }

  /** The document's current revision as its header carries it: the hash of its file as it is now, encoded. */
  revision(doc: DocName): string {
    return this.encode(this.hashNow(doc));
  }

  /** The hash of the document's file as it is now, in hex. */
  private hashNow(doc: DocName): string {
    if (this.on('revision-unchanged-after-save')) {
      const hit = this.cached.get(doc);
      if (hit) return hit;
      const fresh = hashOf(fs.readFileSync(this.files[doc]));
      this.cached.set(doc, fresh);
      return fresh;
    }
    return hashOf(fs.readFileSync(this.files[doc]));
  }

  /** A hash in hex as the revision headers carry it (B-NS-REVISION-ENCODING). */
  private encode(hex: string): string {
    const encoding = this.reading('B-NS-REVISION-ENCODING');
    if (encoding === 'quoted-etag') return `"${hex}"`;
    if (encoding === 'base64url') return Buffer.from(hex, 'hex').toString('base64url');
    return hex;
  }

  /** The hash an If-Match value names, in hex, or undefined when it is no revision in this deployment's encoding. */
  private decode(value: string): string | undefined {
    const v = value.trim();
    const encoding = this.reading('B-NS-REVISION-ENCODING');
    if (encoding === 'quoted-etag') {
      // An entity tag, compared strongly: the quotes belong to it, a bare hash is no entity tag.
      const m = /^"([0-9a-fA-F]{64})"$/.exec(v);
      return m ? m[1].toLowerCase() : undefined;
    }
    if (encoding === 'base64url') {
      const bare = unquote(v, false);
      return /^[A-Za-z0-9_-]{43}$/.test(bare) ? Buffer.from(bare, 'base64url').toString('hex') : undefined;
    }
    const bare = unquote(v, true);
    return HEX.test(bare) ? bare : undefined;
  }

  read(doc: DocName): unknown {
    return JSON.parse(fs.readFileSync(this.files[doc], 'utf8'));
  }

  /**
   * A save: If-Match missing 428, not a revision 400, not the current revision 409, a body that is not a JSON object
   * 400; otherwise the body is written as pretty JSON and the new file's revision returned. By default the revision is
   * checked before the body (a stale save is stale whatever it carries); the body-first reading of B-NS-CHECK-ORDER
   * validates the body first. From the check to the write nothing is awaited, so two saves with one revision cannot
   * both pass: the second sees the file the first wrote.
   */
  async save(doc: DocName, ifMatch: string | undefined, raw: string): Promise<SaveOutcome> {
    const bodyFirst = this.reading('B-NS-CHECK-ORDER') === 'body-first';
    let value: unknown;
    if (bodyFirst) {
      const body = this.body(doc, raw);
      if ('status' in body) return body;
      value = body.value;
    }
    const refused = this.checkRevision(doc, ifMatch);
    if (refused) return refused;
    if (!bodyFirst) {
      const body = this.body(doc, raw);
      if ('status' in body) return body;
      value = body.value;
    }

    if (this.on('save-not-atomic')) {
      // The bug: a backup of the old file is written asynchronously between the check and the write.
      await fs.promises.copyFile(this.files[doc], `${this.files[doc]}.bak`);
      await new Promise((resolve) => setTimeout(resolve, BACKUP_DELAY_MS));
    }

    const text = pretty(value);
    if (this.on('save-lost')) {
      // The bug: written to the temporary file, never renamed over the document.
      fs.writeFileSync(`${this.files[doc]}.tmp`, text);
      return { status: 200, revision: this.encode(hashOf(text)) };
    }
    fs.writeFileSync(this.files[doc], text);
    if (doc === 'main' && this.on('save-touches-sources')) {
      // The bug: the main writer re-serialises every document it loaded, with its own indentation.
      fs.writeFileSync(this.files.sources, pretty(this.read('sources'), 4));
      this.remember('sources');
    }
    this.remember(doc);
    return { status: 200, revision: this.on('revision-over-request-body') ? this.encode(hashOf(raw)) : this.revision(doc) };
  }

  /** The If-Match check: undefined when the save may go on, otherwise its refusal. */
  private checkRevision(doc: DocName, ifMatch: string | undefined): SaveOutcome | undefined {
    const given = ifMatch === undefined ? undefined : this.decode(ifMatch);
    // The faults: a save without If-Match, or with one that is no revision at all, goes through unchecked.
    if (ifMatch === undefined && this.on('missing-if-match-saved')) return undefined;
    if (ifMatch !== undefined && given === undefined && this.on('malformed-if-match-ignored')) return undefined;
    if (ifMatch === undefined) return { status: 428, message: `If-Match with the current ${REVISION_HEADER[doc]} is required.` };
    const current = this.hashNow(doc);
    const stale = { status: 409, message: `The document changed on the server (now at revision ${this.encode(current)}); reload it and retry.` } as const;
    if (given === undefined) {
      // B-NS-IF-MATCH-FORMS: a value that is no revision is refused as such, or (mismatch-409) is one more revision
      // that is not the current one.
      return this.reading('B-NS-IF-MATCH-FORMS') === 'mismatch-409' ? stale : { status: 400, message: 'If-Match is not a revision of this document.' };
    }
    const accepted = given === current || (this.on('stale-if-match-accepted') && this.history.get(doc)!.has(given));
    return accepted ? undefined : stale;
  }

  /** The body of a save as the document to write, or why it is refused (400). */
  private body(doc: DocName, raw: string): { value: unknown } | SaveOutcome {
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch {
      if (!this.on('invalid-body-saved')) return { status: 400, message: 'The body is not valid JSON.' };
      value = {};
    }
    if (!isObject(value) && !this.on('invalid-body-saved')) return { status: 400, message: 'The body must be a JSON object.' };
    // B-NS-DTO-FIELDS: a typed deployment drops, or refuses, the members its documents do not know.
    const members = this.reading('B-NS-DTO-FIELDS');
    if (members === 'unknown-members-refused') {
      const unknown = unknownMembers(value, this.known[doc]);
      if (unknown.length) return { status: 400, message: `Unknown member(s) ${unknown.slice(0, 5).join(', ')}.` };
    }
    if (members === 'unknown-members-dropped') value = pruned(value, this.known[doc]);
    return { value };
  }

  /** A file the reference keeps beside the documents (the user database). */
  pathOf(name: string): string {
    return path.join(this.dir, name);
  }

  close(): void {
    fs.rmSync(this.dir, { recursive: true, force: true });
  }

  private remember(doc: DocName): void {
    let seen = this.history.get(doc);
    if (!seen) this.history.set(doc, (seen = new Set()));
    seen.add(hashOf(fs.readFileSync(this.files[doc])));
  }
}

/** If-Match may carry the revision as an entity tag ("...") or bare. */
function unquote(value: string, lowercase: boolean): string {
  const v = value.trim();
  const bare = v.length >= 2 && v.startsWith('"') && v.endsWith('"') ? v.slice(1, -1) : v;
  return lowercase ? bare.toLowerCase() : bare;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
