import type { Reference } from '../../harness/reference.ts';
import { faults } from './faults.ts';
import { readings } from './readings.ts';

/** The embedded unified-exchange reference: its server (loaded when started), its seeded faults and the readings it implements. */
export const reference: Reference = {
  start: async (options) => (await import('./server.ts')).start(options),
  faults,
  readings,
};
