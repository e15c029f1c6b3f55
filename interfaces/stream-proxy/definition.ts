import { defineInterface, type InterfaceDefinition } from '../definition.ts';
import { streamProxyEntry, type StreamProxySettings } from './settings.ts';

// Annotated, so that the profile's types (derived from the registry) never wait on this initializer.
export const streamProxy: InterfaceDefinition<'stream-proxy', ReturnType<typeof streamProxyEntry>> = defineInterface({
  name: 'stream-proxy',
  title: 'Interface B of 000_474e08d6792acf13.txt, the stream-proxy management interface (/api/v1/)',
  profileSchema: streamProxyEntry,
  // "Mounted at {base_url}/api/v1/, or at {base_url}/<path_prefix>/api/v1/ when a path prefix is configured."
  mount: (settings: StreamProxySettings) => settings.pathPrefix,
});
