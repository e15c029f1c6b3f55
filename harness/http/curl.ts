/**
 * A curl command that sends a recorded request again, for the console and the report: a person reading a failure can
 * paste it. It is built from the redacted exchange, so no secret is in it: a credential is the environment variable
 * the profile names for it ("$BRIDGE_AUTH_KEY"), which the shell fills in. A value derived from a secret (a
 * signature, a token from a login) cannot be: it stays a placeholder, and the line says the request is signed, for
 * which `npm run replay -- --resend` is the way to send it again.
 */
import type { Exchange } from './exchange.ts';

const TOKEN = /\{\{secret:([A-Za-z0-9_]+)(\|[^}]*)?\}\}/g;
/** Headers curl sets itself, or that would be wrong when sent again as they were. */
const LEFT_OUT = new Set(['content-length', 'host', 'connection', 'transfer-encoding']);
const BODY_LIMIT = 2000;

/** One shell word: literal text in single quotes, each plain secret as "$VARIABLE" (a derived one stays a placeholder). */
function word(text: string, variables: Readonly<Record<string, string>>, derived: { seen: boolean }): string {
  const parts: string[] = [];
  let at = 0;
  const literal = (t: string) => t && parts.push(`'${t.replace(/'/g, `'\\''`)}'`);
  for (const m of text.matchAll(TOKEN)) {
    const variable = m[2] === undefined ? variables[m[1]!] : undefined;
    if (variable === undefined) {
      if (m[2] !== undefined || !variables[m[1]!]) derived.seen = true;
      continue;
    }
    literal(text.slice(at, m.index));
    parts.push(`"$${variable}"`);
    at = m.index! + m[0].length;
  }
  literal(text.slice(at));
  return parts.length ? parts.join('') : "''";
}

/**
 * The command, and whether it carries a value derived from a secret (then it cannot be sent again as it is).
 * `variables`: secret name -> the environment variable that holds it (the profile's credentials).
 */
export function curlOf(ex: Pick<Exchange, 'request'>, variables: Readonly<Record<string, string>>): { line: string; signed: boolean } {
  const derived = { seen: false };
  const args = ['curl', '-sS', '-i', '-X', ex.request.method, word(ex.request.url, variables, derived)];
  for (const [name, value] of ex.request.headers) {
    if (LEFT_OUT.has(name.toLowerCase())) continue;
    args.push('-H', word(`${name}: ${value}`, variables, derived));
  }
  const body = ex.request.body;
  if (body !== undefined && body !== '') args.push('--data-raw', word(body.length > BODY_LIMIT ? body.slice(0, BODY_LIMIT) : body, variables, derived));
  return { line: args.join(' '), signed: derived.seen };
}
