/**
 * A behaviour recording (issue 25): what a run's exchanges showed, one file per interface in the report folder's
 * `behaviour/` (written with --record-behaviour or a comparison). It holds observations (observation.ts), never an
 * exchange's values, and the readings the checks saw the target take; a later run is compared with it
 * (--compare-recording). Redacted when written, like every artefact.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Observation } from './observation.ts';
import { testKey } from '../planned-tests.ts';
import type { ConfiguredReadings, SeenReadings } from './attribute.ts';

export const BEHAVIOUR_DIR = 'behaviour';
/** The name of the attachment each test's observations travel in, from the worker to the reporter. */
export const BEHAVIOUR_ATTACHMENT = 'behaviour-observations';
export const RECORDING_SCHEMA_VERSION = 1;

export interface InterfaceRecording {
  schemaVersion: typeof RECORDING_SCHEMA_VERSION;
  interface: string;
  seed: number;
  profile: string;
  observations: Observation[];
  /** The readings the checks saw the target take, per test. */
  readings: Array<{ test: string; point: string; reading: string }>;
  /** An embedded reference's reading of every open point, as it was started (absent for a live target). */
  configured?: Record<string, string>;
}

export function writeRecording(reportDir: string, recordings: InterfaceRecording[], redact: (text: string) => string): void {
  const dir = path.join(reportDir, BEHAVIOUR_DIR);
  mkdirSync(dir, { recursive: true });
  for (const r of recordings) writeFileSync(path.join(dir, `${r.interface}.json`), redact(JSON.stringify(r)));
}

export interface Recording {
  seed?: number;
  profile?: string;
  observations: Observation[];
  readings: SeenReadings;
  /** Per interface, the readings an embedded reference was started in. */
  configured: ConfiguredReadings;
}

/** A report folder's recording (or a `behaviour/` folder itself); undefined when it has none. */
export function readRecording(folder: string): Recording | undefined {
  const dir = path.basename(folder) === BEHAVIOUR_DIR ? folder : path.join(folder, BEHAVIOUR_DIR);
  if (!existsSync(dir)) return undefined;
  const observations: Observation[] = [];
  const readings = new Map<string, Map<string, string>>();
  const configured = new Map<string, Map<string, string>>();
  let seed: number | undefined;
  let profile: string | undefined;
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.json')).sort()) {
    const r = JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as InterfaceRecording;
    if (r.schemaVersion !== RECORDING_SCHEMA_VERSION) throw new Error(`${path.join(dir, file)}: a recording of schema ${r.schemaVersion}, this harness reads ${RECORDING_SCHEMA_VERSION}`);
    seed ??= r.seed;
    profile ??= r.profile;
    observations.push(...r.observations);
    if (r.configured) configured.set(r.interface, new Map(Object.entries(r.configured)));
    for (const x of r.readings) {
      const key = testKey(r.interface, x.test);
      const seen = readings.get(key) ?? new Map<string, string>();
      seen.set(x.point, x.reading);
      readings.set(key, seen);
    }
  }
  return { ...(seed === undefined ? {} : { seed }), ...(profile === undefined ? {} : { profile }), observations, readings, configured };
}
