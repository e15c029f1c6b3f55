/**
 * A small content provider on loopback, for the variants that make the deployment fetch a provider URL (CustomM3u,
 * CustomPanel, the Custom EPG): on the embedded reference the harness serves one itself; a live deployment is given
 * one it can reach by the profile (settings.provider), or those checks are not applicable.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Provider {
  m3uUrl: string;
  panelUrl: string;
  epgUrl: string;
  username: string;
  password: string;
  close(): Promise<void>;
}

const M3U = ['#EXTM3U', '#EXTINF:-1 tvg-id="conf.one" group-title="Conformance",Conformance One', 'http://127.0.0.1/stream/one.ts', '#EXTINF:-1 tvg-id="conf.two" group-title="Conformance",Conformance Two', 'http://127.0.0.1/stream/two.ts', ''].join('\n');
const EPG = '<?xml version="1.0" encoding="UTF-8"?><tv><channel id="conf.one"><display-name>Conformance One</display-name></channel><programme start="20260101000000 +0000" stop="20260101010000 +0000" channel="conf.one"><title>News</title></programme></tv>';
const STREAMS = [{ num: 1, name: 'Conformance One', stream_id: 1, category_id: '1' }];

/** The provider the deployment can reach: the profile's, or on the reference one the harness serves itself. */
export async function providerFor(o: { settings: { provider?: Omit<Provider, 'close'> }; live: boolean }): Promise<(Omit<Provider, 'close'> & { close?: () => Promise<void> }) | undefined> {
  if (o.settings.provider) return o.settings.provider;
  return o.live ? undefined : startProvider();
}

export async function startProvider(): Promise<Provider> {
  const username = 'conformance';
  const password = 'provider-password';
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://provider');
    const send = (type: string, body: string) => {
      res.writeHead(200, { 'content-type': type, 'content-length': Buffer.byteLength(body) });
      res.end(body);
    };
    if (url.pathname === '/list.m3u') return send('audio/x-mpegurl', M3U);
    if (url.pathname === '/epg.xml') return send('application/xml', EPG);
    if (url.pathname === '/panel/player_api.php' && url.searchParams.get('username') === username && url.searchParams.get('password') === password) {
      return send('application/json', JSON.stringify(url.searchParams.get('action') ? STREAMS : { user_info: { username, status: 'Active', auth: 1 }, server_info: {} }));
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    m3uUrl: `${base}/list.m3u`,
    panelUrl: `${base}/panel`,
    epgUrl: `${base}/epg.xml`,
    username,
    password,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
