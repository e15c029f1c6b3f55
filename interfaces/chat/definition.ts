import { defineInterface, type InterfaceDefinition } from '../definition.ts';
import { chatEntry } from './settings.ts';

// Annotated, so that the profile's types (derived from the registry) never wait on this initializer.
export const chat: InterfaceDefinition<'chat', ReturnType<typeof chatEntry>> = defineInterface({
  name: 'chat',
  title: 'Interface E of 002_e31f548efc8ec0bb.txt, the chat endpoint behind a sliding-window rate limiter (/api/chat)',
  profileSchema: chatEntry,
  settingsHelp: [
    'chat:',
    '  settings:',
    '    windowMs: 60000                  # window length in milliseconds',
    '    maxRequests: 20                  # requests per client identifier per window',
    '    # instances: 1                     # instances behind the balancer (counters are per instance)',
    '    # clientAddressesPreserved: true   # false when a proxy rewrites X-Forwarded-For',
    '    # developmentMode: false           # true when the deployment runs in development mode',
    '    # replyMs: 0                       # how long an allowed reply takes (its model\'s time), in ms',
    '    # requestMembers: {}               # members a chat request needs beside messages (a model name, say)',
  ].join('\n'),
});
