import { defineInterface, type InterfaceDefinition } from '../definition.ts';
import { toyEntry } from './settings.ts';

// Annotated, so that the profile's types (derived from the registry) never wait on this initializer.
export const toyInterface: InterfaceDefinition<'toy', ReturnType<typeof toyEntry>> = defineInterface({
  name: 'toy',
  title: 'the toy interface of the template (templates/new-interface)',
  profileSchema: toyEntry,
});
