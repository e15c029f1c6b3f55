// The three configuration documents (main, sources, api-proxy), kept as real files in a folder of their own, and the
// revision check of their saves. "Each [revision header] holds the BLAKE3 hash of the respective configuration file":
// a revision is always hashed from the file's bytes as they are on disk, never from what the server meant to write.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { blake3 } from '@noble/hashes/blake3.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import type { StreamProxyFault } from './faults.js';

export type DocName = 'main' | 'sources' | 'apiProxy';
export const DOC_NAMES: readonly DocName[] = ['main', 'sources', 'apiProxy'];

export const REVISION_HEADER: Record<DocName, string> = {
  main: 'x-config-main-revision',
  sources: 'x-config-sources-revision',
  apiProxy: 'x-config-api-proxy-revision',
};

const FILE_NAME: Record<DocName, string> = { main: 'config.json', sources: 'source.json', apiProxy: 'api-proxy.json' };

/** A BLAKE3 hash in lowercase hex: what every revision looks like, so anything else in If-Match is not one. */
const REVISION = /^[0-9a-f]{64}$/;
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
  ) {
    this.dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stream-proxy-reference-'));
    this.files = Object.fromEntries(DOC_NAMES.map((d) => [d, path.join(this.dir, FILE_NAME[d])])) as Record<DocName, string>;
    for (const doc of DOC_NAMES) {
      fs.writeFileSync(this.files[doc], pretty(initial[doc]));
      this.remember(doc);
    }
  }

  /** The document's current revision: the hash of its file as it is now. */
  revision(doc: DocName): string {
    if (this.on('revision-unchanged-after-save')) {
      const hit = this.cached.get(doc);
      if (hit) return hit;
      const fresh = hashOf(fs.readFileSync(this.files[doc]));
      this.cached.set(doc, fresh);
      return fresh;
    }
    return hashOf(fs.readFileSync(this.files[doc]));
  }

  read(doc: DocName): unknown {
    return JSON.parse(fs.readFileSync(this.files[doc], 'utf8'));
  }

  /**
   * A save: If-Match missing 428, not a revision 400, not the current revision 409, a body that is not a JSON object
   * 400; otherwise the body is written as pretty JSON and the new file's revision returned. The revision is checked
   * before the body (a stale save is stale whatever it carries). From the check to the write nothing is awaited, so
   * two saves with one revision cannot both pass: the second sees the file the first wrote.
   */
  async save(doc: DocName, ifMatch: string | undefined, raw: string): Promise<SaveOutcome> {
    // The faults: a save without If-Match, or with one that is no revision at all, goes through unchecked.
    const unconditional = (ifMatch === undefined && this.on('missing-if-match-saved')) || (ifMatch !== undefined && this.on('malformed-if-match-ignored') && !REVISION.test(unquote(ifMatch)));
    if (ifMatch === undefined && !unconditional) return { status: 428, message: `If-Match with the current ${REVISION_HEADER[doc]} is required.` };
    if (!unconditional) {
      const given = unquote(ifMatch!);
      if (!REVISION.test(given)) return { status: 400, message: 'If-Match is not a revision (a BLAKE3 hash in hex).' };
      const current = this.revision(doc);
      const accepted = given === current || (this.on('stale-if-match-accepted') && this.history.get(doc)!.has(given));
      if (!accepted) return { status: 409, message: `The document changed on the server (now at revision ${current}); reload it and retry.` };
    }

    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch {
      if (!this.on('invalid-body-saved')) return { status: 400, message: 'The body is not valid JSON.' };
      value = {};
    }
    if (!isObject(value) && !this.on('invalid-body-saved')) return { status: 400, message: 'The body must be a JSON object.' };

    if (this.on('save-not-atomic')) {
      // The bug: a backup of the old file is written asynchronously between the check and the write.
      await fs.promises.copyFile(this.files[doc], `${this.files[doc]}.bak`);
      await new Promise((resolve) => setTimeout(resolve, BACKUP_DELAY_MS));
    }

    const text = pretty(value);
    if (this.on('save-lost')) {
      // The bug: written to the temporary file, never renamed over the document.
      fs.writeFileSync(`${this.files[doc]}.tmp`, text);
      return { status: 200, revision: hashOf(text) };
    }
    fs.writeFileSync(this.files[doc], text);
    if (doc === 'main' && this.on('save-touches-sources')) {
      // The bug: the main writer re-serialises every document it loaded, with its own indentation.
      fs.writeFileSync(this.files.sources, pretty(this.read('sources'), 4));
      this.remember('sources');
    }
    this.remember(doc);
    return { status: 200, revision: this.on('revision-over-request-body') ? hashOf(raw) : this.revision(doc) };
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
function unquote(value: string): string {
  const v = value.trim();
  return (v.length >= 2 && v.startsWith('"') && v.endsWith('"') ? v.slice(1, -1) : v).toLowerCase();
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
