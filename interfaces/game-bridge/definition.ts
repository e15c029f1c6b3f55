import { defineInterface, type InterfaceDefinition } from '../definition.ts';
import { bridgeEntry } from './settings.ts';

// Annotated, so that the profile's types (derived from the registry) never wait on this initializer.
export const gameBridge: InterfaceDefinition<'game-bridge', ReturnType<typeof bridgeEntry>> = defineInterface({
  name: 'game-bridge',
  title: 'Interface C of 002_e31f548efc8ec0bb.txt, the game-server bridge (/v2/...)',
  profileSchema: bridgeEntry,
});
