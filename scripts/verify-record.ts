/**
 * npm run verify-record -- <record.json> [--public-key HEX]
 * Checks a signed acceptance record (npm run conformance -- --record): its Ed25519 signature over the content, and each
 * spec's hash against this checkout's spec file. --public-key pins the signer a buyer expects: without it, any key's
 * signature is accepted as long as it matches the content (and the signer's key is printed).
 * Exit 0: the signature is valid (genuine when --public-key pins the signer); 1: edited, signed by another key, or made against other specs; 2: not a record, unreadable.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { verifyRecord, type SignedRecord } from '../harness/acceptance/record.ts';
import { ROOT } from '../harness/paths.ts';

const HELP = `npm run verify-record -- <record.json> [--public-key HEX]

Checks a signed acceptance record (npm run conformance -- --record): its Ed25519 signature over the content, and each
spec's hash against this checkout's spec file.

Options:
  --public-key HEX       the signer's public key the buyer expects (without it, any key that signed the content passes)
  --help                 this text

Exit codes: 0 signature valid ("genuine" with --public-key; without it, "signer not pinned"); 1 edited, signed by another key, or made against other specs; 2 not a record, or unreadable.`;

let values: { 'public-key'?: string; help?: boolean };
let positionals: string[];
try {
  ({ values, positionals } = parseArgs({ options: { 'public-key': { type: 'string' }, help: { type: 'boolean', short: 'h' } }, allowPositionals: true }));
} catch (e) {
  console.error(`verify-record: ${(e as Error).message}`);
  process.exit(2);
}
if (values.help) {
  console.log(HELP);
  process.exit(0);
}
if (positionals.length !== 1) {
  console.error('usage: npm run verify-record -- <record.json> [--public-key HEX]');
  process.exit(2);
}
let signed: SignedRecord;
try {
  signed = JSON.parse(readFileSync(positionals[0]!, 'utf8')) as SignedRecord;
} catch (e) {
  console.error(`verify-record: cannot read ${positionals[0]}: ${(e as Error).message.split('\n')[0]}`);
  process.exit(2);
}
const problems = verifyRecord(signed, ROOT, values['public-key']);
if (problems.length === 1 && problems[0]!.startsWith('not a signed')) {
  console.error(`verify-record: ${positionals[0]}: ${problems[0]}`);
  process.exit(2);
}
if (problems.length) {
  console.error(`verify-record: ${positionals[0]} is NOT genuine:\n  ${problems.join('\n  ')}`);
  process.exit(1);
}
const r = signed.record;
const facts = `${r.specs.length} specs match this checkout; profile ${r.profile.name}, verdict ${r.verdict}, ${r.requirements.length} requirements`;
// Without a pinned signer, a valid signature proves only that the content was not changed after someone signed it:
// anyone with any key could have. It is not called genuine then.
if (values['public-key']) console.log(`verify-record: ${positionals[0]} is genuine: signed by the Ed25519 key given (${signed.signature.publicKey}); ${facts}`);
else console.log(`verify-record: ${positionals[0]}: signature valid, signer not pinned (Ed25519 key ${signed.signature.publicKey}; give the key you expect with --public-key to know who signed it); ${facts}`);
