/**
 * The control of a refusal by an endpoint that must not exist (the user endpoints with the user UI off, the library
 * with the library disabled): no form of the request is one the deployment would accept, so the nearest request with
 * "the one thing made right" is another of the same harness, with the same admin token, to an endpoint that exists.
 * Accepted, it shows the refusal is the deployment's answer to that endpoint, not a gateway or a token refusing
 * everything (which would make any refusal look like conformance).
 */
import type { Reply } from '../../harness/http/client.ts';
import type { Proxy } from './proxy.ts';

export const controlOfTheApi = (proxy: Proxy): Promise<Reply> =>
  proxy.admin({ method: 'GET', path: '/api/v1/status', label: 'GET /api/v1/status with the admin token (the control: the deployment accepts the harness\'s requests)' });
