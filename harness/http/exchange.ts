/** One request and what came back, as evidence: already redacted, bodies cut to a readable size. */
export interface Exchange {
  label?: string;
  operation?: string;
  request: { method: string; url: string; headers: Array<[string, string]>; body?: string };
  response?: { status: number; headers: Record<string, string>; body: string };
  /** Why no response: a time-out, a refused connection, a broken reply. */
  error?: string;
  startedAt: string;
  durationMs: number;
  /** What the spec says is wrong with the response, by generic requirement. */
  problems?: { schema: string[]; contentType: string[]; headers: string[] };
}

export const EVIDENCE_BODY_LIMIT = 8192;

export function cut(text: string, limit = EVIDENCE_BODY_LIMIT): string {
  return text.length <= limit ? text : `${text.slice(0, limit)}… (${text.length - limit} more characters)`;
}
