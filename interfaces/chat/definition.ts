import { defineInterface, type InterfaceDefinition } from '../definition.ts';
import { chatEntry } from './settings.ts';

// Annotated, so that the profile's types (derived from the registry) never wait on this initializer.
export const chat: InterfaceDefinition<'chat', ReturnType<typeof chatEntry>> = defineInterface({
  name: 'chat',
  title: 'Interface E of 002_e31f548efc8ec0bb.txt, the chat endpoint behind a sliding-window rate limiter (/api/chat)',
  profileSchema: chatEntry,
});
