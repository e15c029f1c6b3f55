/** The three configuration documents of Interface B: their names, revision headers and how each is saved. */
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
