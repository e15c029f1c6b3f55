/** The three configuration documents of Interface B: their names, revision headers and how each is saved. */
import type { Reply } from '../../harness/http/client.ts';

export type Doc = 'main' | 'sources' | 'apiProxy';
export const DOCS: readonly Doc[] = ['main', 'sources', 'apiProxy'];

export const REVISION_HEADER: Record<Doc, string> = {
  main: 'x-config-main-revision',
  sources: 'x-config-sources-revision',
  apiProxy: 'x-config-api-proxy-revision',
};

/** How each document is saved (the document's table). */
export const SAVE: Record<Doc, { method: 'POST' | 'PUT'; path: string; operation: string }> = {
  main: { method: 'POST', path: '/api/v1/config/main', operation: 'POST /api/v1/config/main' },
  sources: { method: 'POST', path: '/api/v1/config/sources', operation: 'POST /api/v1/config/sources' },
  apiProxy: { method: 'PUT', path: '/api/v1/config/apiproxy', operation: 'PUT /api/v1/config/apiproxy' },
};

/**
 * A document's revision as its header carries it. Its encoding is not shown (B-NS-REVISION-ENCODING): hex, another
 * encoding, bare or quoted as an entity tag. A client sends back in If-Match exactly what the header carried, so the
 * value is kept as it is (a deployment that uses entity tags may refuse one stripped of its quotes).
 */
export const revisionOf = (r: Pick<Reply, 'headers'>, doc: Doc): string | undefined => r.headers[REVISION_HEADER[doc]];

/** The reading of B-NS-REVISION-ENCODING a revision shows, where one of the spec's readings describes it. */
export function revisionEncoding(revision: string): 'bare-hex' | 'quoted-etag' | 'base64url' | undefined {
  if (/^[0-9a-f]{64}$/.test(revision)) return 'bare-hex';
  if (/^"[0-9a-f]{64}"$/.test(revision)) return 'quoted-etag';
  if (/^[A-Za-z0-9_-]{43}$/.test(revision)) return 'base64url';
  return undefined;
}
