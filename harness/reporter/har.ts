/**
 * A failure's exchanges as HTTP Archive 1.2 (http://www.softwareishard.com/blog/har-12-spec/), written beside its
 * cassette: browser devtools, Postman and Insomnia open it, so a vendor sees the requests in tools of their own. Made
 * from the redacted exchanges (credentials stay {{secret:...}} tokens) and redacted again when written, like every
 * artefact.
 */
import type { Exchange } from '../http/exchange.ts';

type NameValue = { name: string; value: string };

const pairs = (headers: Iterable<[string, string]>): NameValue[] => [...headers].map(([name, value]) => ({ name, value }));
const mimeOf = (headers: Iterable<[string, string]>): string => [...headers].find(([k]) => k.toLowerCase() === 'content-type')?.[1] ?? '';

function queryOf(url: string): NameValue[] {
  try {
    return [...new URL(url).searchParams].map(([name, value]) => ({ name, value }));
  } catch {
    return [];
  }
}

function entry(ex: Exchange) {
  const requestBody = ex.request.body;
  const response = ex.response;
  return {
    startedDateTime: new Date(ex.startedAt).toISOString(),
    time: ex.durationMs,
    request: {
      method: ex.request.method,
      url: ex.request.url,
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: pairs(ex.request.headers),
      queryString: queryOf(ex.request.url),
      ...(requestBody !== undefined ? { postData: { mimeType: mimeOf(ex.request.headers), text: requestBody } } : {}),
      headersSize: -1,
      bodySize: requestBody === undefined ? 0 : Buffer.byteLength(requestBody),
    },
    response: {
      // No answer (a time-out, a reset) is status 0, as browsers record an aborted request; the reason is the comment.
      status: response?.status ?? 0,
      statusText: '',
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: pairs(Object.entries(response?.headers ?? {})),
      content: { size: response ? Buffer.byteLength(response.body) : 0, mimeType: mimeOf(Object.entries(response?.headers ?? {})), text: response?.body ?? '' },
      redirectURL: response?.headers.location ?? '',
      headersSize: -1,
      bodySize: response ? Buffer.byteLength(response.body) : -1,
      ...(ex.error ? { comment: ex.error } : {}),
    },
    cache: {},
    timings: { send: 0, wait: ex.durationMs, receive: 0 },
    ...(ex.label ? { comment: ex.label } : {}),
  };
}

export function toHar(exchanges: readonly Exchange[], creator: { name: string; version: string }, comment?: string): object {
  return { log: { version: '1.2', creator, entries: exchanges.map(entry), ...(comment ? { comment } : {}) } };
}
