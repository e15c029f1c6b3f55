/**
 * What an error thrown by a check says: a deviation of the target (with its evidence), the condition never seen, or
 * the harness's or the environment's trouble; and how it may be shown (redacted) in Playwright's own report.
 */
import type { Exchange } from './http/exchange.ts';
import { HarnessError, TargetError, type Client } from './http/client.ts';
import type { Secrets } from './secrets.ts';
import { Inconclusive, NotTested, RequirementViolation } from './verdicts.ts';

// expect() messages carry terminal colours; evidence and reports are read in a browser.
const stripColours = (text: string) => text.replace(/\u001b\[[0-9;]*m/g, '');

/** An error as Playwright may show it: its message and stack, redacted, and nothing else of the original. */
export function redactedError(e: unknown, secrets: Secrets): Error {
  const out = new Error(secrets.redact(messageOf(e)));
  out.stack = secrets.redact(e instanceof Error && e.stack ? stripColours(e.stack) : out.message);
  return out;
}

export function messageOf(e: unknown): string {
  return stripColours(e instanceof Error ? e.message : String(e));
}

/** The exchanges a deviation shows: those it names, the one that got no answer, or else what the check sent. */
export function evidenceOf(e: unknown, sent: Exchange[]): Exchange[] {
  if (e instanceof RequirementViolation && e.exchanges?.length) return e.exchanges;
  return e instanceof TargetError ? [e.exchange] : sent;
}

/**
 * An assertion of Playwright's expect: it carries its matcher's result, or (a value of the wrong type for the matcher,
 * a count that is a string) says so in a message that starts with the expect call.
 */
const isExpectError = (e: unknown) => e instanceof Error && ('matcherResult' in e || /^expect\(/.test(messageOf(e)));

/**
 * An assertion library's message in the harness's own words: "expected X, found Y", after what the check said of it
 * (expect's own message), without the matcher's signature ("expect(received).toBe(expected) // Object.is equality").
 */
export function inOwnWords(message: string): string {
  const lines = message.split('\n');
  const signature = lines.findIndex((l) => /^expect\(/.test(l.trim()));
  if (signature < 0) return message;
  const said = lines.slice(0, signature).join(' ').trim();
  const value = (label: string) => lines.slice(signature + 1).find((l) => l.startsWith(`${label}:`))?.slice(label.length + 1).trim();
  const expected = value('Expected') ?? value('Expected pattern') ?? value('Expected substring') ?? value('Expected length');
  const found = value('Received') ?? value('Received string') ?? value('Received length');
  // Its own lines already say "not 5" for a negated matcher.
  const words = expected !== undefined || found !== undefined ? `expected ${expected ?? '(see the check)'}${found === undefined ? '' : `, found ${found}`}` : lines.slice(signature + 1).filter(Boolean).join('; ');
  return said ? `${said}: ${words}` : words;
}

/**
 * What an error thrown by a check says: a deviation of the target (with its evidence), or the harness's or the
 * environment's trouble. A request that got no answer is a deviation only while the target answers others normally.
 */
export async function classify(e: unknown, api: Client | undefined): Promise<{ kind: 'deviation' | 'no-answer' | 'not-tested' | 'inconclusive'; message: string }> {
  const message = messageOf(e);
  if (e instanceof NotTested) return { kind: 'not-tested', message };
  if (e instanceof RequirementViolation) return { kind: 'deviation', message };
  if (isExpectError(e)) return { kind: 'deviation', message: inOwnWords(message) };
  if (e instanceof TargetError) {
    if (e.kind === 'given-up') return { kind: 'inconclusive', message: `outage: ${message}` };
    // Evidence against the request's own rule only beside a control: the target, and that operation, answer others.
    const why = api ? await api.whyNotAnswering(e.exchange) : undefined;
    if (why) return { kind: 'inconclusive', message: `outage: ${message}; ${why}` };
    return { kind: 'no-answer', message: `${message}, while the target answers other requests normally, ${e.exchange.operation ?? 'this operation'} among them` };
  }
  if (e instanceof Inconclusive) return { kind: 'inconclusive', message };
  if (e instanceof HarnessError) return { kind: 'inconclusive', message: message.startsWith('harness') ? message : `harness error (not a verdict on the target): ${message}` };
  return { kind: 'inconclusive', message: `the check broke (a harness error, not a verdict on the target): ${message}` };
}

