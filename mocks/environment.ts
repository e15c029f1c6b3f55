/**
 * Environment trouble in front of any reference (issue 43): what a deployment's surroundings do to requests that
 * never reach it, or whose answers never reach the client, so that the self-test can prove no check takes that
 * trouble for the target's verdict. A loopback proxy in front of the reference, started with
 * `reference: { trouble: { kind, operation?, after?, spare? } }` in a profile entry (or `npm run reference -- <name>
 * --trouble <kind>[@<operation>]`), answers in the reference's stead:
 * - `throttle`: a gateway's rate limit, 429 with Retry-After: 1 and a body of the gateway's own;
 * - `unavailable`: a balancer with no healthy backend, 503 with an HTML page;
 * - `reset`: a crash loop, the connection reset once the request is in;
 * - `slow-body`: the reference's own answer, its head at once and its body dripped a byte a second.
 * Whole target, or one named operation (the spec's key, "GET /v2/players"); `after` lets the first requests through
 * (a target that goes dark mid-run), `spare` names operations never troubled (a target whose status probe alone
 * still answers; a request no operation serves, such as the probe's nonsense path, is spared then too).
 */
import http from 'node:http';
import type { Reference, ReferenceOptions } from '../harness/reference.ts';
import { matchOperation } from '../harness/spec/load.ts';
import { specForTarget } from '../harness/spec/for-target.ts';
import { definitionOf, type InterfaceName } from '../interfaces/registry.ts';
import { listen } from './plumbing.ts';
import type { RunningServer } from './types.ts';

export const TROUBLE_KINDS = ['throttle', 'unavailable', 'reset', 'slow-body'] as const;
export type TroubleKind = (typeof TROUBLE_KINDS)[number];

export interface Trouble {
  kind: TroubleKind;
  /** The one operation troubled, by the spec's key ("GET /v2/players"); absent: every request. */
  operation?: string;
  /** How many requests pass untroubled before the trouble starts. */
  after?: number;
  /** Operations (spec keys) never troubled. */
  spare?: readonly string[];
}

/** How long a dripped body takes per byte: far beyond any request time-out a profile sets. */
const DRIP_MS = 1000;

/** `throttle`, `reset@GET /v2/players`: a trouble as the command line writes it. */
export function parseTrouble(text: string): Trouble {
  const at = text.indexOf('@');
  const kind = (at < 0 ? text : text.slice(0, at)).trim();
  if (!(TROUBLE_KINDS as readonly string[]).includes(kind)) throw new Error(`trouble ${JSON.stringify(text)}: the kind is one of ${TROUBLE_KINDS.join(', ')}, then optionally @<operation> (e.g. throttle@GET /v2/players)`);
  const operation = at < 0 ? undefined : text.slice(at + 1).trim();
  return { kind: kind as TroubleKind, ...(operation ? { operation } : {}) };
}

export const describeTrouble = (t: Trouble) =>
  `${t.kind}${t.operation ? ` on ${t.operation}` : ' on every request'}${t.after ? ` after the first ${t.after} requests` : ''}${t.spare?.length ? ` but ${t.spare.join(', ')}` : ''}`;

/** The reference, able to start behind a trouble of its environment (`reference.trouble`). */
export function withEnvironmentTrouble(reference: Reference, interfaceName: InterfaceName): Reference {
  return {
    ...reference,
    async start(options: ReferenceOptions): Promise<RunningServer> {
      const { trouble, ...own } = (options.reference ?? {}) as { trouble?: Trouble | string };
      const inner = await reference.start({ ...options, reference: own });
      if (!trouble) return inner;
      const t = typeof trouble === 'string' ? parseTrouble(trouble) : trouble;
      return troubleProxy(inner, t, operationMatcher(interfaceName, options.settings), options.host);
    },
  };
}

/** Names the operation a request reaches, by the spec at the paths the profile's settings put it (and its mount). */
function operationMatcher(interfaceName: InterfaceName, settings: unknown): (method: string, url: string) => string | undefined {
  const spec = specForTarget(interfaceName, settings);
  const mount = ((definitionOf(interfaceName) as { mount?: (s: any) => string }).mount?.(settings) ?? '').replace(/\/+$/, '');
  return (method, url) => {
    const path = url.split('?')[0]!;
    const inside = mount && path.startsWith(mount) ? path.slice(mount.length) || '/' : path;
    return matchOperation(spec, method, inside).op?.key;
  };
}

