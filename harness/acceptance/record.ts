/**
 * The vendor acceptance record: what a run decided, requirement by requirement, with what it was decided against
 * (the profile, the harness's version and commit, each spec's hash), signed with Ed25519 so that a buyer and a vendor
 * can both tell a genuine record from an edited one or one made against other specs (`npm run verify-record`).
 *
 * The signature covers the record's canonical JSON by RFC 8785 (the JSON Canonicalization Scheme: keys sorted by
 * UTF-16 code units, no whitespace, ECMAScript's number and string forms), so re-indenting the file does not break it
 * but changing any value does, and a buyer verifies it in another language with a JCS library and Ed25519. The record holds the profile as written: it names environment variables,
 * never secrets; the signing key itself never leaves the process that signs.
 */
import { createHash, createPrivateKey } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ed25519 } from '@noble/curves/ed25519.js';
import { esc as html } from '../reporter/html.ts';
import type { RunSummary } from '../reporter/summary.ts';

export const RECORD_FORMAT = 'conformance-acceptance-record/1';

export interface AcceptanceRecord {
  format: typeof RECORD_FORMAT;
  harness: RunSummary['harness'];
  runId: string;
  startedAt: string;
  finishedAt: string;
  /** The profile file as parsed: names of environment variables, never their values. */
  profile: { name: string; file: string; content: unknown };
  specs: Array<{ interface: string; file: string; sha256: string; document: string; section: string }>;
  seed: number;
  depth: string;
  strict: boolean;
  verdict: RunSummary['verdict'];
  exitCode: number;
  exitReason: string;
  /** Waivers applied to this run (--waivers): each waived failure with its reason, owner and expiry. */
  waivers: unknown[];
  requirements: Array<{ interface: string; id: string; level: string; status: string; counted: boolean; text: string; source: string; message?: string }>;
}

export interface SignedRecord {
  record: AcceptanceRecord;
  /** `canonicalization` names the bytes signed; a record without it (older) was signed over the same form. */
  signature: { algorithm: 'Ed25519'; canonicalization?: 'RFC 8785'; publicKey: string; value: string };
}

export function buildRecord(summary: RunSummary, profileContent: unknown): AcceptanceRecord {
  return {
    format: RECORD_FORMAT,
    harness: summary.harness,
    runId: summary.runId,
    startedAt: summary.startedAt,
    finishedAt: summary.finishedAt,
    profile: { name: summary.profile.name, file: summary.profile.file, content: profileContent },
    specs: summary.interfaces.map((i) => ({ interface: i.name, ...i.spec })),
    seed: summary.seed,
    depth: summary.depth,
    strict: summary.strict,
    verdict: summary.verdict,
    exitCode: summary.exitCode,
    exitReason: summary.exitReason,
    waivers: summary.gate?.waived ?? [],
    requirements: summary.interfaces.flatMap((i) =>
      i.requirements.map((r) => ({ interface: i.name, id: r.id, level: r.level, status: r.status, counted: r.counted, text: r.text, source: r.source, ...(r.message ? { message: r.message.split('\n')[0] } : {}) })),
    ),
  };
}

/**
 * RFC 8785 canonical JSON: every object's keys sorted by UTF-16 code units (JavaScript's < on strings), no whitespace,
 * strings and numbers as JSON.stringify writes them (the RFC's own rule). The bytes the signature covers.
 */
