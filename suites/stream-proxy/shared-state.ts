/**
 * State of one deployment that checks must not change under each other's feet, each leased to one test at a time
 * (harness/identity.ts): the configuration documents (users live in the api-proxy one), the playlist update runs the
 * update check counts, the user's bouquet the bouquet check reads back, and the library's scan.
 */
export const SHARED_STATE = {
  configuration: 'stream-proxy-configuration',
  'update-runs': 'stream-proxy-update-runs',
  bouquet: 'stream-proxy-bouquet',
  /** A library scan runs in the background, and a second one is refused while it does. */
  'library-scan': 'stream-proxy-library-scan',
} as const;

export type SharedState = keyof typeof SHARED_STATE;