/** A reference behind a trouble: what reached it, for the self-test that sets the trouble to start after the probe. */
export interface TroubledServer extends RunningServer {
  /** Requests that reached the proxy so far (the reference's own back doors, /__reference/, aside). */
  requests(): number;
  /** The operations those requests were for (spec keys). */
  operations(): string[];
  /** When the first troubled request came (epoch ms), if one has: a bound "within N s of the trouble" counts from here. */
  troubledSince(): number | undefined;
}

/**
 * A proxy in front of `inner` that troubles what `trouble` names and passes everything else on as it came. The
 * trouble is read at every request: a caller holding it may move its start (`after`) while the proxy runs. The
 * reference's own back doors (/__reference/: keys it issues, what it observed) are the test's, never troubled.
 */
export async function troubleProxy(inner: RunningServer, trouble: Trouble, operationOf: (method: string, url: string) => string | undefined, host = '127.0.0.1'): Promise<TroubledServer> {
  if (trouble.operation && !operationOf(...splitKey(trouble.operation))) throw new Error(`trouble on ${trouble.operation}: no operation of the spec is served there`);
  const to = new URL(inner.url);
  let seen = 0;
  let since: number | undefined;
  const ops = new Set<string>();
  const drips = new Set<NodeJS.Timeout>();
  const troubled = (req: http.IncomingMessage) => {
    if ((req.url ?? '').includes('/__reference/')) return false;
    seen++;
    const op = operationOf(req.method ?? 'GET', req.url ?? '/');
    if (op) ops.add(op);
    if (seen <= (trouble.after ?? 0)) return false;
    if (op && trouble.spare?.includes(op)) return false;
    // A target whose probe alone still answers answers the probe's other questions too: a path no operation serves
    // (whether a catch-all answers here) is the router's, in front of what fails.
    if (!op && trouble.spare) return false;
    const hit = !trouble.operation || op === trouble.operation;
    if (hit) since ??= Date.now();
    return hit;
  };
  const server = http.createServer();
  server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
    const hit = troubled(req);
    const kind = trouble.kind;
    if (hit && kind !== 'slow-body') {
      req.resume();
      req.on('end', () => answerInStead(kind, req, res));
      return;
    }
    const upstream = http.request({ host: to.hostname, port: to.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
      if (!hit) {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
        return;
      }
      // Slow body: the head at once, the body a byte at a time, long after any deadline.
      const chunks: Buffer[] = [];
      answer.on('data', (c: Buffer) => chunks.push(c));
      answer.on('end', () => {
        const body = Buffer.concat(chunks);
        res.writeHead(answer.statusCode ?? 502, { ...answer.headers, 'content-length': String(Math.max(body.length, 1)) });
        let i = 0;
        const tick = () => {
          if (res.destroyed) return;
          res.write(body.subarray(i, i + 1));
          i++;
          if (i >= body.length) return void res.end();
          const t = setTimeout(() => {
            drips.delete(t);
            tick();
          }, DRIP_MS);
          drips.add(t);
        };
        tick();
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
    requests: () => seen,
    operations: () => [...ops],
    troubledSince: () => since,
    close: async () => {
      for (const t of drips) clearTimeout(t);
      await outer.close();
      await inner.close();
    },
  };
}

const splitKey = (key: string): [string, string] => {
  const space = key.indexOf(' ');
  return [key.slice(0, space), key.slice(space + 1).replace(/\{[^}]+\}/g, 'x')];
};

const UNAVAILABLE_PAGE = '<html>\r\n<head><title>503 Service Temporarily Unavailable</title></head>\r\n<body>\r\n<center><h1>503 Service Temporarily Unavailable</h1></center>\r\n<hr><center>gateway</center>\r\n</body>\r\n</html>\r\n';

/** What the environment answers in the target's stead. */
function answerInStead(kind: Exclude<TroubleKind, 'slow-body'>, req: http.IncomingMessage, res: http.ServerResponse): void {
  if (kind === 'reset') {
    req.socket.destroy();
    return;
  }
  if (kind === 'throttle') {
    const body = JSON.stringify({ message: 'API rate limit exceeded' });
    res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '1', 'content-length': Buffer.byteLength(body) });
    res.end(body);
    return;
  }
  res.writeHead(503, { 'content-type': 'text/html', 'content-length': Buffer.byteLength(UNAVAILABLE_PAGE) });
  res.end(UNAVAILABLE_PAGE);
}
