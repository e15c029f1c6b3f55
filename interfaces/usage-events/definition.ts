import { defineInterface, type InterfaceDefinition } from '../definition.ts';
import { usageEventsEntry } from './settings.ts';

// Annotated, so that the profile's types (derived from the registry) never wait on this initializer.
export const usageEvents: InterfaceDefinition<'usage-events', ReturnType<typeof usageEventsEntry>> = defineInterface({
  name: 'usage-events',
  title: 'Interface D of 002_e31f548efc8ec0bb.txt, usage events for metered billing (/v1/events)',
  profileSchema: usageEventsEntry,
});
