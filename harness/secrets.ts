/**
 * Secrets of a run and their redaction. Every credential value, and every value the harness derives from one
 * (another letter case, a prefix), is registered here; `redact` replaces each occurrence with a token that names the
 * credential and the derivation, so that a cassette can be replayed with the credentials of another profile.
 */
import { parseJson } from './parse-json.ts';

export type Derivation = 'exact' | 'upper' | 'lower' | 'swapcase' | `prefix:${number}`;

const TOKEN = /\{\{secret:([A-Za-z0-9_]+)(?:\|([a-z]+(?::\d+)?))?\}\}/g;

export function derive(value: string, how: Derivation): string {
  if (how === 'exact') return value;
  if (how === 'upper') return value.toUpperCase();
  if (how === 'lower') return value.toLowerCase();
  if (how === 'swapcase') return [...value].map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase())).join('');
  const n = Number(how.slice('prefix:'.length));
  return value.slice(0, n);
}

export function token(name: string, how: Derivation = 'exact'): string {
  return how === 'exact' ? `{{secret:${name}}}` : `{{secret:${name}|${how}}}`;
}

/** Header names whose values are credentials whatever they hold (a wrong key may still be someone's key). */
const SENSITIVE_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie', 'x-auth-key', 'x-api-key']);

export class Secrets {
  private readonly values = new Map<string, string>();
  private readonly known: Array<{ value: string; replacement: string }> = [];
  private readonly sensitiveHeaders = new Set(SENSITIVE_HEADERS);
  private readonly shown = new Set<string>();
  private readonly anyCase = new Map<string, RegExp>();

  /** Registers a credential under its profile name. */
  add(name: string, value: string): void {
    if (!value) return;
    this.values.set(name, value);
    this.remember(value, token(name));
    // Compiled once: redaction runs on every captured exchange.
    if (value.length >= 6) this.anyCase.set(name, new RegExp(escapeRegExp(value), 'gi'));
    else this.anyCase.delete(name);
  }

  /** Returns a value derived from a credential, registered for redaction before anyone can log it. */
  derived(name: string, how: Derivation): string {
    const base = this.get(name);
    const value = derive(base, how);
    if (value && value !== base) this.remember(value, token(name, how));
    return value;
  }

  get(name: string): string {
    const v = this.values.get(name);
    if (v === undefined) throw new Error(`credential ${name} is not set`);
    return v;
  }

  has(name: string): boolean {
    return this.values.has(name);
  }

  markSensitiveHeader(name: string): void {
    this.sensitiveHeaders.add(name.toLowerCase());
  }

  isSensitiveHeader(name: string): boolean {
    return this.sensitiveHeaders.has(name.toLowerCase());
  }

  /**
   * Replaces every registered secret (longest first, so a prefix never hides the rest of a key) in a text.
   * Replacements go through private-use markers first, so that a short secret (a two-letter prefix) never
   * matches inside a token an earlier replacement wrote.
   */
  redact(text: string): string {
    // Most captured text holds no secret: find that out before building anything (this runs on every exchange).
    if (!this.mentionsSecret(text)) return text;
    const tokens: string[] = [];
    const mark = (replacement: string) => {
      tokens.push(replacement);
      return `\uE000${String.fromCharCode(0xe100 + tokens.length - 1)}\uE001`;
    };
    let out = text;
    for (const { value, replacement } of this.known) {
      if (out.includes(value)) out = out.split(value).join(mark(replacement));
    }
    // Values differing from a key only in letter case are derived from it too.
    for (const [name, pattern] of this.anyCase) {
      pattern.lastIndex = 0;
      if (pattern.test(out)) out = out.replace(pattern, () => mark(`{{secret:${name}|anycase}}`));
    }
    return tokens.length ? out.replace(/\uE000([\uE100-\uF8FF])\uE001/g, (_m, c: string) => tokens[c.charCodeAt(0) - 0xe100]) : out;
  }

  private mentionsSecret(text: string): boolean {
    for (const { value } of this.known) if (text.includes(value)) return true;
    for (const pattern of this.anyCase.values()) {
      pattern.lastIndex = 0;
      if (pattern.test(text)) return true;
    }
    return false;
  }

  /**
   * Registers the target's own secrets a JSON body carries: the string value of every member named in `members`
   * (the spec's x-secret-members), at any depth, as `target_<member>`. A body that names none is not parsed; `parsed`
   * gives the body's JSON where the caller has parsed it already (undefined: not JSON).
   */
  learnTargetSecrets(body: string | undefined, members: readonly string[], parsed: () => unknown = () => parseJson(body!)): void {
    if (!body || members.length === 0 || !members.some((m) => body.includes(`"${m}"`))) return;
    const value = parsed();
    const names = new Set(members);
    const walk = (v: unknown): void => {
      if (Array.isArray(v)) v.forEach(walk);
      else if (v && typeof v === 'object') {
        for (const [k, x] of Object.entries(v)) {
          // Values too short to be anyone's secret (an empty string) would only blot out ordinary text.
          if (names.has(k) && typeof x === 'string' && x.length >= 4 && !this.shown.has(x)) this.remember(x, token(targetSecretName(k)));
          else walk(x);
        }
      }
    };
    walk(value);
  }

  /** Registers a value the harness made up (a deliberately wrong key) as safe to show in sensitive headers. */
  harmless(value: string): string {
    this.shown.add(value);
    return value;
  }

  /**
   * Redacts a header value. A sensitive header keeps an auth scheme word, the tokens of secrets it is known to hold
   * and values the harness made up; anything else in it is unknown and may be somebody's credential.
   */
  redactHeader(name: string, value: string): string {
    const redacted = this.redact(value);
    if (!this.isSensitiveHeader(name) || this.shown.has(value)) return redacted;
    const scheme = /^(Bearer|Basic|Digest|HMAC[-\w]*)\s+/i.exec(redacted)?.[0] ?? '';
    const rest = redacted.slice(scheme.length);
    return rest.replace(new RegExp(TOKEN.source, 'g'), '').trim() === '' ? redacted : `${scheme}{{redacted}}`;
  }

  /**
   * The inverse of `redact` for replays: tokens become the current credentials' values. A secret of the target's
   * (`target_<member>`) is no credential of ours: it stays a token, for restore to find in the target's own state.
   */
  expand(text: string): string {
    return text.replace(TOKEN, (m, name: string, how?: string) => {
      if (name.startsWith('target_') && !this.values.has(name)) return m;
      const base = this.get(name);
      if (!how || how === 'anycase') return base;
      return derive(base, how as Derivation);
    });
  }

  private remember(value: string, replacement: string): void {
    if (this.known.some((k) => k.value === value)) return;
    this.known.push({ value, replacement });
    this.known.sort((a, b) => b.value.length - a.value.length);
  }
}

/** The name a secret of the target is redacted under: `{{secret:target_password}}`. */
export const targetSecretName = (member: string) => `target_${member.replace(/[^A-Za-z0-9_]/g, '_')}`;

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
