/** What every reference server shares: its running handle, body reading, listening and closing, and fault switches. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Fault, RunningServer } from './types.ts';

export const MAX_BODY_BYTES = 1 << 20;

/** Resolves to the body as text, or undefined when it exceeds `limit` bytes. */
export function readBody(req: http.IncomingMessage, limit = MAX_BODY_BYTES): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) chunks.push(chunk);
    });
    req.on('end', () => resolve(size > limit ? undefined : Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** Writes a JSON body with its length; headers given (in any letter case) override the content type. */
export function sendJson(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  const given = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...given, 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

/** Listens on loopback (a free port for 0) and returns the handle that closes the server and its open connections. */
export async function listen(server: http.Server, host = '127.0.0.1', port = 0, onClose?: () => void): Promise<RunningServer> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        onClose?.();
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
      }),
  };
}

/**
 * The switch of one server's seeded faults: one name, or several joined by "+" (the self-test runs faults of one
 * reference together where they change different parts of it). Names are typed from the catalogue (declared
 * `as const`), so a misspelled switch does not compile; an unknown fault asked for at start-up is refused.
 */
export function faultSwitch<F extends readonly Fault[]>(catalogue: F, interfaceName: string, fault: string | undefined): (name: F[number]['name']) => boolean {
  const on = new Set(fault ? fault.split('+') : []);
  for (const one of on) {
    if (!catalogue.some((f) => f.name === one)) throw new Error(`unknown ${interfaceName} fault "${one}"; known faults: ${catalogue.map((f) => f.name).join(', ')}`);
  }
  return (name) => on.has(name);
}
