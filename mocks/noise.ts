/**
 * The noisy variant of every reference (`reference: { noise: true }` in a profile entry), for the behaviour diff's
 * noise measurement (issue 25): a deployment whose answers vary from one request to the next where no client should
 * care. A loopback proxy in front of the reference adds a member `jitter` to about half of its JSON object answers,
 * a number or a string at random. Two runs of the same deployment then differ on `jitter` and nowhere else, and the
 * diff must count it as noise with its rate, without any declaration in the spec.
 */
import http from 'node:http';
import type { Reference, ReferenceOptions } from '../harness/reference.ts';
import { listen } from './plumbing.ts';
import type { RunningServer } from './types.ts';

export const NOISE_MEMBER = 'jitter';

/** The reference, able to start in its noisy variant. */
export function withNoiseVariant(reference: Reference): Reference {
  return {
    ...reference,
    async start(options: ReferenceOptions): Promise<RunningServer> {
      const { noise, ...own } = (options.reference ?? {}) as { noise?: boolean };
      const inner = await reference.start({ ...options, reference: own });
      if (!noise) return inner;
      return noisyProxy(inner, options.host);
    },
  };
}

async function noisyProxy(inner: RunningServer, host = '127.0.0.1'): Promise<RunningServer> {
  const to = new URL(inner.url);
  const server = http.createServer((req, res) => {
    const upstream = http.request({ host: to.hostname, port: to.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
      const type = String(answer.headers['content-type'] ?? '');
      if (!type.includes('json')) {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
        return;
      }
      const chunks: Buffer[] = [];
      answer.on('data', (c: Buffer) => chunks.push(c));
      answer.on('end', () => {
        let body = Buffer.concat(chunks);
        try {
          const value = JSON.parse(body.toString('utf8')) as unknown;
          if (value && typeof value === 'object' && !Array.isArray(value) && Math.random() < 0.5) {
            body = Buffer.from(JSON.stringify({ ...value, [NOISE_MEMBER]: Math.random() < 0.5 ? Math.random() : `t${Date.now()}` }));
          }
        } catch {
          // Not JSON after all: passed on as it came.
        }
        res.writeHead(answer.statusCode ?? 502, { ...answer.headers, 'content-length': String(body.length) });
        res.end(body);
      });
    });
    upstream.on('error', () => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    req.pipe(upstream);
  });
  const outer = await listen(server, host, 0);
  return {
    url: outer.url,
    close: async () => {
      await outer.close();
      await inner.close();
    },
  };
}
