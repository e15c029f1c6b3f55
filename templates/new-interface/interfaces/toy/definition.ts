import { defineInterface, type InterfaceDefinition } from '../definition.ts';
import { toyEntry } from './settings.ts';

// Annotated, so that the profile's types (derived from the registry) never wait on this initializer.
export const toyInterface: InterfaceDefinition<'toy', ReturnType<typeof toyEntry>> = defineInterface({
  name: 'toy',
  title: 'the toy interface of the template (templates/new-interface)',
  profileSchema: toyEntry,
  settingsHelp: ['toy:', '  credentials: { toyKey: TOY_KEY }   # the variable that holds the key', '  settings:', '    # refusalStatus: 400               # the status of an echo without a word, if you know it'].join('\n'),
});
