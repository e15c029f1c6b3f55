import { defineInterface, type InterfaceDefinition } from '../definition.ts';
import { bridgeEntry } from './settings.ts';

// Annotated, so that the profile's types (derived from the registry) never wait on this initializer.
export const gameBridge: InterfaceDefinition<'game-bridge', ReturnType<typeof bridgeEntry>> = defineInterface({
  name: 'game-bridge',
  title: 'Interface C of 002_e31f548efc8ec0bb.txt, the game-server bridge (/v2/...)',
  profileSchema: bridgeEntry,
  settingsHelp: [
    'game-bridge:',
    '  credentials: { authKey: BRIDGE_AUTH_KEY }   # the variable that holds auth.key of config.yaml',
    '  settings:',
    '    maxList: 50                               # players.max-list',
    '    endpoints: { log: true, status: true, players: true, info: true }   # v2-endpoints.*',
    '    # platform: paper                           # the lowercase platform identifier /v2/info must report (optional)',
    '    # onlinePlayers: 60                         # the true number of players online, if you know it (optional)',
    '    # logRequiresContentType: false             # true: POST /v2/log reads a body only when Content-Type names JSON (state it when you know)',
  ].join('\n'),
});
