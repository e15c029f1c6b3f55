import { expectedMs } from '../../harness/budget.ts';
import { defineSuite } from '../../harness/interface.ts';
import { chat } from '../../interfaces/chat/definition.ts';
import type { ChatSettings } from '../../harness/profile/types.ts';
import { notTheApi } from '../../harness/probe.ts';
import { showed } from '../../harness/answers.ts';
import { chatScope, notApplicableIn } from './scope.ts';
import { chatRequest, replyWaitMs } from './request.ts';

/** What the chat suite does with its interface: how it authenticates, probes and plans. */
export const suite = defineSuite(chat, {
  // A valid chat request from a client address of its own: role user and plain text, what every reading accepts, and
  // what the profile says the deployment asks for beside it.
  probe: ({ address, settings }) => {
    const what = 'POST /api/chat with a one-message body';
    return {
      request: { method: 'POST', path: '/api/chat', headers: { 'X-Forwarded-For': address() }, json: chatRequest(settings as ChatSettings), unpaced: true, provokesLimit: true, label: 'probe' },
      judge: (reply) => {
        if (showed(reply, 401, 403)) {
          return `${what} was answered ${reply.status}: something in front of the chat endpoint asks for credentials (its authentication is not shown by the document)`;
        }
        // The body of a successful reply is not shown (E-NS-SUCCESS-BODY): a stream of server-sent events is the API too.
        return notTheApi(reply, what, { successBodyOpen: true });
      },
    };
  },
  // The suite decides the same from the target it reaches (the embedded reference listens on 127.0.0.1).
  notApplicable: ({ settings, baseUrl: live }) => {
    const baseUrl = live ?? 'http://127.0.0.1';
    return { operations: {}, requirements: notApplicableIn(chatScope(settings as ChatSettings, baseUrl)) };
  },
  // Each generated schedule and the limit test sit out about a window; a few requests per client and window.
  plannedMs: ({ profile, settings, baseUrl, depth, live, workers }) => {
    const s = settings as ChatSettings;
    // Where no counting check applies, only a few dozen requests are left (bad bodies, the header-less burst).
    if (chatScope(s, baseUrl ?? 'http://127.0.0.1').counting) return expectedMs({ requests: 40 + 4 * s.maxRequests * (s.instances ?? 1), waitMs: replyWaitMs(s, 4) }, profile, live, workers);
    // Where replies wait for a model, a few of them per window (each client's allowance goes at once).
    const windows = 3 + 3 * depth;
    return expectedMs({ requests: windows * 6 * (s.maxRequests + 2) * (s.instances ?? 1), waitMs: windows * (1.2 * s.windowMs + replyWaitMs(s, 4)) }, profile, live, workers);
  },
});
