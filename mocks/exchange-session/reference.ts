import type { Reference } from '../../harness/reference.ts';
import { faults } from './faults.ts';
import { readings } from './readings.ts';
import { KEY_CREATION_PATH } from './key-path.ts';

/** The embedded exchange-session reference: its server (loaded when started), its seeded faults and the readings it implements. */
export const reference: Reference = {
  start: async (options) => (await import('./server.ts')).start(options),
  faults,
  readings,
  // The document shows no way to get a key: the reference makes them on a path of its own, as the harness's runs do.
  issueCredentials: async (server) => {
    const answer = await fetch(new URL(KEY_CREATION_PATH, server.url), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ type: 'HMAC', name: 'first' }) });
    const key = (await answer.json()) as { publicKey?: string; secret?: string };
    if (!answer.ok || !key.publicKey || !key.secret) throw new Error(`the reference made no key (${answer.status})`);
    return {
      credentials: { 'HMAC key publicKey': key.publicKey, 'HMAC key secret': key.secret },
      more: `curl -X POST ${new URL(KEY_CREATION_PATH, server.url)} -H 'content-type: application/json' -d '{"type":"HMAC","name":"second"}'   (ECDSA: {"type":"ECDSA","name":"…","publicKey":"<PEM of a P-256 key>"})`,
    };
  },
};