export function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    return `{${entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** The signing key from its environment variable: 32 bytes as 64 hex digits, or base64/base64url. */
export function signingKeyFrom(value: string, envName: string): Uint8Array {
  const text = value.trim();
  // A PEM key (openssl genpkey -algorithm ed25519): its seed, the JWK's d.
  if (text.startsWith('-----BEGIN')) {
    let key;
    try {
      key = createPrivateKey(text);
    } catch (e) {
      throw new Error(`${envName} holds a PEM block that is not a private key (${(e as Error).message})`);
    }
    if (key.asymmetricKeyType !== 'ed25519') throw new Error(`${envName} holds an ${key.asymmetricKeyType} key, not an Ed25519 one`);
    return new Uint8Array(Buffer.from(key.export({ format: 'jwk' }).d!, 'base64url'));
  }
  const bytes = /^[0-9a-fA-F]{64}$/.test(text) ? Buffer.from(text, 'hex') : Buffer.from(text, 'base64');
  if (bytes.length !== 32) throw new Error(`${envName} does not hold an Ed25519 private key: give its 32 bytes as 64 hex digits or in base64, or a PEM private key`);
  return new Uint8Array(bytes);
}

export function sign(record: AcceptanceRecord, privateKey: Uint8Array): SignedRecord {
  const message = new TextEncoder().encode(canonical(record));
  return {
    record,
    signature: { algorithm: 'Ed25519', canonicalization: 'RFC 8785', publicKey: Buffer.from(ed25519.getPublicKey(privateKey)).toString('hex'), value: Buffer.from(ed25519.sign(message, privateKey)).toString('hex') },
  };
}

/**
 * What is wrong with a signed record, checked against the checkout at `root`: the signature over its content (by the
 * key it names, or the one the buyer pins), and each spec's hash against the spec file here. Empty when genuine.
 */
export function verifyRecord(signed: SignedRecord, root: string, pinnedKey?: string): string[] {
  const problems: string[] = [];
  const sig = signed?.signature;
  if (!signed?.record || !sig || sig.algorithm !== 'Ed25519' || typeof sig.publicKey !== 'string' || typeof sig.value !== 'string') {
    return ['not a signed acceptance record (record and an Ed25519 signature expected)'];
  }
  if (pinnedKey && pinnedKey.toLowerCase() !== sig.publicKey.toLowerCase()) problems.push(`signed by ${sig.publicKey}, not by the key given (${pinnedKey})`);
  let valid = false;
  try {
    valid = ed25519.verify(Buffer.from(sig.value, 'hex'), new TextEncoder().encode(canonical(signed.record)), Buffer.from(sig.publicKey, 'hex'));
  } catch {
    valid = false;
  }
  if (!valid) problems.push('the signature does not match the content: the record was changed after it was signed, or signed by another key');
  for (const s of signed.record.specs ?? []) {
    const file = path.resolve(root, s.file);
    if (!existsSync(file)) {
      problems.push(`${s.file} (${s.interface}) is not in this checkout`);
      continue;
    }
    const here = createHash('sha256').update(readFileSync(file, 'utf8')).digest('hex');
    if (here !== s.sha256) problems.push(`${s.file} (${s.interface}) differs from the spec the record was made against (sha256 ${s.sha256.slice(0, 12)}…, here ${here.slice(0, 12)}…)`);
  }
  return problems;
}


/** The record as one self-contained page (no external assets), laid out to print as a PDF. */
export function renderRecordHtml(signed: SignedRecord): string {
  const r = signed.record;
  const rows = r.requirements
    .map((q) => `<tr class="${html(q.status)}"><td>${html(q.interface)}</td><td><code>${html(q.id)}</code></td><td>${html(q.level)}</td><td><b>${html(q.status)}</b>${q.counted ? '' : ' (not counted)'}</td><td>${html(q.text)}<div class="src">${html(q.source)}</div>${q.message ? `<div class="msg">${html(q.message)}</div>` : ''}</td></tr>`)
    .join('\n');
  const specs = r.specs.map((s) => `<li><code>${html(s.file)}</code> (${html(s.document)}, ${html(s.section)}): sha256 <code>${html(s.sha256)}</code></li>`).join('');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Acceptance record: ${html(r.profile.name)}</title>
<style>
body{font:13px/1.4 system-ui,sans-serif;margin:2em;color:#111}
table{border-collapse:collapse;width:100%}td,th{border:1px solid #bbb;padding:4px 6px;vertical-align:top;text-align:left}
tr.failed td{background:#fde8e8}tr.inconclusive td{background:#fff4d6}tr.passed td:nth-child(4){color:#146c2e}
.src{color:#555;font-size:11px;margin-top:2px}.msg{color:#8a1c1c;font-size:11px}code{font-size:11px;word-break:break-all}
@media print{body{margin:0}tr{page-break-inside:avoid}}
</style></head><body>
<h1>Acceptance record: ${html(r.profile.name)}</h1>
<p><b>Verdict: ${html(r.verdict)}</b> (exit ${r.exitCode}: ${html(r.exitReason)})</p>
<ul>
<li>Run ${html(r.runId)}, ${html(r.startedAt)} to ${html(r.finishedAt)}</li>
<li>Harness ${html(r.harness.name)} ${html(r.harness.version)}${r.harness.commit ? `, commit ${html(r.harness.commit)}` : ''}</li>
<li>Seed ${r.seed}, depth ${html(r.depth)}, ${r.strict ? 'strict (shoulds count)' : 'not strict (musts count)'}; waivers applied: ${r.waivers.length}</li>
<li>Profile <code>${html(r.profile.file)}</code></li>
<li>Specs: <ul>${specs}</ul></li>
<li>Signed (Ed25519, over the RFC 8785 canonical JSON of the record) by public key <code>${html(signed.signature.publicKey)}</code>; check it with <code>npm run verify-record -- record.json --public-key ${html(signed.signature.publicKey)}</code></li>
</ul>
<table><thead><tr><th>interface</th><th>requirement</th><th>level</th><th>verdict</th><th>what the document says</th></tr></thead>
<tbody>
${rows}
</tbody></table>
</body></html>
`;
}
