/**
 * The path on which the reference makes API keys (the document shows no way to get one): the server serves it, and
 * `npm run reference` asks it for a first key without loading the server's modules itself.
 */
export const KEY_CREATION_PATH = '/__reference/api-keys';
