import { expectedMs } from '../../harness/budget.ts';
import { answered, isRefused } from '../../harness/answers.ts';
import { defineSuite } from '../../harness/interface.ts';
import { notTheApi } from '../../harness/probe.ts';
import type { Reply } from '../../harness/http/client.ts';
import { unifiedExchange } from '../../interfaces/unified-exchange/definition.ts';
import { KEY_PARTS, KEY_ROLES, type UnifiedExchangeSettings } from '../../interfaces/unified-exchange/settings.ts';
import { authenticate } from './auth.ts';
import { namedRoles, uxScope } from './scope.ts';
import { restoreFunds } from './restore.ts';

const TIME = '/api/v3/public/time';
const ACCOUNT_INFO = '/api/v3/account/info';

/** What the unified-exchange suite does with its interface: how it signs, probes and plans. */
export const suite = defineSuite(unifiedExchange, {
  authenticate,
  restore: restoreFunds,
  // The public server time proves the base URL; then each key the profile names reads its own account information
  // (harmless, documented, and served to every key: U-NS-ACCOUNT-PERMISSIONS), so that a wrong value or a skewed
  // clock ends the run naming the key, instead of every signed check blaming the target.
  probe: ({ credentialEnv }) => {
    const variablesOf = (role: string) => KEY_PARTS.map((p) => credentialEnv[`${role}_${p}`]).filter(Boolean).join(', ');
    const keyProbe = (role: string) => ({
      request: { method: 'GET', path: ACCOUNT_INFO, authenticate: true, credential: role, label: `probe: the ${role} key` },
      judge: (reply: Reply) => {
        const what = `GET ${ACCOUNT_INFO} signed with the ${role} key`;
        // Refused, but not as a path the deployment does not serve (404: notTheApi's to name), the key is what it refused.
        if (isRefused(reply) && !answered(reply, 404)) {
          return `${what} was answered ${reply.status}: the target refused the key ${role}; check its variables (${variablesOf(role)}), and this machine's clock (the signature carries its time)`;
        }
        return notTheApi(reply, what);
      },
    });
    return {
      request: { method: 'GET', path: TIME, label: 'probe' },
      judge: (reply) => notTheApi(reply, `GET ${TIME}`),
      credentials: KEY_ROLES.filter((role) => credentialEnv[`${role}_apiKey`]).map(keyProbe),
    };
  },
  notApplicable: ({ profile, settings, credentials }) => uxScope(settings as UnifiedExchangeSettings, { writes: profile.writes, roles: namedRoles(credentials) }) as { operations: Record<string, string>; requirements: Record<string, string> },
  // The market-data properties (book, candles: cheap reads), the trading properties (an order placed, looked up and
  // cancelled per case), the generic checks over 59 operations, and the countdown's waits (two deadlines of the range's
  // minimum plus grace, three times).
  plannedMs: ({ profile, settings, depth, live, workers }) => {
    const s = settings as UnifiedExchangeSettings | undefined;
    const countdownMs = 3 * 2 * ((s?.countdown?.range?.min ?? 5) * 1000 + (s?.countdown?.graceMs ?? 200));
    return expectedMs({ requests: depth * (100 * 2 * 2 + 100 * 12) + 59 * 6 * 3 + 400, waitMs: countdownMs }, profile, live, workers);
  },
});
