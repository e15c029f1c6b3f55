// The open points this reference can settle in several ways (its catalogue: readings.ts), as the server reads them:
// `reading('B-NS-...')` names the reading it was started with (the catalogue's first where none was asked for).
import { readingSwitch } from '../readings.ts';
import { readings } from './readings.ts';

export function readingsOf(asked: Readonly<Record<string, string>> | undefined) {
  return readingSwitch(readings, 'stream-proxy', asked);
}

/** The server's view of its readings, typed by the catalogue: a misspelled point or reading does not compile. */
export type ReadingOf = ReturnType<typeof readingsOf>;
