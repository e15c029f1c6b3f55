// The readings of the open points of specs/stream-proxy.yaml that this reference implements (see mocks/readings.ts): the
// first of each is the reference's default.
import type { OpenPointReadings } from '../readings.ts';

export const readings = [] as const satisfies readonly OpenPointReadings[];
