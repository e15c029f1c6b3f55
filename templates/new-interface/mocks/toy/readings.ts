// The readings of the open points of specs/toy.yaml that this reference implements (see mocks/readings.ts): the first
// of each is its default. `settings` is what a tester of a deployment that takes the reading would state in its
// profile; the self-test also runs each reading with the profile left silent, and the suite must pass both.
import type { OpenPointReadings } from '../readings.ts';

export const readings = [
  { point: 'T-NS-REFUSAL-STATUS', readings: [{ name: 'status-400', settings: { refusalStatus: 400 } }, { name: 'status-422', settings: { refusalStatus: 422 } }] },
] as const satisfies readonly OpenPointReadings[];
