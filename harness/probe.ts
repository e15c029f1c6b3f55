import { request } from 'undici';

/** Asks a live target anything at all: any HTTP answer (a 404 included) shows it is there. */
export async function probe(baseUrl: string, timeoutMs: number): Promise<string | undefined> {
  try {
    const res = await request(new URL('/', baseUrl), {
      method: 'GET',
      signal: AbortSignal.timeout(timeoutMs),
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
    });
    await res.body.dump();
    return undefined;
  } catch (e) {
    const err = e as Error & { code?: string };
    if (err.name === 'TimeoutError' || err.name === 'AbortError' || /timeout/i.test(err.code ?? '')) return `no answer within ${timeoutMs} ms`;
    return err.code ? `${err.code} (${err.message})` : err.message;
  }
}
